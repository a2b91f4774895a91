import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { credentialOf, deadlineIn, type Deadline } from '../shared';

/**
 * The polling trigger's limits, and every rule of its budget with its message. The rules, each one sentence:
 *
 * 1. **Half the key is left to others.** The polling triggers using one API key send together at most half of the
 *    credential's Requests per Minute (`share`) in any 60 s: each page first takes a turn of that share of the key's
 *    one limiter (the transport's `takeShare`, per API key, in this n8n process).
 * 2. **A poll fits before the next poll time.** Its expected requests must not exceed `requestsPerPoll`: the share,
 *    times the whole minutes until the next poll time (at least 1; at most what fits n8n's time budget for a poll),
 *    divided by the polls of the busiest minute of the node's Poll Times.
 * 3. **A full read fits n8n's time budget for one poll.** At the share's pace, a poll reads at most
 *    `requestsPerFullRead` pages (the share times the whole minutes of that budget, at least 1), and ends by the
 *    budget's `deadline`; past either the poll fails.
 * 4. **The memory is bounded.** The trigger remembers at most POLLING.maxLeads leads; past it a poll fails.
 *
 * The schedule is read from the Poll Times as n8n runs them (n8n-workflow's toCronExpression): the modes other than
 * Custom fire once in their minute, at a second n8n picks at random.
 */
export const POLLING = {
	/**
	 * Most leads the trigger remembers (and the most the list may hold while it polls). Measured
	 * (bench/POLLING-RESULTS.md, ids of 21 characters): 62 bytes per lead of the spec's 14 fields (3.1 MB at the cap),
	 * 116 with 40 fields or more (5.8 MB); a fingerprint is at most 89 characters (1 + 8 + 2 × 40 slots), so a lead
	 * never costs more than that, its id and 6 characters of JSON; a lead deleted in the last 7 days (`gone`) costs its
	 * id and about 17 characters more.
	 */
	maxLeads: 50_000,
	/** Records per page the trigger asks for (the API's maximum: the fewest requests). */
	pageSize: 100,
	/** How long a lead missing from the list (deleted) is still remembered, in ms: 7 days. */
	forgetAfterMs: 7 * 24 * 3_600_000,
	/** Most field slots a fingerprint names; further top-level keys share one slot. */
	maxFieldSlots: 40,
	/**
	 * Deepest nesting of a lead the trigger emits. n8n stores an execution's items with recursive code (JSON.stringify
	 * fails near 5,000 levels on Node's default stack), so a lead nested deeper would make the whole execution fail
	 * to save, the other leads with it. 512 is PHP's json_encode default depth, far beyond any CRM's custom fields.
	 */
	maxEmitDepth: 512,
	/** Default of the Full Read Interval option, in minutes: the bound on finding a lead listed out of order. */
	fullReadMinutes: 60,
} as const;

const MINUTE_MS = 60_000;
const DAY_S = 86_400;

/** n8n's time budget for one poll when it does not say (n8n 1.x): its PollContext's own default, 5 minutes. */
const DEFAULT_POLL_BUDGET_MS = 5 * MINUTE_MS;

export interface Schedule {
	/** The most polls the Poll Times can start within one minute. */
	busiestMinute: number;
	/** The shortest time between two polls, in ms (a day when there is one poll time a day or fewer). */
	shortestGapMs: number;
}

/** Times of one poll time in a day, in seconds; `random`: n8n picks the second, so it is known to ±59 s. */
interface Fires {
	times: number[];
	perMinute: number;
	random: boolean;
}

/** The values a cron field matches in [min, max]; undefined when the field cannot be read. */
function fieldValues(field: string, min: number, max: number): number[] | undefined {
	const values = new Set<number>();
	for (const part of field.split(',')) {
		const match = /^(?:\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part.trim());
		if (!match) return undefined;
		const [, first, last, step = '1'] = match;
		const from = first === undefined ? min : Number(first);
		const to = last !== undefined ? Number(last) : first === undefined || match[3] ? max : from;
		if (Number(step) < 1 || from < min || to > max || from > to) return undefined;
		for (let value = from; value <= to; value += Number(step)) values.add(value);
	}
	return [...values];
}

/** When a cron expression (5 fields, or 6 with seconds first) fires in a day; days and months are read as every day. */
function cronFires(expression: string, random: boolean): Fires | undefined {
	const fields = expression.trim().split(/\s+/);
	if (fields.length === 5) fields.unshift('0');
	if (fields.length !== 6) return undefined;
	const seconds = fieldValues(fields[0], 0, 59);
	const minutes = fieldValues(fields[1], 0, 59);
	const hours = fieldValues(fields[2], 0, 23);
	if (!seconds || !minutes || !hours) return undefined;
	const times = hours.flatMap((hour) =>
		minutes.flatMap((minute) => seconds.map((second) => hour * 3_600 + minute * 60 + second)),
	);
	return { times, perMinute: seconds.length, random };
}

/** One item of n8n's Poll Times as a cron expression, the way n8n builds it (the random second read as 0). */
function itemFires(item: IDataObject): Fires | undefined {
	if (item.mode === 'custom') return cronFires(String(item.cronExpression ?? ''), false);
	const every = Math.max(1, Math.floor(Number(item.value) || 1));
	const minute = Number(item.minute ?? 0) || 0;
	// At most once a day: the gap is read as a day (an upper bound of the budget's minutes anyway).
	const daily = `${minute} ${Number(item.hour ?? 0) || 0} * * *`;
	const expressions: Record<string, string> = {
		everyMinute: '* * * * *',
		everyHour: `${minute} * * * *`,
		// n8n's minute for "every X hours" is random too: read as minute 0 of those hours, ±59 s is not enough then,
		// but those polls are hours apart, far beyond any budget's minutes.
		everyX: item.unit === 'hours' ? `0 */${every} * * *` : `*/${every} * * * *`,
		everyDay: daily,
		everyWeek: daily,
		everyMonth: daily,
	};
	const expression = expressions[String(item.mode)];
	return expression === undefined ? undefined : cronFires(expression, true);
}

/**
 * The busiest minute and the shortest gap of n8n's "Poll Times" (the `pollTimes` every polling node has), for the
 * busiest day. A poll time it cannot read counts as a poll every minute.
 */
export function pollSchedule(pollTimes: unknown): Schedule {
	const items = ((pollTimes as IDataObject | undefined)?.item ?? []) as IDataObject[];
	const all: Array<{ at: number; item: number; random: boolean }> = [];
	let busiestMinute = 0;
	items.forEach((item, index) => {
		const fires = itemFires(item) ?? (cronFires('* * * * *', true) as Fires);
		busiestMinute += fires.perMinute;
		for (const at of fires.times) all.push({ at, item: index, random: fires.random });
	});
	if (all.length === 0) return { busiestMinute: 1, shortestGapMs: MINUTE_MS };
	all.sort((a, b) => a.at - b.at);
	// The closest two polls are next to each other in time order (the day wraps round). Polls of one poll time keep
	// their second; polls of two different ones may be 59 s closer than written when n8n picked either's second.
	let shortest = DAY_S;
	for (let index = 0; all.length > 1 && index < all.length; index++) {
		const a = all[index];
		const b = all[(index + 1) % all.length];
		let gap = (b.at - a.at + DAY_S) % DAY_S;
		if (a.item !== b.item && (a.random || b.random)) gap -= 59;
		shortest = Math.min(shortest, Math.max(0, gap));
	}
	return { busiestMinute: Math.max(1, busiestMinute), shortestGapMs: shortest * 1_000 };
}

export interface Budget {
	/** Requests per minute the polling triggers of the key may send together: half the credential's rate. */
	share: number;
	/** Requests one poll may make and still end before the next poll time (rule 2). */
	requestsPerPoll: number;
	/** The most requests one poll may make at all: a full read within n8n's time budget for a poll (rule 3). */
	requestsPerFullRead: number;
	requestsPerMinute: number;
	schedule: Schedule;
	/** The end of n8n's time budget for this poll (rule 3). */
	deadline: Deadline;
}

/** Whole minutes of `ms`, at least 1: the bursts of `share` requests that fit, one a minute. */
const bursts = (ms: number): number => Math.max(1, Math.floor(ms / MINUTE_MS));

/** The budget of one poll (see the rules above). `pollBudgetMs`: n8n's time budget for one poll, when it gives one. */
export function pollBudget(
	requestsPerMinute: number,
	schedule: Schedule,
	pollBudgetMs?: number,
): Budget {
	const share = Math.floor(requestsPerMinute / 2);
	const budgetMs =
		pollBudgetMs !== undefined && Number.isFinite(pollBudgetMs) && pollBudgetMs > 0
			? pollBudgetMs
			: DEFAULT_POLL_BUDGET_MS;
	const requestsPerPoll = Math.floor(
		(share * Math.min(bursts(schedule.shortestGapMs), bursts(budgetMs))) / schedule.busiestMinute,
	);
	const requestsPerFullRead = share * bursts(budgetMs);
	return {
		share,
		requestsPerPoll,
		requestsPerFullRead,
		requestsPerMinute,
		schedule,
		deadline: deadlineIn(budgetMs),
	};
}

/** The budget of this node's polls: the credential's rate, the node's Poll Times, and n8n's time budget for a poll. */
export async function budgetOf(context: IPollFunctions): Promise<Budget> {
	const rpm = (await credentialOf(context)).requestsPerMinute;
	if (rpm < 2) {
		throw new NodeOperationError(
			context.getNode(),
			`The credential's Requests per Minute is ${rpm}: the polling trigger uses at most half of it, which leaves it no request`,
			{
				description:
					'The trigger leaves at least half of the API key\'s rate to other workflows. Set "Requests per Minute" in the credential to the API\'s real rate limit (60 as documented; at least 2), or use the webhook trigger (CRM Invoicing Trigger).',
			},
		);
	}
	const budgetMs =
		typeof context.getPollBudgetMs === 'function' ? context.getPollBudgetMs() : undefined;
	return pollBudget(rpm, pollSchedule(context.getNodeParameter('pollTimes', {})), budgetMs);
}

/** Requests of a full read of `leads` leads. */
export const fullReadCost = (leads: number): number =>
	Math.max(1, Math.ceil(leads / POLLING.pageSize));

const minutesText = (minutes: number): string => `${minutes} minute${minutes === 1 ? '' : 's'}`;
const count = (leads: number): string => leads.toLocaleString('en-US');

function budgetAdvice(budget: Budget, needed: number): string {
	const minutes = Math.max(1, Math.ceil(needed / budget.share));
	return `The trigger sends at most half of the credential's Requests per Minute (${budget.share} a minute of ${budget.requestsPerMinute}), leaving the rest to other workflows using it, and a poll must end before the next poll time. Poll once every ${minutesText(minutes)} or less often (Poll Times), or turn off Updated Lead and Archived Lead: New Lead alone costs 1 request per poll when the API lists the newest leads first. If your plan allows more requests, raise "Requests per Minute" in the credential.`;
}

function pollsText({ busiestMinute, shortestGapMs }: Schedule): string {
	if (busiestMinute > 1) return `up to ${busiestMinute} polls in a minute`;
	const minutes = Math.floor(shortestGapMs / MINUTE_MS);
	return minutes <= 1 ? 'polling every minute' : `polls ${minutes} minutes apart`;
}

/**
 * Rules 2 and 3 before a poll: what a poll is expected to read (`expected` requests; `leads`: the list's size at the
 * last full read) must end before the next poll time, and a full read must fit n8n's time budget for a poll.
 */
export function checkBudget(
	context: IPollFunctions,
	leads: number,
	expected: number,
	budget: Budget,
): void {
	const full = fullReadCost(leads);
	if (expected > budget.requestsPerPoll) {
		throw new NodeOperationError(
			context.getNode(),
			`One poll needs about ${expected} requests to compare ${count(leads)} leads, more than the ${budget.requestsPerPoll} that fit before the next poll time at half the API's rate (${budget.requestsPerMinute} requests a minute, ${pollsText(budget.schedule)})`,
			{ description: `The trigger did not poll. ${budgetAdvice(budget, expected)}` },
		);
	}
	if (full > budget.requestsPerFullRead) {
		throw new NodeOperationError(
			context.getNode(),
			`A full read of ${count(leads)} leads needs ${full} requests, more than the ${budget.requestsPerFullRead} one poll can send within n8n's time budget for a poll at half the API's rate (${budget.share} a minute)`,
			{
				description: `The trigger did not poll: it reads the whole list at least once per Full Read Interval (and whenever the list's order does not let it stop early), and such a read would not fit. Raise "Requests per Minute" in the credential if your plan allows, or use the webhook trigger (CRM Invoicing Trigger) for this workspace.`,
			},
		);
	}
}

/** Rule 3 as the list reader says it when a poll passes it: how to narrow the list. */
export const narrowText = (budget: Budget): string =>
	`The polling trigger remembers at most ${count(POLLING.maxLeads)} leads, and one poll reads at most ${budget.requestsPerFullRead} pages of ${POLLING.pageSize}: half of the credential's Requests per Minute (${budget.share} a minute) for n8n's time budget for one poll. Raise "Requests per Minute" in the credential if your plan allows, or use the webhook trigger (CRM Invoicing Trigger) for this workspace, or archive and delete leads you no longer need.`;

/** Rule 2 bent, with a warning: a head read that falls back to a full read larger than a poll's requests. */
export const fallbackWarning = (budget: Budget, full: number): string =>
	`this poll reads the whole lead list (about ${full} requests), because its first page does not show the newest leads first; that is more than the ${budget.requestsPerPoll} that fit before the next poll time at half the API's rate, so it takes up to ${minutesText(Math.ceil(full / budget.share))} and poll times meanwhile are skipped. ${budgetAdvice(budget, full)}`;

/** Rule 4. */
export const capError = (context: IPollFunctions, leads: number): NodeOperationError =>
	new NodeOperationError(
		context.getNode(),
		`The polling trigger would have to remember ${count(leads)} leads, more than the ${count(POLLING.maxLeads)} it can`,
		{
			description:
				'The trigger keeps one fingerprint per lead in the workflow, and stops at this bound instead of growing without end. Nothing was emitted and what it remembers is unchanged. Use the webhook trigger (CRM Invoicing Trigger) for this workspace, or archive and delete leads you no longer need.',
		},
	);

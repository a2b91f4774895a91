import { NodeOperationError, sleep } from 'n8n-workflow';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { BoundedMap, credentialOf, SendLog } from '../shared';
import { POLLING, type Memory } from './memory';

/**
 * The polling trigger's request budget. Its rules, each one sentence:
 *
 * 1. **Half the key is left to others.** The polling triggers using one API key send together at most half of the
 *    credential's Requests per Minute (`share`) in any 60 s: before each page a poll waits, if it must, until their
 *    requests of the last minute are fewer (KeyShare, per API key, in this n8n process).
 * 2. **A poll fits before the next poll time.** Its expected requests must not exceed `requestsPerPoll`: the share,
 *    times the whole minutes until the next poll time (at least 1; at most what fits n8n's time budget for a poll),
 *    divided by the polls of the busiest minute of the node's Poll Times.
 * 3. **A full read fits n8n's time budget for one poll.** At the share's pace, a poll reads at most
 *    `requestsPerFullRead` pages (the share times the whole minutes of that budget, at least 1); past it the poll fails.
 *
 * The schedule is read from the Poll Times as n8n runs them (n8n-workflow's toCronExpression): the modes other than
 * Custom fire once in their minute, at a second n8n picks at random.
 */

const MINUTE_MS = 60_000;
const DAY_S = 86_400;

/** n8n's time budget for one poll when it does not say (n8n 1.x): its PollContext's own default, 5 minutes. */
export const DEFAULT_POLL_BUDGET_MS = 5 * MINUTE_MS;

export interface Schedule {
	/** The most polls the Poll Times can start within one minute. */
	busiestMinute: number;
	/** The shortest time between two polls, in ms (a day when there is one poll time a day or fewer). */
	shortestGapMs: number;
}

/** Times of one poll time in a day, in seconds; `randomSecond`: n8n picks the second, so it is known to ±59 s. */
interface Fires {
	times: number[];
	perMinute: number;
	randomSecond: boolean;
}

/** The values a cron field matches in [min, max], sorted; undefined when the field cannot be read. */
function fieldValues(field: string, min: number, max: number): number[] | undefined {
	const values = new Set<number>();
	for (const part of field.split(',')) {
		const match = /^(\*|\d+(?:-\d+)?)(?:\/(\d+))?$/.exec(part.trim());
		if (!match) return undefined;
		const step = match[2] === undefined ? 1 : Number(match[2]);
		if (step < 1) return undefined;
		let from = min;
		let to = max;
		if (match[1] !== '*') {
			const [a, b] = match[1].split('-').map(Number);
			from = a;
			to = b === undefined ? (match[2] === undefined ? a : max) : b;
		}
		if (from < min || to > max || from > to) return undefined;
		for (let value = from; value <= to; value += step) values.add(value);
	}
	return [...values].sort((a, b) => a - b);
}

/** When a cron expression (5 fields, or 6 with seconds first) fires in a day; days and months are read as every day. */
function cronFires(expression: string, randomSecond: boolean): Fires | undefined {
	const fields = expression.trim().split(/\s+/);
	if (fields.length === 5) fields.unshift('0');
	if (fields.length !== 6) return undefined;
	const seconds = fieldValues(fields[0], 0, 59);
	const minutes = fieldValues(fields[1], 0, 59);
	const hours = fieldValues(fields[2], 0, 23);
	if (
		!seconds ||
		!minutes ||
		!hours ||
		seconds.length === 0 ||
		minutes.length === 0 ||
		hours.length === 0
	)
		return undefined;
	const times: number[] = [];
	for (const hour of hours)
		for (const minute of minutes)
			for (const second of seconds) times.push(hour * 3_600 + minute * 60 + second);
	return { times, perMinute: seconds.length, randomSecond };
}

/** One item of n8n's Poll Times as a cron expression, the way n8n builds it (the random second written as 0). */
function itemFires(item: IDataObject): Fires | undefined {
	const value = Math.max(1, Math.floor(Number(item.value) || 1));
	const minute = Number(item.minute ?? 0) || 0;
	const hour = Number(item.hour ?? 0) || 0;
	switch (item.mode) {
		case 'everyMinute':
			return cronFires('0 * * * * *', true);
		case 'everyHour':
			return cronFires(`0 ${minute} * * * *`, true);
		case 'everyX':
			// n8n's minute for "every X hours" is random too: read as minute 0 of those hours, ±59 s is not enough then,
			// but those polls are hours apart, far beyond any budget's minutes.
			return cronFires(
				item.unit === 'hours' ? `0 0 */${value} * * *` : `0 */${value} * * * *`,
				true,
			);
		case 'everyDay':
		case 'everyWeek':
		case 'everyMonth':
			// At most once a day: the gap is read as a day (an upper bound of the budget's minutes anyway).
			return cronFires(`0 ${minute} ${hour} * * *`, true);
		case 'custom':
			return cronFires(String(item.cronExpression ?? ''), false);
		default:
			return undefined;
	}
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
		const fires = itemFires(item) ?? (cronFires('0 * * * * *', true) as Fires);
		busiestMinute += fires.perMinute;
		for (const at of fires.times) all.push({ at, item: index, random: fires.randomSecond });
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
	const requestsPerFullRead = share * bursts(budgetMs);
	const perPoll = Math.floor(
		(share * Math.min(bursts(schedule.shortestGapMs), bursts(budgetMs))) / schedule.busiestMinute,
	);
	return { share, requestsPerPoll: perPoll, requestsPerFullRead, requestsPerMinute, schedule };
}

/**
 * Rule 1: the polling triggers' requests with one API key, at most `perMinute` in any 60 s. A log of fixed size (the
 * transport's SendLog) per key; `take()` waits (n8n's sleep) until one more may go, and counts it.
 */
export class KeyShare {
	private readonly log = new SendLog(MINUTE_MS);

	/** The share's time never goes back behind a wait it has served. */
	private floor = 0;

	constructor(readonly perMinute: number) {}

	/** Waits for room for one more request, and takes it. */
	async take(): Promise<void> {
		for (;;) {
			const now = Math.max(Date.now(), this.floor);
			this.log.expire(now);
			if (this.log.total < this.perMinute) {
				this.log.add(now);
				return;
			}
			const until = this.log.freesAt(now);
			await sleep(until - now);
			this.floor = until;
		}
	}
}

/** The shares of the API keys polled with in this process; the least recently used past 1,000 is dropped. */
const shares = new BoundedMap<string, KeyShare>(1_000);

/** The share of one API key (its keyId) at `perMinute`, for every polling trigger using it in this process. */
export function keyShare(keyId: string, perMinute: number): KeyShare {
	return shares.getOrSet(`${keyId}\n${perMinute}`, () => new KeyShare(perMinute));
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

/** `1 minute`, `3 minutes`. */
export const minutesText = (minutes: number): string =>
	`${minutes} minute${minutes === 1 ? '' : 's'}`;

export function budgetAdvice(budget: Budget, needed: number): string {
	const minutes = Math.max(1, Math.ceil(needed / budget.share));
	return `The trigger sends at most half of the credential's Requests per Minute (${budget.share} a minute of ${budget.requestsPerMinute}), leaving the rest to other workflows using it, and a poll must end before the next poll time. Poll once every ${minutesText(minutes)} or less often (Poll Times), or turn off Updated Lead and Archived Lead: New Lead alone costs 1 request per poll when the API lists the newest leads first. If your plan allows more requests, raise "Requests per Minute" in the credential.`;
}

function pollsText(budget: Budget): string {
	const { busiestMinute, shortestGapMs } = budget.schedule;
	if (busiestMinute > 1) return `up to ${busiestMinute} polls in a minute`;
	const minutes = Math.floor(shortestGapMs / 60_000);
	return minutes <= 1 ? 'polling every minute' : `polls ${minutes} minutes apart`;
}

/**
 * Rules 2 and 3 before a poll (`onlyNew`: New Lead alone): what a poll of this node is expected to read must end before the next
 * poll time, and a full read (every poll's, or the periodic one of New Lead) must fit n8n's time budget for a poll.
 */
export function checkBudget(
	context: IPollFunctions,
	memory: Memory,
	onlyNew: boolean,
	budget: Budget,
): void {
	const full = fullReadCost(memory.count);
	const expected = onlyNew && memory.order === 'newest' ? 1 : full;
	if (expected > budget.requestsPerPoll) {
		throw new NodeOperationError(
			context.getNode(),
			`One poll needs about ${expected} requests to compare ${memory.count.toLocaleString('en-US')} leads, more than the ${budget.requestsPerPoll} that fit before the next poll time at half the API's rate (${budget.requestsPerMinute} requests a minute, ${pollsText(budget)})`,
			{ description: `The trigger did not poll. ${budgetAdvice(budget, expected)}` },
		);
	}
	if (full > budget.requestsPerFullRead) {
		throw new NodeOperationError(
			context.getNode(),
			`A full read of ${memory.count.toLocaleString('en-US')} leads needs ${full} requests, more than the ${budget.requestsPerFullRead} one poll can send within n8n's time budget for a poll at half the API's rate (${budget.share} a minute)`,
			{
				description: `The trigger did not poll: it reads the whole list at least once per Full Read Interval (and whenever the list's order does not let it stop early), and such a read would not fit. Raise "Requests per Minute" in the credential if your plan allows, or use the webhook trigger (CRM Invoicing Trigger) for this workspace.`,
			},
		);
	}
}

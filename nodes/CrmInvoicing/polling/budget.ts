import { NodeOperationError } from 'n8n-workflow';
import type { IPollFunctions } from 'n8n-workflow';

import { credentialOf, deadlineIn, type Deadline } from '../shared';

/**
 * The polling trigger's limits, and every rule of its budget with its message. The rules, each one sentence:
 *
 * 1. **Half the key is left to others.** The polling triggers using one API key send together at most half of the
 *    credential's Requests per Minute (`share`) in any 60 s: each page first takes a turn of that share of the key's
 *    one limiter (the transport's `takeShare`, per API key, in this n8n process).
 * 2. **A poll ends within n8n's time budget for one poll.** A poll reads at most `pages` pages (the share for each
 *    whole minute of that budget, at least one minute's) and asks for no page once the budget's `deadline` is near
 *    (poll.ts: readLeads); a full read that needs more goes on at the next poll from where it stopped.
 * 3. **The memory is bounded.** The trigger remembers at most POLLING.maxLeads leads; past it a poll fails.
 *
 * A poll that runs past the next poll time (n8n 1.x and 2.x without the durable scheduler, whose budget is 5
 * minutes) is no fault: n8n's poll times meanwhile are skipped (the node logs each, `skippedText`), and the next poll
 * finds everything that changed since the last one.
 */
export const POLLING = {
	/**
	 * Most leads the trigger remembers (and the most the list may hold while it polls): at most 5.8 MB, as a
	 * fingerprint is at most 89 characters (1 + 8 + 2 × 40 slots) beside its id (bench/POLLING-RESULTS.md).
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

/** n8n's time budget for one poll when it does not say (n8n 1.x): its PollContext's own default. */
const DEFAULT_POLL_BUDGET_MS = 5 * MINUTE_MS;

export interface Budget {
	/** Requests per minute the polling triggers of the key may send together: half the credential's rate (rule 1). */
	share: number;
	/** The most pages one poll reads: a whole read within n8n's time budget for a poll (rule 2). */
	pages: number;
	/** The end of n8n's time budget for this poll (rule 2). */
	deadline: Deadline;
}

/** The budget of one poll (see the rules above). `pollBudgetMs`: n8n's time budget for one poll, when it gives one. */
export function pollBudget(requestsPerMinute: number, pollBudgetMs?: number): Budget {
	const share = Math.floor(requestsPerMinute / 2);
	const budgetMs =
		pollBudgetMs !== undefined && Number.isFinite(pollBudgetMs) && pollBudgetMs > 0
			? pollBudgetMs
			: DEFAULT_POLL_BUDGET_MS;
	const pages = share * Math.max(1, Math.floor(budgetMs / MINUTE_MS));
	return { share, pages, deadline: deadlineIn(budgetMs) };
}

/** The budget of this node's polls: the credential's rate and n8n's time budget for a poll. */
export async function budgetOf(context: IPollFunctions): Promise<Budget> {
	const rpm = (await credentialOf(context)).requestsPerMinute;
	if (rpm < 2) {
		const half = 'the polling trigger uses at most half of it, which leaves it no request';
		const message = `The credential's Requests per Minute is ${rpm}: ${half}`;
		const description = [
			"The trigger leaves at least half of the API key's rate to other workflows.",
			'Set "Requests per Minute" in the credential to the API\'s real rate limit (60 as documented; at least 2),',
			'or use the webhook trigger (CRM Invoicing Trigger).',
		].join(' ');
		throw new NodeOperationError(context.getNode(), message, { description });
	}
	// n8n 1.x has no getPollBudgetMs.
	const budgetMs =
		typeof context.getPollBudgetMs === 'function' ? context.getPollBudgetMs() : undefined;
	return pollBudget(rpm, budgetMs);
}

const count = (leads: number): string => leads.toLocaleString('en-US');

const RAISE = 'raise "Requests per Minute" in the credential if your plan allows.';
const USE_WEBHOOK =
	'Use the webhook trigger (CRM Invoicing Trigger) for this workspace, or archive and delete leads you no longer need.';

/** What the node's editor shows next to Updated Lead and Archived Lead. */
export const COST_NOTICE = [
	`Updated Lead and Archived Lead compare every lead at each poll: one request per ${POLLING.pageSize} leads (10,000 leads: 100 requests).`,
	"The trigger uses at most half of the credential's Requests per Minute (30 a minute at the API's 60: 10,000 leads take about 3 minutes),",
	'so poll less often for large CRMs: poll times that come while a poll still runs are skipped.',
	'New Lead alone costs 1 request per poll when the API lists the newest leads first, plus one full read per Full Read Interval.',
].join(' ');

/** Rule 3 as the list reader says it past its cap of records: how to narrow the list. */
export const NARROW_TEXT = `The polling trigger remembers at most ${count(POLLING.maxLeads)} leads. ${USE_WEBHOOK}`;

const SKIPPED = [
	'a poll started while the previous one was still running; it was skipped, and the next poll finds what changed meanwhile.',
	'A poll that reads the whole list (Updated Lead, Archived Lead, or a list not in newest-first order)',
	"sends at most half of the credential's Requests per Minute in a minute:",
	`poll less often (Poll Times), use New Lead alone, or ${RAISE}`,
].join(' ');

/** The warning when n8n starts a poll while the node's previous one still runs (rule 2's note). */
export const skippedText = (node: string): string => `${node}: ${SKIPPED}`;

const NO_TURN = [
	"the poll got no turn of the API key's share within n8n's time budget for a poll (other polling triggers on the key used it);",
	'it sent nothing, and the next poll goes on from where the last one stopped.',
	`Poll less often (Poll Times), or ${RAISE}`,
].join(' ');

/** The warning when a poll got no turn of the key's share before n8n's time budget for it ended (rule 2). */
export const noTurnText = (node: string): string => `${node}: ${NO_TURN}`;

const CAP_WHY =
	'The trigger keeps one fingerprint per lead in the workflow, and stops at this bound instead of growing without end.';

/** Rule 3. */
export function capError(context: IPollFunctions, leads: number): NodeOperationError {
	const limit = `more than the ${count(POLLING.maxLeads)} it can`;
	const message = `The polling trigger would have to remember ${count(leads)} leads, ${limit}`;
	const unchanged = 'Nothing was emitted and what it remembers is unchanged.';
	const description = `${CAP_WHY} ${unchanged} ${USE_WEBHOOK}`;
	return new NodeOperationError(context.getNode(), message, { description });
}

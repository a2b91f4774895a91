import { NodeOperationError, type IPollFunctions } from 'n8n-workflow';

import { count, credentialOf, deadlineIn } from '../shared';

// Rules (docs/polling-trigger.md#what-it-costs): 1. the polling triggers of a key send at most half its rate;
// 2. a poll ends within n8n's time budget, a full read going on at the next poll; 3. memory is bounded (maxLeads).
// A poll that runs past the next poll time is no fault: n8n skips those, and the next poll finds every change.
export const POLLING = {
	/** At most 5.8 MB: a fingerprint is at most 89 characters beside its id (bench/POLLING-RESULTS.md). */
	maxLeads: 50_000,
	/** How long a lead missing from the list (deleted) is still remembered. */
	forgetAfterMs: 7 * 24 * 3_600_000,
	/** Further top-level keys share one slot. */
	maxFieldSlots: 40,
	/** n8n stores items with recursive code: a deeper lead would fail the whole execution's save. 512 is PHP's default. */
	maxEmitDepth: 512,
	/** Minutes: the bound on finding a lead listed out of order. */
	fullReadMinutes: 60,
} as const;

const MINUTE_MS = 60_000;

/** n8n 1.x's PollContext default. */
const DEFAULT_POLL_BUDGET_MS = 5 * MINUTE_MS;

/** The pages of one poll at its share, half the credential's rate (rule 1), and its deadline (rule 2). */
export function pollBudget(requestsPerMinute: number, pollBudgetMs = DEFAULT_POLL_BUDGET_MS) {
	const share = Math.floor(requestsPerMinute / 2);
	const budgetMs =
		pollBudgetMs > 0 && pollBudgetMs < Infinity ? pollBudgetMs : DEFAULT_POLL_BUDGET_MS;
	return {
		share,
		pages: share * Math.max(1, Math.floor(budgetMs / MINUTE_MS)),
		deadline: deadlineIn(budgetMs),
	};
}

export async function budgetOf(context: IPollFunctions) {
	const rpm = (await credentialOf(context)).requestsPerMinute;
	if (rpm < 2) {
		throw new NodeOperationError(
			context.getNode(),
			`The credential's Requests per Minute is ${rpm}: the polling trigger uses at most half of it, which leaves it no request`,
			{
				description:
					"The trigger leaves at least half of the API key's rate to other workflows. " +
					'Set "Requests per Minute" in the credential to the API\'s real rate limit (60 as documented; at least 2), ' +
					'or use the webhook trigger (CRM Invoicing Trigger).',
			},
		);
	}
	// n8n 1.x has no getPollBudgetMs.
	return pollBudget(rpm, context.getPollBudgetMs?.());
}

const RAISE = 'raise "Requests per Minute" in the credential if your plan allows.';
const USE_WEBHOOK =
	'Use the webhook trigger (CRM Invoicing Trigger) for this workspace, or archive and delete leads you no longer need.';

export const NARROW_TEXT = `The polling trigger remembers at most ${count(POLLING.maxLeads)} leads. ${USE_WEBHOOK}`;

export const SKIPPED_TEXT =
	'a poll started while the previous one was still running; it was skipped, and the next poll finds what changed meanwhile. ' +
	"A poll that reads the whole list (Updated Lead, Archived Lead, or a list not in newest-first order) sends at most half of the credential's Requests per Minute in a minute: " +
	'poll less often (Poll Times), use New Lead alone, or ' +
	RAISE;

export const NO_TURN_TEXT =
	"the poll got no turn of the API key's share within n8n's time budget for a poll (other polling triggers on the key used it); " +
	'it sent nothing, and the next poll goes on from where the last one stopped. Poll less often (Poll Times), or ' +
	RAISE;

export function capError(context: IPollFunctions, leads: number) {
	return new NodeOperationError(
		context.getNode(),
		`The polling trigger would have to remember ${count(leads)} leads, more than the ${count(POLLING.maxLeads)} it can`,
		{
			description:
				'The trigger keeps one fingerprint per lead in the workflow, and stops at this bound instead of growing without end. ' +
				`Nothing was emitted and what it remembers is unchanged. ${USE_WEBHOOK}`,
		},
	);
}

import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import { describeDuration, isPresent, type RunStats } from '../../shared';

const plural = (count: number, one: string, many: string): string =>
	`${count} ${count === 1 ? one : many}`;

/**
 * The execution hint that tells what a run cost at the CRM, when it cost more than plain requests: a list that took
 * several pages, a wait for the rate limit, or answers 429 absorbed. Undefined otherwise: a run of single requests
 * (one page per list, e.g. a Get Many per item with a small Limit) says nothing, as n8n's own nodes do. The hint gives
 * the pages of all lists of the run together.
 */
export function costHint(stats: RunStats): NodeExecutionHint | undefined {
	if (stats.mostPagesOfOneList <= 1 && stats.waitedMs <= 0 && stats.rateLimited === 0)
		return undefined;
	const parts: string[] = [];
	if (stats.pages > 1) parts.push(`read ${plural(stats.pages, 'page', 'pages')}`);
	parts.push(`sent ${plural(stats.requests, 'request', 'requests')} to the CRM`);
	if (stats.waitedMs > 0)
		parts.push(`waited ${describeDuration(stats.waitedMs)} in total for its rate limit`);
	if (stats.rateLimited > 0) {
		parts.push(
			`absorbed ${plural(stats.rateLimited, 'answer', 'answers')} 429 (Too Many Requests) by waiting and retrying`,
		);
	}
	const last = parts.pop();
	const sentence = parts.length === 0 ? last : `${parts.join(', ')} and ${last}`;
	return { message: `This run ${sentence}.`, type: 'info', location: 'outputPane' };
}

/**
 * Adds hints to the run's execution data (shown above the node's output, kept with the execution). n8n has had
 * `addExecutionHints` since 1.x (checked on 1.123 and 2.38); a context without it is left as it is.
 */
export function addHints(
	context: IExecuteFunctions,
	hints: Array<NodeExecutionHint | undefined>,
): void {
	const present = hints.filter(isPresent);
	if (present.length === 0 || typeof context.addExecutionHints !== 'function') return;
	context.addExecutionHints(...present);
}

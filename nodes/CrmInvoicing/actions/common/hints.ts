import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import { describeDuration, isPresent, type RunStats } from '../../shared';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** Only when a run cost more than plain requests, as n8n's own nodes stay silent otherwise. */
export function costHint({
	mostPagesOfOneList,
	pages,
	requests,
	waitedMs,
	rateLimited,
}: RunStats): NodeExecutionHint | undefined {
	if (mostPagesOfOneList <= 1 && waitedMs <= 0 && rateLimited === 0) return undefined;
	const parts: string[] = [];
	if (pages > 1) parts.push(`read ${plural(pages, 'page', 'pages')}`);
	parts.push(`sent ${plural(requests, 'request', 'requests')} to the CRM`);
	if (waitedMs > 0) parts.push(`waited ${describeDuration(waitedMs)} in total for its rate limit`);
	if (rateLimited > 0) {
		parts.push(
			`absorbed ${plural(rateLimited, 'answer', 'answers')} 429 (Too Many Requests) by waiting and retrying`,
		);
	}
	const last = parts.pop();
	const sentence = parts.length === 0 ? last : `${parts.join(', ')} and ${last}`;
	return { message: `This run ${sentence}.`, type: 'info', location: 'outputPane' };
}

/** n8n has `addExecutionHints` since 1.x (checked on 1.123 and 2.38); a context without it is left as it is. */
export function addHints(context: IExecuteFunctions, hints: Array<NodeExecutionHint | undefined>) {
	const present = hints.filter(isPresent);
	if (present.length === 0 || typeof context.addExecutionHints !== 'function') return;
	context.addExecutionHints(...present);
}

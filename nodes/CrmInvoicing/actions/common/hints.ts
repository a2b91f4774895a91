import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import { describeDuration, isPresent, type RunStats } from '../../shared';

/** `one` with an s for any count but 1. */
const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/** Only when a run cost more than plain requests, as n8n's own nodes stay silent otherwise. */
export function costHint({
	mostPagesOfOneList,
	pages,
	requests,
	waitedMs,
	rateLimited,
}: RunStats): NodeExecutionHint | undefined {
	if (mostPagesOfOneList <= 1 && waitedMs <= 0 && rateLimited === 0) return undefined;
	const parts = [
		pages > 1 ? `read ${plural(pages, 'page')}` : '',
		`sent ${plural(requests, 'request')} to the CRM`,
		waitedMs > 0 ? `waited ${describeDuration(waitedMs)} in total for its rate limit` : '',
		rateLimited > 0
			? `absorbed ${plural(rateLimited, 'answer')} 429 (Too Many Requests) by waiting and retrying`
			: '',
	].filter(Boolean);
	// At least two: "sent" and what made the hint (a list of pages has read more than one page in all).
	const last = parts.pop();
	return {
		message: `This run ${parts.join(', ')} and ${last}.`,
		type: 'info',
		location: 'outputPane',
	};
}

/** n8n has `addExecutionHints` since 1.x (checked on 1.123 and 2.38); a context without it is left as it is. */
export function addHints(context: IExecuteFunctions, hints: Array<NodeExecutionHint | undefined>) {
	if (typeof context.addExecutionHints !== 'function') return;
	context.addExecutionHints(...hints.filter(isPresent));
}

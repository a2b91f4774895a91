import type { IDataObject } from 'n8n-workflow';

import type { Deadline } from './deadline';
import { readList, type ApiContext, type PageRequest } from './transport';

// The spec shows no shape for GET /webhooks (§4): read as v1, v2 or a bare array (pagination's `any`).

export const WEBHOOK_LIST_MAX_PAGES = 50;

const NARROW =
	'Delete webhook subscriptions that are no longer used in the CRM, or set "Limit" instead of "Return All".';

export type WebhookListing = {
	want?: PageRequest;
	itemIndex?: number;
	maxPages?: number;
	deadline?: Deadline;
};

/** `deadline` bounds the whole list, every page included. */
export async function listWebhookSubscriptions(
	context: ApiContext,
	listing: WebhookListing = {},
): Promise<IDataObject[]> {
	const { itemIndex, maxPages = WEBHOOK_LIST_MAX_PAGES, deadline } = listing;
	const spec = {
		path: '/webhooks',
		shape: 'any' as const,
		itemIndex,
		maxPages,
		deadline,
		narrow: NARROW,
	};
	return await readList.call(context, spec, listing.want);
}

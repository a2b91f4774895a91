import type { IDataObject } from 'n8n-workflow';

import type { Deadline } from './deadline';
import { readList, type ApiContext, type PageRequest } from './transport';

/**
 * GET /webhooks, read through the one list reader (transport/pagination.ts) in any list shape the node knows. The
 * spec says only "cursor pagination" and shows no shape (§4), so the reader's `any` shape reads three:
 * - v1's `{ items, hasMore, nextCursor }` (the shape of every other v1 list), following `nextCursor`;
 * - a bare array (one answer holds the whole list);
 * - v2's `{ data, meta: { nextCursor, hasMore } }`, following `meta.nextCursor`.
 * Anything else is an error that says so, as are a repeated cursor and a record that is not an object. At most
 * `maxPages` pages are read, and the reader's caps on records and bytes apply.
 * Used by Webhook Subscription → Get Many and by the trigger's sweep of its own leftovers.
 */

export const WEBHOOK_LIST_MAX_PAGES = 50;

const NARROW =
	'Delete webhook subscriptions that are no longer used in the CRM, or set "Limit" instead of "Return All".';

/** Which webhook subscriptions to list: all (default) or `want.limit`; `deadline` bounds every page. */
export type WebhookListing = {
	want?: PageRequest;
	itemIndex?: number;
	maxPages?: number;
	deadline?: Deadline;
};

/**
 * The webhook subscriptions the key can see: all of them (at most `maxPages` pages of 100), or the first `want.limit`.
 * `deadline` bounds the whole list, every page included (the trigger's lifecycle passes its own).
 */
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

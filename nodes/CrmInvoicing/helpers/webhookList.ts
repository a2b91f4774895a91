import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { apiRequest, MAX_PAGE_SIZE, type ApiContext, type PageRequest } from '../transport';

/**
 * GET /webhooks, read fully in any list shape the node knows. The spec says only "cursor pagination" and shows no
 * shape (§4), so three are read:
 * - v1's `{ items, hasMore, nextCursor }` (the shape of every other v1 list), following `nextCursor`;
 * - a bare array (one answer holds the whole list);
 * - v2's `{ data, meta: { nextCursor, hasMore } }`, following `meta.nextCursor`.
 * Anything else is an error that says so, as is a cursor that repeats. At most `maxPages` pages are read.
 * Used by Webhook Subscription → Get Many and by the trigger's sweep of its own leftovers.
 */

export const WEBHOOK_LIST_MAX_PAGES = 50;

interface ListPage {
	records: IDataObject[];
	nextCursor: string | null;
}

const isObject = (value: unknown): value is IDataObject =>
	!!value && typeof value === 'object' && !Array.isArray(value);

/** Reads one answer of GET /webhooks; undefined when its shape is not one the node knows. */
export function readWebhookListPage(body: unknown): ListPage | undefined {
	const records = (list: unknown[]) => list.filter(isObject);
	const cursor = (value: unknown, hasMore: unknown) =>
		hasMore === false || typeof value !== 'string' || value === '' ? null : value;
	if (Array.isArray(body)) return { records: records(body), nextCursor: null };
	if (!isObject(body)) return undefined;
	if (Array.isArray(body.items)) return { records: records(body.items), nextCursor: cursor(body.nextCursor, body.hasMore) };
	if (Array.isArray(body.data)) {
		const meta = isObject(body.meta) ? body.meta : {};
		return { records: records(body.data), nextCursor: cursor(meta.nextCursor, meta.hasMore) };
	}
	return undefined;
}

function describeShape(body: unknown): string {
	if (body === undefined || body === null || body === '') return 'an empty answer';
	if (isObject(body)) {
		const keys = Object.keys(body).slice(0, 8).map((key) => key.slice(0, 30));
		return keys.length > 0 ? `an object with the keys ${keys.join(', ')}` : 'an empty object';
	}
	return `a ${typeof body}`;
}

/**
 * The webhook subscriptions the key can see: all of them (at most `maxPages` pages of 100), or the first `want.limit`.
 * `timeLimitMs` bounds the whole list, every page included (the trigger's lifecycle passes what is left of its own).
 */
export async function listWebhookSubscriptions(
	context: ApiContext,
	want: PageRequest = { returnAll: true },
	itemIndex?: number,
	maxPages = WEBHOOK_LIST_MAX_PAGES,
	timeLimitMs?: number,
): Promise<IDataObject[]> {
	const node = context.getNode();
	const end = timeLimitMs === undefined ? undefined : Date.now() + timeLimitMs;
	const limit = want.returnAll ? Infinity : Math.max(0, Math.floor(want.limit ?? 0));
	const all: IDataObject[] = [];
	const seen = new Set<string>();
	let cursor: string | undefined;
	for (let page = 1; page <= maxPages && all.length < limit; page++) {
		const qs: IDataObject = { limit: Math.min(MAX_PAGE_SIZE, limit - all.length) };
		if (cursor !== undefined) qs.cursor = cursor;
		const body: unknown = await apiRequest.call(context, {
			method: 'GET',
			path: '/webhooks',
			qs,
			itemIndex,
			...(end === undefined ? {} : { timeLimitMs: Math.max(1, end - Date.now()) }),
		});
		const read = readWebhookListPage(body);
		if (!read) {
			throw new NodeOperationError(node, `The API answered GET /webhooks with ${describeShape(body)}, not a list the node knows`, {
				description:
					'The node reads a bare array, { items, hasMore, nextCursor } (v1) and { data, meta } (v2). Check that the Base URL of the credential points at the CRM API.',
				itemIndex,
			});
		}
		all.push(...read.records.slice(0, limit - all.length));
		if (read.nextCursor === null || read.records.length === 0) return all;
		if (seen.has(read.nextCursor)) {
			throw new NodeOperationError(node, 'The API repeated a cursor while listing webhook subscriptions', {
				description: `Listing stopped after ${page} pages to avoid a loop. This is a fault of the API; report it to its provider.`,
				itemIndex,
			});
		}
		seen.add(read.nextCursor);
		cursor = read.nextCursor;
	}
	if (all.length >= limit) return all;
	throw new NodeOperationError(node, `There are more than ${maxPages * MAX_PAGE_SIZE} webhook subscriptions; the node read the first ${maxPages} pages`, {
		description: 'Delete webhook subscriptions that are no longer used in the CRM.',
		itemIndex,
	});
}

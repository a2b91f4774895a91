import type { IDataObject } from 'n8n-workflow';

import { API_PREFIX, MAX_PAGE_SIZE } from './apiChoices';
import { paginationError } from './errors';
import { READ } from './limits';
import { apiRequest, type ApiContext } from './request';

/** What a list operation asks for: everything, or at most `limit` records. */
export interface PageRequest {
	returnAll: boolean;
	/** Ignored when `returnAll` is true. */
	limit?: number;
}

interface V1Page {
	items?: IDataObject[];
	hasMore?: boolean;
	nextCursor?: string | null;
}

interface V2Page {
	data?: IDataObject[];
	meta?: { nextCursor?: string | null; hasMore?: boolean };
}

interface ListRequest {
	path: string;
	qs?: IDataObject;
	itemIndex?: number;
	/** Keeps only the records this accepts (a filter the API may not apply itself); paging goes on until the limit. */
	keep?: (record: IDataObject) => boolean;
}

/** A page in the shape both versions share. */
interface Page {
	records: IDataObject[];
	nextCursor: string | null;
}

/** What `collect` needs to name a list in its errors. */
interface LoopGuard {
	context: ApiContext;
	request: { method: string; path: string; itemIndex?: number };
	/** The cursor the first request already carries (Custom API Request continues from its first page). */
	startCursor?: string;
}

/** An identity of a page's records for the "did not advance" check: its first and last record ids. */
function pageIdentity(records: IDataObject[]): string | undefined {
	if (records.length === 0) return undefined;
	const first = records[0]?.id;
	const last = records[records.length - 1]?.id;
	if (first === undefined || first === null) return undefined;
	return `${records.length}\n${String(first)}\n${String(last)}`;
}

/**
 * The cursor loop both versions share. Return All asks for the largest page every time (the fewest requests);
 * a limit asks for exactly what is still missing, at most a full page, and stops as soon as it has enough.
 *
 * Bounded against an API that misbehaves: a cursor handed out twice, a page with the same records as the one before,
 * or an empty page that still announces more all stop the loop with an error (never a silent partial list), and no
 * list takes more than READ.maxPages pages.
 */
async function collect(
	want: PageRequest,
	guard: LoopGuard,
	fetchPage: (pageSize: number, cursor: string | undefined) => Promise<Page>,
	keep?: (record: IDataObject) => boolean,
): Promise<IDataObject[]> {
	const limit = want.returnAll ? Infinity : Math.max(0, Math.floor(want.limit ?? 0));
	const records: IDataObject[] = [];
	const seenCursors = new Set<string>();
	if (guard.startCursor) seenCursors.add(guard.startCursor);
	const fail = (what: string) => paginationError(guard.context.getNode(), guard.request, what);
	let cursor: string | undefined;
	let previousPage: string | undefined;
	for (let pages = 0; records.length < limit; pages++) {
		if (pages >= READ.maxPages) throw fail(`it still had more after ${READ.maxPages} pages`);
		const pageSize = Math.min(MAX_PAGE_SIZE, limit - records.length);
		const page = await fetchPage(pageSize, cursor);
		const room = limit - records.length;
		const kept = keep ? page.records.filter(keep) : page.records;
		const take = kept.length > room ? kept.slice(0, room) : kept;
		for (const record of take) records.push(record);
		if (!page.nextCursor || records.length >= limit) break;
		if (page.records.length === 0) {
			throw fail(`page ${pages + 1} was empty but still named a next cursor ("${page.nextCursor.slice(0, 100)}")`);
		}
		if (seenCursors.has(page.nextCursor)) {
			throw fail(`page ${pages + 1} handed back a cursor it had already given ("${page.nextCursor.slice(0, 100)}")`);
		}
		const identity = pageIdentity(page.records);
		if (identity !== undefined && identity === previousPage) {
			throw fail(`page ${pages + 1} held the same records as page ${pages}`);
		}
		previousPage = identity;
		seenCursors.add(page.nextCursor);
		cursor = page.nextCursor;
	}
	return records;
}

/** v1 lists: `limit` and `cursor` in; `items`, `hasMore`, `nextCursor` out. */
function guardOf(context: ApiContext, list: ListRequest, version: keyof typeof API_PREFIX): LoopGuard {
	const start = list.qs?.cursor;
	return {
		context,
		request: { method: 'GET', path: `${API_PREFIX[version]}${list.path}`, itemIndex: list.itemIndex },
		startCursor: typeof start === 'string' && start !== '' ? start : undefined,
	};
}

export async function paginateV1(this: ApiContext, list: ListRequest, want: PageRequest): Promise<IDataObject[]> {
	return await collect(want, guardOf(this, list, 'v1'), async (pageSize, cursor) => {
		const qs: IDataObject = { ...list.qs, limit: pageSize };
		if (cursor) qs.cursor = cursor;
		const page = (await apiRequest.call(this, {
			method: 'GET',
			path: list.path,
			version: 'v1',
			qs,
			itemIndex: list.itemIndex,
		})) as V1Page | undefined;
		return {
			records: page?.items ?? [],
			nextCursor: page?.hasMore === false ? null : (page?.nextCursor ?? null),
		};
	}, list.keep);
}

/** v2 lists: `pageSize` and `cursor` in; `data` and `meta.nextCursor` / `meta.hasMore` out. */
export async function paginateV2(this: ApiContext, list: ListRequest, want: PageRequest): Promise<IDataObject[]> {
	return await collect(want, guardOf(this, list, 'v2'), async (pageSize, cursor) => {
		const qs: IDataObject = { ...list.qs, pageSize };
		if (cursor) qs.cursor = cursor;
		const page = (await apiRequest.call(this, {
			method: 'GET',
			path: list.path,
			version: 'v2',
			qs,
			itemIndex: list.itemIndex,
		})) as V2Page | undefined;
		return {
			records: page?.data ?? [],
			nextCursor: page?.meta?.hasMore === false ? null : (page?.meta?.nextCursor ?? null),
		};
	});
}

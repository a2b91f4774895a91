import type { IDataObject } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from './apiChoices';
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

/**
 * The cursor loop both versions share. Return All asks for the largest page every time (the fewest requests);
 * a limit asks for exactly what is still missing, at most a full page, and stops as soon as it has enough.
 */
async function collect(
	want: PageRequest,
	fetchPage: (pageSize: number, cursor: string | undefined) => Promise<Page>,
	keep?: (record: IDataObject) => boolean,
): Promise<IDataObject[]> {
	const limit = want.returnAll ? Infinity : Math.max(0, Math.floor(want.limit ?? 0));
	const records: IDataObject[] = [];
	let cursor: string | undefined;
	while (records.length < limit) {
		const pageSize = Math.min(MAX_PAGE_SIZE, limit - records.length);
		const page = await fetchPage(pageSize, cursor);
		const room = limit - records.length;
		const kept = keep ? page.records.filter(keep) : page.records;
		const take = kept.length > room ? kept.slice(0, room) : kept;
		for (const record of take) records.push(record);
		if (!page.nextCursor || page.records.length === 0) break;
		cursor = page.nextCursor;
	}
	return records;
}

/** v1 lists: `limit` and `cursor` in; `items`, `hasMore`, `nextCursor` out. */
export async function paginateV1(this: ApiContext, list: ListRequest, want: PageRequest): Promise<IDataObject[]> {
	return await collect(want, async (pageSize, cursor) => {
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
	return await collect(want, async (pageSize, cursor) => {
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

import type { IDataObject } from 'n8n-workflow';

import type { Deadline } from '../deadline';
import { contentTypeOf, describeValue, isPlainObject } from '../values';
import { API_PREFIX, type ApiContext, type ApiRequest, MAX_PAGE_SIZE } from './connection';
import { apiError, describeAnswer, LIST, READ } from './errors';
import { apiRequestFull } from './request';
import { runStatsOf } from './wire';

/**
 * The one list reader, `readPages`: the page shapes the node knows, the loop guards, the caps on one list (READ, LIST)
 * and the check that every record is a JSON object.
 */

export type PageRequest = { returnAll: boolean; limit?: number };

/** `v1` and `v2` are the spec's; `any` also reads a bare array and tells v1 from v2 by the answer (GET /webhooks). */
export type ListShape = 'v1' | 'v2' | 'any';

/** A list: `path`, `version`, `qs` (without cursor and page size) and `itemIndex` as in ApiRequest. */
export interface ListSpec extends Pick<ApiRequest, 'path' | 'version' | 'qs' | 'itemIndex'> {
	/** Default: the version's own shape. */
	shape?: ListShape;
	startCursor?: string;
	/** Default MAX_PAGE_SIZE (the fewest requests), READ.maxPages and LIST.maxRecords. */
	pageSize?: number;
	maxPages?: number;
	maxRecords?: number;
	/** By when the whole list must be read, each page's request included. */
	deadline?: Deadline;
	/** How to narrow this list, told when it passes a cap. */
	narrow?: string;
	/** A first answer that is not a list is yielded as a page of shape `other`, not an error (Custom API Request). */
	otherOnFirstPage?: boolean;
	/** An entry that is not a JSON object fails the list unless this is given: then it is told what and where. */
	skipEntry?: (described: string, position: number, page: number) => void;
}

/** One page; `nextCursor` null on the last, `number` 1 for the first; `other` only with `otherOnFirstPage`. */
export interface ListPage {
	records: IDataObject[];
	nextCursor: string | null;
	number: number;
	shape: 'v1' | 'v2' | 'array' | 'other';
	other?: unknown;
}

const nextCursorOf = ({ nextCursor, hasMore }: IDataObject): string | null =>
	hasMore === false || typeof nextCursor !== 'string' || nextCursor === '' ? null : nextCursor;

type RawPage = { list: unknown[]; nextCursor: string | null; shape: 'v1' | 'v2' | 'array' };

function readPageShape(body: unknown, shape: ListShape): RawPage | undefined {
	if (Array.isArray(body))
		return shape === 'any' ? { list: body, nextCursor: null, shape: 'array' } : undefined;
	if (!isPlainObject(body)) return undefined;
	if (shape !== 'v2' && Array.isArray(body.items))
		return { list: body.items, nextCursor: nextCursorOf(body), shape: 'v1' };
	if (shape === 'v1' || !Array.isArray(body.data)) return undefined;
	const meta = isPlainObject(body.meta) ? body.meta : {};
	return { list: body.data, nextCursor: nextCursorOf(meta), shape: 'v2' };
}

const NARROW =
	'Narrow the list with the operation\'s filters, or set "Limit" instead of "Return All".';

/**
 * Yields a list page by page: a caller that has what it needs stops, and no further page is asked for. Any fault is an
 * error, never a silent partial list. `pageSizeFor` may shrink a page (a "Limit" asks for exactly what is missing).
 */
export async function* readPages(
	this: ApiContext,
	spec: ListSpec,
	pageSizeFor?: (recordsSoFar: number) => number,
): AsyncGenerator<ListPage, void, undefined> {
	const { itemIndex, deadline, skipEntry, version = 'v1', narrow = NARROW } = spec;
	const { maxPages = READ.maxPages, maxRecords = LIST.maxRecords } = spec;
	let shape: ListShape = spec.shape ?? version;
	const path = `${API_PREFIX[version]}${spec.path}`;
	let cursor = spec.startCursor || undefined;
	const seenCursors = new Set(cursor ? [cursor] : []);
	let [records, bytes, previousPage] = [0, 0, ''];
	const startedAt = Date.now();
	const fail = (message: string, description = narrow, status?: number) =>
		apiError(this.getNode(), { method: 'GET', path, itemIndex }, message, description, status);
	const capped = (what: string) => fail(`The list ${path} ${what}; nothing of it was output`);
	const count = (n: number) => n.toLocaleString('en-US');
	for (let number = 1; ; number++) {
		const late = deadline !== undefined && Date.now() >= deadline;
		if (late || number > maxPages)
			throw capped(
				late
					? `took longer than ${Math.max(0, Math.ceil((deadline - startedAt) / 1000))} s, its time limit, after ${number - 1} pages (${count(records)} records)`
					: `has more than ${count(maxPages)} pages, the most the node reads of this list (${count(records)} records read)`,
			);
		const wanted = pageSizeFor ? pageSizeFor(records) : (spec.pageSize ?? MAX_PAGE_SIZE);
		const pageSize = Math.max(1, Math.min(MAX_PAGE_SIZE, Math.floor(wanted)));
		const qs: IDataObject = { ...spec.qs, [version === 'v2' ? 'pageSize' : 'limit']: pageSize };
		if (cursor) qs.cursor = cursor;
		const request = { method: 'GET' as const, path: spec.path, version, qs, itemIndex, deadline };
		const { body, bodyBytes, statusCode, headers } = await apiRequestFull.call(this, request);
		bytes += bodyBytes;
		const raw = readPageShape(body, shape);
		if (!raw && number === 1 && spec.otherOnFirstPage) {
			yield { records: [], nextCursor: null, number, shape: 'other', other: body };
			return;
		}
		if (!raw)
			throw fail(
				`The CRM API answered GET ${path} with ${statusCode} (${contentTypeOf(headers)}) and ${describeAnswer(body)}, not a list`,
				`The node reads lists as { items, hasMore, nextCursor } (v1), { data, meta } (v2) or, where the spec does not show the shape, a bare array. Check that the credential's Base URL points at the CRM API itself (not a login page, proxy or web site).`,
				statusCode,
			);
		const page = raw.list.filter((entry, index) => {
			if (isPlainObject(entry)) return true;
			if (!skipEntry)
				throw fail(
					`The CRM API's list ${path} held ${describeValue(entry)} at position ${index + 1} of page ${number}, where a record (a JSON object) was expected`,
					'Every record of a list must be a JSON object. This is a fault of the API or of a proxy in front of it; nothing of this list was output.',
					statusCode,
				);
			skipEntry(describeValue(entry), index + 1, number);
			return false;
		}) as IDataObject[];
		// A list read in any shape keeps the shape of its first page: a v1 page followed by a bare array is a fault.
		if (shape === 'any' && raw.shape !== 'array') shape = raw.shape;
		records += page.length;
		if (records > maxRecords || bytes > LIST.maxBytes)
			throw capped(
				records > maxRecords
					? `holds more than ${count(maxRecords)} records, the most the node reads of this list`
					: `is larger than ${LIST.maxBytes / 2 ** 20} MB, the most one list may hold in the node`,
			);
		const { nextCursor } = raw;
		// A page's identity: its size and its first and last record ids (none when the first has no id).
		const first = page[0]?.id;
		const identity =
			first === undefined || first === null ? '' : `${page.length}\n${first}\n${page.at(-1)?.id}`;
		const stuck =
			nextCursor === null
				? undefined
				: page.length === 0
					? `was empty but still named a next cursor ("${nextCursor.slice(0, 100)}")`
					: seenCursors.has(nextCursor)
						? `handed back a cursor it had already given ("${nextCursor.slice(0, 100)}")`
						: identity !== '' && identity === previousPage
							? `held the same records as page ${number - 1}`
							: undefined;
		if (stuck)
			throw fail(
				`The CRM API's list ${path} did not advance: page ${number} ${stuck}. The node stopped reading it`,
				'The API handed back a cursor it had already given, or a page that does not move on, so reading further would loop forever. The records read so far were not output, so nothing is reported as complete that is not. Try again later, or read fewer records ("Limit") if the API keeps doing this.',
			);
		const stats = runStatsOf(this);
		stats.pages++;
		stats.mostPagesOfOneList = Math.max(stats.mostPagesOfOneList, number);
		yield { records: page, nextCursor, number, shape: raw.shape };
		if (nextCursor === null) return;
		[cursor, previousPage] = [nextCursor, identity];
		seenCursors.add(nextCursor);
	}
}

/** A whole list, or its first `want.limit` records; `keep` drops records a filter the API may ignore let through. */
export async function readList(
	this: ApiContext,
	spec: ListSpec,
	want: PageRequest = { returnAll: true },
	keep?: (record: IDataObject) => boolean,
): Promise<IDataObject[]> {
	const limit = want.returnAll ? Infinity : Math.max(0, Math.floor(want.limit ?? 0));
	const records: IDataObject[] = [];
	if (limit === 0) return records;
	for await (const page of readPages.call(this, spec, () => limit - records.length)) {
		for (const record of page.records) {
			if (keep && !keep(record)) continue;
			records.push(record);
			if (records.length >= limit) return records;
		}
	}
	return records;
}

/** The first page of a list, for n8n's list searches (one page per call, `nextCursor` their pagination token). */
export async function readOnePage(this: ApiContext, spec: ListSpec): Promise<ListPage> {
	return (await readPages.call(this, spec).next()).value as ListPage;
}

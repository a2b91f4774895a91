import type { IDataObject } from 'n8n-workflow';

import type { Deadline } from '../deadline';
import { contentTypeOf, isPlainObject } from '../values';
import { API_PREFIX, type ApiContext, type ApiVersion, MAX_PAGE_SIZE } from './connection';
import { apiError, cut, describeAnswer, LIST, READ, type RequestSummary } from './errors';
import { apiRequestFull } from './request';
import { runStatsOf } from './wire';

/**
 * The one list reader. Every list the package reads (Get Many, Custom API Request → Paginate, webhook lists, the
 * lead picker's scan, Create or Update's search, the polling trigger) goes through `readPages`, which holds:
 * - the page shapes the node knows (v1 `{ items, hasMore, nextCursor }`, v2 `{ data, meta }`, a bare array);
 * - the loop guards (a repeated cursor, a repeated page, an empty page that claims more, READ.maxPages);
 * - the caps on what one list may hold (LIST.maxRecords records, LIST.maxBytes bytes of answers);
 * - the check that every record is a JSON object.
 */

/** What a list operation asks for: everything, or at most `limit` records. */
export interface PageRequest {
	returnAll: boolean;
	/** Ignored when `returnAll` is true. */
	limit?: number;
}

/**
 * The shapes a list answer may have. `v1` and `v2` are the spec's; `any` also reads a bare array and tells v1 from v2
 * by the answer (GET /webhooks, whose shape the spec does not show, and Custom API Request).
 */
export type ListShape = 'v1' | 'v2' | 'any';

export interface ListSpec {
	/** Path under the version prefix, e.g. `/leads`. */
	path: string;
	/** Default v1. */
	version?: ApiVersion;
	/** Query parameters other than the cursor and the page size. */
	qs?: IDataObject;
	/** Default: the version's own shape. */
	shape?: ListShape;
	itemIndex?: number;
	/** A cursor to start from (Custom API Request continues from the cursor its user gave). */
	startCursor?: string;
	/** Asks for pages of this size (default MAX_PAGE_SIZE, the fewest requests). */
	pageSize?: number;
	/** Most pages to read; past it the list fails with `tooLong` (default READ.maxPages). */
	maxPages?: number;
	/** Most records the list may hold (default LIST.maxRecords). */
	maxRecords?: number;
	/**
	 * By when the whole list must be read (e.g. the trigger's sweep during activation): each page's request gets what is
	 * left of it, and when nothing is left the list fails with an error that says so.
	 */
	deadline?: Deadline;
	/** Tells the user how to narrow this list when it passes a cap, e.g. 'Use a filter or set "Limit".' */
	narrow?: string;
	/**
	 * When the first answer is not a list, yield it as one page of shape `other` (no records, the answer in `other`)
	 * instead of failing: Custom API Request outputs such an answer as it is. Later pages must always be lists.
	 */
	otherOnFirstPage?: boolean;
	/**
	 * An entry that is not a JSON object fails the list, unless this is given: then it is left out, and this is told
	 * what it was (`described`), where, so that the caller can name it (the polling trigger, which no entry may stop).
	 */
	skipEntry?: (described: string, position: number, page: number) => void;
}

/** One page, in the shape every version shares. */
export interface ListPage {
	records: IDataObject[];
	/** The cursor of the next page; null on the last page. */
	nextCursor: string | null;
	/** 1 for the first page. */
	number: number;
	/** The shape the answer had; `other` only with `otherOnFirstPage`, on page 1. */
	shape: 'v1' | 'v2' | 'array' | 'other';
	/** With shape `other`: the answer itself (parsed JSON when it was JSON text). */
	other?: unknown;
}

const nextCursorOf = (cursor: unknown, hasMore: unknown): string | null =>
	hasMore === false || typeof cursor !== 'string' || cursor === '' ? null : cursor;

interface RawPage {
	list: unknown[];
	nextCursor: string | null;
	shape: 'v1' | 'v2' | 'array';
}

/** Reads one answer in the shapes `shape` allows; undefined when it has none of them. */
function readPageShape(body: unknown, shape: ListShape): RawPage | undefined {
	const any = shape === 'any';
	if (Array.isArray(body))
		return any ? { list: body, nextCursor: null, shape: 'array' } : undefined;
	if (!isPlainObject(body)) return undefined;
	if ((shape === 'v1' || any) && Array.isArray(body.items)) {
		const nextCursor = nextCursorOf(body.nextCursor, body.hasMore);
		return { list: body.items, nextCursor, shape: 'v1' };
	}
	if (!(shape === 'v2' || any) || !Array.isArray(body.data)) return undefined;
	const meta = isPlainObject(body.meta) ? body.meta : {};
	return { list: body.data, nextCursor: nextCursorOf(meta.nextCursor, meta.hasMore), shape: 'v2' };
}

/** A list entry that is not a record, for the error that names it: `null`, `the number 7`, `the text "x"`, `an array`. */
function describeEntry(value: unknown): string {
	if (value === null) return 'null';
	if (value === undefined) return 'nothing (undefined)';
	if (typeof value === 'string') return `the text "${cut(value.replace(/\s+/g, ' '), 60)}"`;
	if (typeof value === 'number' || typeof value === 'boolean')
		return `the ${typeof value} ${String(value)}`;
	if (Array.isArray(value)) return `an array of ${value.length}`;
	return `a ${typeof value}`;
}

const SHAPE_NAMES: Record<ListShape, string> = {
	v1: '{ items, hasMore, nextCursor }',
	v2: '{ data, meta: { nextCursor, hasMore } }',
	any: 'a bare array, { items, hasMore, nextCursor } (v1) or { data, meta } (v2)',
};

/** `128 MB`, `64 KB`. */
const describeBytes = (bytes: number): string =>
	bytes >= 1024 * 1024
		? `${Math.round(bytes / 1024 / 104.8576) / 10} MB`
		: `${Math.round(bytes / 102.4) / 10} KB`;

/**
 * Reads a list page by page, under the guards and caps above, and yields each page. A caller that has what it needs
 * stops iterating, and no further page is requested. Any fault is an error: never a silent partial list.
 *
 * `pageSizeFor(recordsSoFar)` may shrink the page asked for (a "Limit" asks for exactly what is still missing).
 */
export async function* readPages(
	this: ApiContext,
	spec: ListSpec,
	pageSizeFor?: (recordsSoFar: number) => number,
): AsyncGenerator<ListPage, void, undefined> {
	const version: ApiVersion = spec.version ?? 'v1';
	let shape: ListShape = spec.shape ?? version;
	const path = `${API_PREFIX[version]}${spec.path}`;
	const summary: RequestSummary = { method: 'GET', path, itemIndex: spec.itemIndex };
	const maxPages = spec.maxPages ?? READ.maxPages;
	const maxRecords = spec.maxRecords ?? LIST.maxRecords;
	const narrow =
		spec.narrow ??
		'Narrow the list with the operation\'s filters, or set "Limit" instead of "Return All".';
	const seenCursors = new Set<string>();
	if (spec.startCursor) seenCursors.add(spec.startCursor);
	let cursor = spec.startCursor || undefined;
	let previousPage: string | undefined;
	let records = 0;
	let bytes = 0;
	const deadline = spec.deadline ?? Infinity;
	const startedAt = Date.now();
	const fail = (message: string, description: string, status?: number) =>
		apiError(this.getNode(), summary, message, description, status);
	for (let number = 1; ; number++) {
		if (number > maxPages) {
			throw fail(
				`The list ${summary.path} has more than ${maxPages.toLocaleString('en-US')} pages, the most the node reads of this list (${records.toLocaleString('en-US')} records read); nothing of it was output`,
				narrow,
			);
		}
		if (Date.now() >= deadline) {
			const limit = Math.max(0, Math.ceil((deadline - startedAt) / 1000));
			throw fail(
				`The list ${summary.path} took longer than ${limit} s, its time limit, after ${number - 1} pages (${records.toLocaleString('en-US')} records); nothing of it was output`,
				narrow,
			);
		}
		const wanted = pageSizeFor ? pageSizeFor(records) : (spec.pageSize ?? MAX_PAGE_SIZE);
		const pageSize = Math.max(1, Math.min(MAX_PAGE_SIZE, Math.floor(wanted)));
		const qs: IDataObject = { ...spec.qs, [version === 'v2' ? 'pageSize' : 'limit']: pageSize };
		if (cursor) qs.cursor = cursor;
		const response = await apiRequestFull.call(this, {
			method: 'GET',
			path: spec.path,
			version,
			qs,
			itemIndex: spec.itemIndex,
			deadline: spec.deadline,
		});
		const body: unknown = response.body; // parsed by the transport when it was JSON
		bytes += response.bodyBytes;
		const raw = readPageShape(body, shape);
		if (!raw && number === 1 && spec.otherOnFirstPage) {
			yield { records: [], nextCursor: null, number, shape: 'other', other: body };
			return;
		}
		if (!raw) {
			throw fail(
				`The CRM API answered ${summary.method} ${summary.path} with ${response.statusCode} (${contentTypeOf(response.headers)}) and ${describeAnswer(body)}, not a list`,
				`The node reads lists as ${SHAPE_NAMES[shape]}. Check that the credential's Base URL points at the CRM API itself (not a login page, proxy or web site).`,
				response.statusCode,
			);
		}
		if (spec.skipEntry) {
			const kept: unknown[] = [];
			for (let index = 0; index < raw.list.length; index++) {
				if (isPlainObject(raw.list[index])) kept.push(raw.list[index]);
				else spec.skipEntry(describeEntry(raw.list[index]), index + 1, number);
			}
			raw.list = kept;
		}
		const bad = raw.list.findIndex((record) => !isPlainObject(record));
		if (bad >= 0) {
			throw fail(
				`The CRM API's list ${summary.path} held ${describeEntry(raw.list[bad])} at position ${bad + 1} of page ${number}, where a record (a JSON object) was expected`,
				'Every record of a list must be a JSON object. This is a fault of the API or of a proxy in front of it; nothing of this list was output.',
				response.statusCode,
			);
		}
		// A list read in any shape keeps the shape of its first page: a v1 page followed by a bare array is a fault.
		if (shape === 'any') shape = raw.shape === 'array' ? 'any' : raw.shape;
		const page = raw.list as IDataObject[];
		records += page.length;
		if (records > maxRecords) {
			throw fail(
				`The list ${summary.path} holds more than ${maxRecords.toLocaleString('en-US')} records, the most the node reads of this list; nothing of it was output`,
				narrow,
			);
		}
		if (bytes > LIST.maxBytes) {
			throw fail(
				`The list ${summary.path} is larger than ${describeBytes(LIST.maxBytes)}, the most one list may hold in the node; nothing of it was output`,
				narrow,
			);
		}
		const nextCursor = raw.nextCursor;
		if (nextCursor !== null) {
			const loops = (what: string) =>
				fail(
					`The CRM API's list ${summary.path} did not advance: ${what}. The node stopped reading it`,
					'The API handed back a cursor it had already given, or a page that does not move on, so reading further would loop forever. The records read so far were not output, so nothing is reported as complete that is not. Try again later, or read fewer records ("Limit") if the API keeps doing this.',
				);
			if (page.length === 0)
				throw loops(
					`page ${number} was empty but still named a next cursor ("${nextCursor.slice(0, 100)}")`,
				);
			if (seenCursors.has(nextCursor)) {
				throw loops(
					`page ${number} handed back a cursor it had already given ("${nextCursor.slice(0, 100)}")`,
				);
			}
			// A page's identity: its size and its first and last record ids.
			const [first, last] = [page[0]?.id, page[page.length - 1]?.id];
			const identity =
				first === undefined || first === null ? undefined : `${page.length}\n${first}\n${last}`;
			if (identity !== undefined && identity === previousPage)
				throw loops(`page ${number} held the same records as page ${number - 1}`);
			previousPage = identity;
			seenCursors.add(nextCursor);
		}
		const stats = runStatsOf(this);
		stats.pages++;
		stats.mostPagesOfOneList = Math.max(stats.mostPagesOfOneList, number);
		yield { records: page, nextCursor, number, shape: raw.shape };
		if (nextCursor === null) return;
		cursor = nextCursor;
	}
}

/**
 * A whole list, or its first `want.limit` records, through `readPages`. Return All asks for the largest page every
 * time (the fewest requests); a limit asks for exactly what is still missing and stops as soon as it has enough.
 * `keep` drops records the API should not have returned (a filter it may ignore); paging goes on until the limit.
 * Pages are joined without spreading them into one call, so any number of records (up to the caps) can be joined.
 */
export async function readList(
	this: ApiContext,
	spec: ListSpec,
	want: PageRequest = { returnAll: true },
	keep?: (record: IDataObject) => boolean,
): Promise<IDataObject[]> {
	const limit = want.returnAll ? Infinity : Math.max(0, Math.floor(want.limit ?? 0));
	const records: IDataObject[] = [];
	if (limit === 0) return records;
	const pageSizeFor =
		limit === Infinity ? undefined : () => Math.min(MAX_PAGE_SIZE, limit - records.length);
	for await (const page of readPages.call(this, spec, pageSizeFor)) {
		for (const record of page.records) {
			if (keep && !keep(record)) continue;
			records.push(record);
			if (records.length >= limit) return records;
		}
	}
	return records;
}

/**
 * The first page of a list, through `readPages` (shape and record checks included): for n8n's list searches, which
 * read one page per call and hand `nextCursor` back to n8n as their pagination token.
 */
export async function readOnePage(this: ApiContext, spec: ListSpec): Promise<ListPage> {
	// readPages yields a first page or throws.
	return (await readPages.call(this, spec).next()).value as ListPage;
}

import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, IN8nHttpFullResponse } from 'n8n-workflow';

import { API_PREFIX, MAX_PAGE_SIZE } from './spec';
import { cut, describeAnswer, keepMessage, paginationError, type RequestSummary } from './errors';
import { LIST, READ } from './limits';
import type { ApiContext, ApiVersion } from './connection';
import { apiRequestFull } from './request';
import { countStats } from './stats';
import { contentTypeOf, headerValue, isPlainObject } from './values';

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
	/** Time limit of each page's request, in ms (see ApiRequest.timeLimitMs). */
	timeLimitMs?: number;
	/**
	 * Time limit of the whole list, in ms (e.g. the trigger's sweep during activation): each page's request gets at most
	 * what is left of it, and when nothing is left the list fails with an error that says so.
	 */
	totalTimeLimitMs?: number;
	/** The instant (ms since the epoch) by which the whole list must be read; with totalTimeLimitMs, the earlier wins. */
	deadline?: number;
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
export function readPageShape(body: unknown, shape: ListShape): RawPage | undefined {
	if (Array.isArray(body))
		return shape === 'any' ? { list: body, nextCursor: null, shape: 'array' } : undefined;
	if (!isPlainObject(body)) return undefined;
	if ((shape === 'v1' || shape === 'any') && Array.isArray(body.items)) {
		return {
			list: body.items,
			nextCursor: nextCursorOf(body.nextCursor, body.hasMore),
			shape: 'v1',
		};
	}
	if ((shape === 'v2' || shape === 'any') && Array.isArray(body.data)) {
		const meta = isPlainObject(body.meta) ? body.meta : {};
		return {
			list: body.data,
			nextCursor: nextCursorOf(meta.nextCursor, meta.hasMore),
			shape: 'v2',
		};
	}
	return undefined;
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

/**
 * The size of an answer's body, for the list's byte cap: what the transport counted while reading it (`bodyBytes`),
 * else its Content-Length, else the length of its text; 0 when none is known (a parsed body without a length).
 */
function bodyBytesOf(response: IN8nHttpFullResponse): number {
	const counted = (response as { bodyBytes?: unknown }).bodyBytes;
	if (typeof counted === 'number' && Number.isFinite(counted)) return counted;
	const header = headerValue(response.headers, 'content-length');
	const length = header === undefined || header.trim() === '' ? NaN : Number(header);
	if (Number.isFinite(length) && length >= 0) return length;
	return typeof response.body === 'string' ? response.body.length : 0;
}

/** `128 MB`, `64 KB`, `900 bytes`. */
function describeBytes(bytes: number): string {
	if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
	if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
	return `${bytes} bytes`;
}

function listError(
	context: ApiContext,
	summary: RequestSummary,
	message: string,
	description: string,
	status?: number,
): NodeApiError {
	const error = new NodeApiError(
		context.getNode(),
		{ message, method: summary.method, path: summary.path },
		{
			message,
			description,
			itemIndex: summary.itemIndex,
			httpCode: status === undefined ? undefined : String(status),
		},
	);
	return keepMessage(error, message);
}

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
	const summary: RequestSummary = {
		method: 'GET',
		path: `${API_PREFIX[version]}${spec.path}`,
		itemIndex: spec.itemIndex,
	};
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
	const deadline = Math.min(
		spec.deadline ?? Infinity,
		spec.totalTimeLimitMs === undefined ? Infinity : Date.now() + spec.totalTimeLimitMs,
	);
	for (let number = 1; ; number++) {
		if (number > maxPages) {
			throw listError(
				this,
				summary,
				`The list ${summary.path} has more than ${maxPages.toLocaleString('en-US')} pages, the most the node reads of this list (${records.toLocaleString('en-US')} records read); nothing of it was output`,
				narrow,
			);
		}
		const left = deadline - Date.now();
		if (left <= 0) {
			throw listError(
				this,
				summary,
				`The list ${summary.path} took longer than ${Math.ceil((spec.totalTimeLimitMs ?? 0) / 1000)} s, its time limit, after ${number - 1} pages (${records.toLocaleString('en-US')} records); nothing of it was output`,
				narrow,
			);
		}
		const timeLimitMs =
			left === Infinity ? spec.timeLimitMs : Math.min(spec.timeLimitMs ?? Infinity, left);
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
			timeLimitMs,
		});
		let body: unknown = response.body;
		bytes += bodyBytesOf(response);
		if (typeof body === 'string') {
			try {
				body = JSON.parse(body);
			} catch {
				// Not JSON: reported below with its first characters.
			}
		}
		const raw = readPageShape(body, shape);
		if (!raw && number === 1 && spec.otherOnFirstPage) {
			yield { records: [], nextCursor: null, number, shape: 'other', other: body };
			return;
		}
		if (!raw) {
			throw listError(
				this,
				summary,
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
			throw listError(
				this,
				summary,
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
			throw listError(
				this,
				summary,
				`The list ${summary.path} holds more than ${maxRecords.toLocaleString('en-US')} records, the most the node reads of this list; nothing of it was output`,
				narrow,
			);
		}
		if (bytes > LIST.maxBytes) {
			throw listError(
				this,
				summary,
				`The list ${summary.path} is larger than ${describeBytes(LIST.maxBytes)}, the most one list may hold in the node; nothing of it was output`,
				narrow,
			);
		}
		const nextCursor = raw.nextCursor;
		if (nextCursor !== null) {
			const fail = (what: string) => paginationError(this.getNode(), summary, what);
			if (page.length === 0)
				throw fail(
					`page ${number} was empty but still named a next cursor ("${nextCursor.slice(0, 100)}")`,
				);
			if (seenCursors.has(nextCursor)) {
				throw fail(
					`page ${number} handed back a cursor it had already given ("${nextCursor.slice(0, 100)}")`,
				);
			}
			const identity = pageIdentity(page);
			if (identity !== undefined && identity === previousPage)
				throw fail(`page ${number} held the same records as page ${number - 1}`);
			previousPage = identity;
			seenCursors.add(nextCursor);
		}
		countStats.page(this, number);
		yield { records: page, nextCursor, number, shape: raw.shape };
		if (nextCursor === null) return;
		cursor = nextCursor;
	}
}

/** An identity of a page's records for the "did not advance" check: its size and its first and last record ids. */
function pageIdentity(records: IDataObject[]): string | undefined {
	if (records.length === 0) return undefined;
	const first = records[0]?.id;
	const last = records[records.length - 1]?.id;
	if (first === undefined || first === null) return undefined;
	return `${records.length}\n${String(first)}\n${String(last)}`;
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
	for await (const page of readPages.call(this, spec)) return page;
	// readPages yields a first page or throws; this is never reached.
	return { records: [], nextCursor: null, number: 1, shape: spec.version ?? 'v1' };
}

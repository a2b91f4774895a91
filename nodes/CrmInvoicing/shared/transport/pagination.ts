import type { IDataObject } from 'n8n-workflow';

import { contentTypeOf, count, describeValue, isPlainObject } from '../values';
import { API_PREFIX, runStatsOf, type ApiContext, type ApiRequest } from './connection';
import { apiError, CHECK_BASE_URL } from './errors';
import { LIST, MAX_PAGE_SIZE } from './limits';
import { apiRequestFull } from './request';

export type PageRequest = { returnAll: boolean; limit?: number };

/** `any` also reads a bare array and tells v1 from v2 (GET /webhooks). */
type ListShape = 'v1' | 'v2' | 'any';

export interface ListSpec
	extends Pick<ApiRequest, 'path' | 'version' | 'qs' | 'itemIndex' | 'deadline'> {
	shape?: ListShape;
	startCursor?: string;
	/** Past a cap, the error says how to narrow the list. */
	maxPages?: number;
	maxRecords?: number;
	narrow?: string;
	/** Custom API Request: a first answer that is not a list is a page of shape `other`. */
	otherOnFirstPage?: boolean;
	/** Without it, an entry that is not a JSON object fails the list. */
	skipEntry?: (described: string, position: number, page: number) => void;
	/** readList asks for pages of 100 even under a Limit: how many records a page needs to give the missing matches
	 * of a filter the API cannot apply is not known. */
	wholePages?: boolean;
}

const nextCursorOf = ({ nextCursor, hasMore }: IDataObject) =>
	hasMore === false || typeof nextCursor !== 'string' || nextCursor === '' ? null : nextCursor;

function pageOf(body: unknown, shape: ListShape) {
	const { items, data, meta } = Object(body) as IDataObject;
	if (Array.isArray(body))
		return shape === 'any' ? { list: body, nextCursor: null, shape } : undefined;
	if (shape !== 'v2' && Array.isArray(items))
		return { list: items, nextCursor: nextCursorOf(body as IDataObject), shape: 'v1' as const };
	if (shape !== 'v1' && Array.isArray(data))
		return {
			list: data,
			nextCursor: nextCursorOf(Object(meta) as IDataObject),
			shape: 'v2' as const,
		};
	return undefined;
}

const NARROW =
	'Narrow the list with the operation\'s filters, or set "Limit" instead of "Return All".';
const MOST = ', the most the node reads of this list';

const NOT_A_LIST =
	'The node reads lists as { items, hasMore, nextCursor } (v1), { data, meta } (v2) ' +
	`or, where the spec does not show the shape, a bare array. ${CHECK_BASE_URL}`;
const NOT_A_RECORD =
	'Every record of a list must be a JSON object. ' +
	'This is a fault of the API or of a proxy in front of it; nothing of this list was output.';
const CYCLES =
	'The API handed back a cursor it had already given, or a page of records this listing had already read ' +
	'(a list that cycles), so reading further would loop forever. ' +
	'The records read so far were not output, so nothing is reported as complete that is not. ' +
	'Try again later, or read fewer records ("Limit") if the API keeps doing this.';

function listingOf(context: ApiContext, spec: ListSpec) {
	const version = spec.version ?? 'v1';
	return {
		context,
		spec,
		path: `${API_PREFIX[version]}${spec.path}`,
		shape: spec.shape ?? version,
		records: 0,
		bytes: 0,
		seenIds: new Set<unknown>(),
		seenCursors: new Set<unknown>([spec.startCursor]),
	};
}
type Listing = ReturnType<typeof listingOf>;

function listError(
	list: Listing,
	message: string,
	description = list.spec.narrow ?? NARROW,
	status?: number,
) {
	return apiError(
		list.context.getNode(),
		{ method: 'GET', path: list.path, itemIndex: list.spec.itemIndex },
		{ message, description, status },
	);
}

const capped = (list: Listing, what: string) =>
	listError(list, `The list ${list.path} ${what}; nothing of it was output`);

/** A page that brings no new record yet names a next cursor does not advance (a list cycling under fresh cursors). */
function bringsNew(page: IDataObject[], seen: Set<unknown>) {
	let fresh = false;
	for (const { id } of page) {
		const listed = typeof id === 'string' || typeof id === 'number';
		if (!listed || !seen.has(id)) fresh = true;
		if (listed) seen.add(id);
	}
	return fresh;
}

/** The spec's path, version, item and deadline; its list options are not read by the request. */
function requestPage(list: Listing, size: number, cursor: string | undefined) {
	const { spec } = list;
	const sizeName = spec.version === 'v2' ? 'pageSize' : 'limit';
	const qs = { ...spec.qs, [sizeName]: size };
	if (cursor) qs.cursor = cursor;
	return apiRequestFull.call(list.context, { ...spec, method: 'GET', qs });
}

function recordsOf(list: Listing, entries: unknown[], number: number, status: number) {
	const { skipEntry } = list.spec;
	const records: IDataObject[] = [];
	for (const [index, entry] of entries.entries()) {
		const position = index + 1;
		if (isPlainObject(entry)) records.push(entry);
		else if (skipEntry) skipEntry(describeValue(entry), position, number);
		else {
			throw listError(
				list,
				`The CRM API's list ${list.path} held ${describeValue(entry)} at position ${position} of page ${number}, where a record (a JSON object) was expected`,
				NOT_A_RECORD,
				status,
			);
		}
	}
	return records;
}

function countPage(list: Listing, page: IDataObject[], nextCursor: string | null, number: number) {
	const { maxRecords = LIST.maxRecords } = list.spec;
	list.records += page.length;
	if (list.records > maxRecords)
		throw capped(list, `holds more than ${count(maxRecords)} records${MOST}`);
	if (list.bytes > LIST.maxBytes)
		throw capped(list, `is larger than ${LIST.maxBytes / 2 ** 20} MB${MOST}`);
	const repeated = list.seenCursors.has(nextCursor);
	const fresh = bringsNew(page, list.seenIds);
	if (!nextCursor || (!repeated && fresh)) return;
	const why = repeated
		? 'handed back a cursor it had already given'
		: 'brought no new records but still named a next cursor';
	throw listError(
		list,
		`The CRM API's list ${list.path} did not advance: page ${number} ${why} ("${nextCursor.slice(0, 100)}"). The node stopped reading it`,
		CYCLES,
	);
}

const keepAll = () => true;

/** Any fault is an error, never a silent partial list; a caller that stops asks for no further page. */
export async function* readPages(this: ApiContext, spec: ListSpec, pageSizeFor?: () => number) {
	const { deadline = Infinity, maxPages = Infinity } = spec;
	const list = listingOf(this, spec);
	// An empty start cursor is none: no cursor is sent, and no page names an empty one.
	let cursor = spec.startCursor;
	for (let number = 1; ; number++) {
		if (Date.now() >= deadline)
			throw capped(list, `was not read within its time limit (${number - 1} pages read)`);
		if (number > maxPages) throw capped(list, `has more than ${count(maxPages)} pages${MOST}`);
		// readList's rest of its limit: a whole number, at least 1.
		const size = Math.min(MAX_PAGE_SIZE, pageSizeFor?.() ?? MAX_PAGE_SIZE);
		const { body, statusCode: status, headers, bodyBytes } = await requestPage(list, size, cursor);
		list.bytes += bodyBytes;
		const raw = pageOf(body, list.shape);
		if (!raw) {
			// Custom API Request outputs a first answer that is not a list as it came.
			if (number > 1 || !spec.otherOnFirstPage)
				throw listError(
					list,
					`The CRM API answered GET ${list.path} with ${status} (${contentTypeOf(headers)}) and ${describeValue(body, true)}, not a list`,
					NOT_A_LIST,
					status,
				);
			yield { records: [], nextCursor: null, number, other: body };
			return;
		}
		const records = recordsOf(list, raw.list, number, status);
		// A list read in any shape keeps the shape of its first page (a bare array is the whole list).
		list.shape = raw.shape;
		const { nextCursor } = raw;
		countPage(list, records, nextCursor, number);
		const stats = runStatsOf(this);
		stats.pages++;
		stats.mostPagesOfOneList = Math.max(stats.mostPagesOfOneList, number);
		yield { records, nextCursor, number };
		if (!nextCursor) return;
		cursor = nextCursor;
		list.seenCursors.add(nextCursor);
	}
}

/** `keep` drops records that a filter the API may ignore, or cannot apply, let through. */
export async function readList(
	this: ApiContext,
	spec: ListSpec,
	want: PageRequest = { returnAll: true },
	keep: (record: IDataObject) => boolean = keepAll,
) {
	// A Limit is a whole number of at least 1 (pageRequestOf); 0 only from a test.
	const limit = want.returnAll ? Infinity : (want.limit ?? 0);
	const records: IDataObject[] = [];
	if (limit === 0) return records;
	const rest = spec.wholePages ? undefined : () => limit - records.length;
	for await (const page of readPages.call(this, spec, rest)) {
		records.push(...page.records.filter(keep));
		if (records.length >= limit) return records.slice(0, limit);
	}
	return records;
}

/** For n8n's list searches: `nextCursor` is their pagination token. */
export async function readOnePage(this: ApiContext, spec: ListSpec) {
	const { value } = await readPages.call(this, spec).next();
	// readPages yields a first page or throws: never done before it.
	return value as Exclude<typeof value, void>;
}

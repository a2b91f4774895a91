import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readList, readPages } from '../../shared';
import type {
	ApiContext,
	ApiVersion,
	ListSpec,
	PageRequest,
	SimplifiedResource,
} from '../../shared';
import { shownFor, type Operation } from '../operation';
import { fail, isSet, toNumber, type Item } from './fields';
import { collectionProperty } from './options';
import { outputProperties, recordItems } from './output';

/** "Return All" and "Limit" of list operations; the transport pages, so the limit has no maximum. */
export function returnAllAndLimit(what: string): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			hint: `How many ${what} to return at most. The node fetches as many pages as it needs (up to 100 records each).`,
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** What the user asked for: every record, or at most Limit of them (a whole number of at least 1). */
export function pageRequestOf(item: Item): PageRequest {
	const { context, index } = item;
	if (context.getNodeParameter('returnAll', index, false) as boolean) return { returnAll: true };
	const limit = toNumber(item, context.getNodeParameter('limit', index, 50), 'Limit');
	if (!Number.isInteger(limit) || limit < 1) {
		fail(
			item,
			`"Limit" must be a whole number of at least 1 but is ${limit} in item ${index}`,
			'Set "Limit" to 1 or more, or turn on "Return All".',
		);
	}
	return { returnAll: false, limit };
}

const OWN_FILTER_NARROW =
	'Narrow the list with the Filters the API applies: the node checks its own filter on each record it reads, and reads on until it has "Limit" matches or the list ends.';

/** A record test of the node's own: the API cannot filter by it, so the node reads whole pages and keeps matches. */
export type OwnFilter = (record: IDataObject) => boolean;

/**
 * Up to Limit records that pass `match` (all of them with Return All), read in pages of 100 as Return All reads them:
 * how many records a page needs to give the missing matches is not known. Within the list reader's caps.
 */
async function readMatching(
	this: ApiContext,
	spec: ListSpec,
	want: PageRequest,
	match: OwnFilter,
): Promise<IDataObject[]> {
	const limit = want.returnAll ? Infinity : (want.limit ?? 0);
	const matches: IDataObject[] = [];
	for await (const page of readPages.call(this, spec)) {
		for (const record of page.records) {
			if (!match(record)) continue;
			matches.push(record);
			if (matches.length >= limit) return matches;
		}
	}
	return matches;
}

/** A Get Many: its resource, its list, its filters, and what the node does beyond the API's filters. */
interface GetMany {
	resource: SimplifiedResource;
	/** The list's path, which also names its records in Limit's hint (`/leads`: leads). */
	path: string;
	version?: ApiVersion;
	/** The options of Filters, sent as query parameters. */
	filters: INodeProperties[];
	/** May rename a query parameter, and return a test for the records the node filters itself. */
	adjust?: (qs: IDataObject) => OwnFilter | undefined;
	/** An item's filter the API cannot apply: the node reads pages of 100 and keeps the matches. */
	ownFilter?: (item: Item) => OwnFilter | undefined;
}

/** The Filters the user set as query parameters: a boolean filter when it is a boolean, text trimmed. */
function queryOf(item: Item, filters: INodeProperties[]): IDataObject {
	const given = item.context.getNodeParameter('filters', item.index, {}) as IDataObject;
	const qs: IDataObject = {};
	for (const { name, type } of filters) {
		const value = given[name];
		if (type !== 'boolean' && isSet(value)) qs[name] = String(value).trim();
		if (type === 'boolean' && typeof value === 'boolean') qs[name] = value;
	}
	return qs;
}

/**
 * Get Many of a resource: Return All, Limit, Output (Simplify before version 4) and Filters; the list through
 * the one list reader, each record output as Output says (output.ts).
 */
export function getManyOperation(list: GetMany): Operation {
	const { resource, path, version, filters } = list;
	return {
		description: shownFor(resource, 'getMany', [
			...returnAllAndLimit(path.slice(1)),
			...outputProperties,
			collectionProperty('Filters', 'filters', filters, { placeholder: 'Add Filter' }),
		]),
		async execute(this: IExecuteFunctions, item: Item) {
			const qs = queryOf(item, filters);
			const keep = list.adjust?.(qs);
			const want = pageRequestOf(item);
			const spec = { path, version, qs, itemIndex: item.index };
			const own = list.ownFilter?.(item);
			const records = own
				? await readMatching.call(this, { ...spec, narrow: OWN_FILTER_NARROW }, want, own)
				: await readList.call(this, spec, want, keep);
			return recordItems(item, resource, records);
		},
	};
}

import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { readList } from '../../shared';
import type { ApiVersion, PageRequest, SimplifiedResource } from '../../shared';
import { isSet, toNumber } from './fields';
import { collectionProperty } from './options';
import { recordItems, simplifyProperty } from './output';

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
export function pageRequestOf(context: IExecuteFunctions, itemIndex: number): PageRequest {
	const returnAll = context.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (returnAll) return { returnAll: true };
	const limit = toNumber(
		context,
		context.getNodeParameter('limit', itemIndex, 50),
		'Limit',
		itemIndex,
	);
	if (!Number.isInteger(limit) || limit < 1) {
		throw new NodeOperationError(
			context.getNode(),
			`"Limit" must be a whole number of at least 1 but is ${limit} in item ${itemIndex}`,
			{
				itemIndex,
				description: 'Set "Limit" to 1 or more, or turn on "Return All".',
			},
		);
	}
	return { returnAll: false, limit };
}

/** One output item per record. */
export function toItems(records: IDataObject[]): INodeExecutionData[] {
	return records.map((record) => ({ json: record }));
}

/** Get Many's parameters: Return All, Limit, Simplify, and the Filters collection with these options. */
export function getManyProperties(what: string, filters: INodeProperties[]): INodeProperties[] {
	return [
		...returnAllAndLimit(what),
		simplifyProperty,
		collectionProperty('Filters', 'filters', filters, { placeholder: 'Add Filter' }),
	];
}

/** The item's Filters as query parameters, by their options: a boolean filter when it is a boolean, text trimmed. */
export function filterQuery(
	context: IExecuteFunctions,
	itemIndex: number,
	options: INodeProperties[],
): IDataObject {
	const filters = context.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	for (const { name, type } of options) {
		const value = filters[name];
		if (type === 'boolean' ? typeof value === 'boolean' : isSet(value))
			qs[name] = type === 'boolean' ? value : String(value).trim();
	}
	return qs;
}

/**
 * Get Many: the list at `path` through the one list reader (every record, or up to Limit), each record output as
 * its resource's simplified record when Simplify is on. `keep` drops records the node filters itself.
 */
export async function listRecords(
	context: IExecuteFunctions,
	itemIndex: number,
	resource: SimplifiedResource,
	list: { path: string; version?: ApiVersion; qs: IDataObject },
	keep?: (record: IDataObject) => boolean,
): Promise<INodeExecutionData[]> {
	const want = pageRequestOf(context, itemIndex);
	const records = await readList.call(context, { ...list, itemIndex }, want, keep);
	return recordItems(context, itemIndex, resource, records);
}

import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readList } from '../../shared';
import type { ApiVersion, PageRequest, SimplifiedResource } from '../../shared';
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

/**
 * Get Many of a resource: Return All, Limit, Output (Simplify before version 4) and the Filters collection with these
 * options (a boolean filter sent when it is a boolean, text trimmed, as query parameters); the list at `list.path`
 * through the one list reader, each record output as Output says (output.ts). `adjust` may rename a query parameter,
 * and return a test for the records the node filters itself.
 */
export function getManyOperation(
	resource: SimplifiedResource,
	what: string,
	list: { path: string; version?: ApiVersion },
	filters: INodeProperties[],
	adjust?: (qs: IDataObject) => ((record: IDataObject) => boolean) | undefined,
): Operation {
	return {
		description: shownFor(resource, 'getMany', [
			...returnAllAndLimit(what),
			...outputProperties,
			collectionProperty('Filters', 'filters', filters, { placeholder: 'Add Filter' }),
		]),
		async execute(this: IExecuteFunctions, item: Item) {
			const given = this.getNodeParameter('filters', item.index, {}) as IDataObject;
			const qs: IDataObject = {};
			for (const { name, type } of filters) {
				const value = given[name];
				if (type === 'boolean' ? typeof value === 'boolean' : isSet(value))
					qs[name] = type === 'boolean' ? value : String(value).trim();
			}
			const keep = adjust?.(qs);
			const want = pageRequestOf(item);
			const records = await readList.call(this, { ...list, qs, itemIndex: item.index }, want, keep);
			return recordItems(item, resource, records);
		},
	};
}

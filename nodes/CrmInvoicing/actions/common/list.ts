import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { PageRequest } from '../../shared';
import { toNumber } from './fields';

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

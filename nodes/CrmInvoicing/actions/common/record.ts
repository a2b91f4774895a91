import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, type SimplifiedResource } from '../../shared';
import { shownFor, type Operation } from '../operation';
import { requiredParameter } from './fields';
import { recordItems, simplifyProperty } from './output';

/** The path of one record of a collection, e.g. `/leads/lead_8f2k1`. */
export function recordPath(collection: string, id: string): string {
	return `${collection}/${encodeURIComponent(id)}`;
}

/** GET, POST or PATCH of one record through the one request function: the answer must be a record. */
export async function recordRequest(
	context: IExecuteFunctions,
	method: 'GET' | 'POST' | 'PATCH',
	path: string,
	itemIndex: number,
	body?: IDataObject,
): Promise<IDataObject> {
	return await apiRequest.call(context, { method, path, body, itemIndex, expect: 'record' });
}

/**
 * Get of one record: the ID from `idProperty` (read by `idOf`, by default as a required text), GET `collection`/{id},
 * the record output through Simplify.
 */
export function getOperation(
	resource: SimplifiedResource,
	collection: string,
	idProperty: INodeProperties,
	idOf = (context: IExecuteFunctions, itemIndex: number) =>
		requiredParameter(context, idProperty.name, idProperty.displayName, itemIndex),
): Operation {
	return {
		description: shownFor(resource, 'get', [idProperty, simplifyProperty]),
		async execute(this: IExecuteFunctions, itemIndex: number) {
			const path = recordPath(collection, idOf(this, itemIndex));
			const record = await recordRequest(this, 'GET', path, itemIndex);
			return recordItems(this, itemIndex, resource, [record]);
		},
	};
}

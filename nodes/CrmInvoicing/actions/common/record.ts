import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { apiRequest, type SimplifiedResource } from '../../shared';
import { shownFor, type Operation } from '../operation';
import { requiredParameter } from './fields';
import { MAPPER_VERSION, mappedBody, requireMapped, updateMapped } from './mapped';
import type { StandardField } from './mapperFields';
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

/**
 * Create of a lead or a deal: from node version 3 on, the body the mapper gives (its required fields checked), in
 * versions 1 and 2 the one `bodyBefore` reads from their parameters; POSTed to `collection`, the record output.
 */
export async function createRecord(
	context: IExecuteFunctions,
	collection: string,
	standard: readonly StandardField[],
	itemIndex: number,
	bodyBefore: () => IDataObject,
): Promise<INodeExecutionData[]> {
	let body: IDataObject;
	if (context.getNode().typeVersion >= MAPPER_VERSION) {
		body = mappedBody(context, standard, itemIndex).body;
		requireMapped(context, standard, body, itemIndex);
	} else body = bodyBefore();
	return [{ json: await recordRequest(context, 'POST', collection, itemIndex, body) }];
}

/**
 * Update of a lead or a deal: from node version 3 on, updateMapped (the mapper's body, sent with `patch`); in
 * versions 1 and 2 the body `bodyBefore` makes of "Update Fields". An update must change something: it stops before
 * any request when there is nothing to send.
 */
export async function updateRecord(
	context: IExecuteFunctions,
	standard: readonly StandardField[],
	path: string,
	itemIndex: number,
	patch: (body: IDataObject) => Promise<IDataObject>,
	bodyBefore: (updateFields: IDataObject) => IDataObject,
): Promise<INodeExecutionData[]> {
	if (context.getNode().typeVersion >= MAPPER_VERSION)
		return await updateMapped(context, standard, path, patch, itemIndex);
	const updateFields = context.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const body = bodyBefore(updateFields);
	if (Object.keys(body).length === 0) {
		throw new NodeOperationError(
			context.getNode(),
			`"Update Fields" has no field to change in item ${itemIndex}`,
			{
				itemIndex,
				description: 'Add at least one field under "Update Fields" and give it a value.',
			},
		);
	}
	return [{ json: await patch(body) }];
}

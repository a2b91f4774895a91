import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, isPlainObject, type SimplifiedResource } from '../../shared';
import { shownFor, type Operation } from '../operation';
import { fail, requiredParameter, requireText, type Item } from './fields';
import { mappedBody, MAPPER_VERSION, parametersByVersion } from './mapped';
import type { StandardField } from './mapperFields';
import { additionalFieldsProperty, collectionProperty } from './options';
import { outputProperties, recordItems } from './output';

/** One record's requests, and the operations on one record: Get, Create and Update (by node version, mapped.ts). */

export function recordPath(collection: string, id: string): string {
	return `${collection}/${encodeURIComponent(id)}`;
}

/** GET, POST or PATCH of one record through the one request function: the answer must be a record. */
export async function recordRequest(
	{ context, index }: Item,
	method: 'GET' | 'POST' | 'PATCH',
	path: string,
	body?: IDataObject,
): Promise<IDataObject> {
	return await apiRequest.call(context, { method, path, body, itemIndex: index, expect: 'record' });
}

/**
 * Get of one record: the ID from `idProperty` (read by `idOf`, by default as a required text), GET `collection`/{id},
 * the record output as Output says (output.ts).
 */
export function getOperation(
	resource: SimplifiedResource,
	collection: string,
	idProperty: INodeProperties,
	idOf = (item: Item) => requiredParameter(item, idProperty.name, idProperty.displayName),
): Operation {
	return {
		description: shownFor(resource, 'get', [idProperty, ...outputProperties]),
		async execute(this: IExecuteFunctions, item: Item) {
			const record = await recordRequest(item, 'GET', recordPath(collection, idOf(item)));
			return recordItems(item, resource, [record]);
		},
	};
}

/** How versions 1 and 2 read a lead's or a deal's fields collection as a request body. */
type FromFields = (item: Item, fields: IDataObject) => IDataObject;

/**
 * Create of a lead or a deal, POSTed to `collection`, the record output. From node version 3 on the body is the
 * mapper's, the spec's required fields each set (an error naming the field and item otherwise). Versions 1 and 2 show
 * the `required` fields as parameters of their own, and "Additional Fields" (`fieldOptions`) read with `fromFields`.
 */
export function createOperation(
	record: 'lead' | 'deal',
	collection: string,
	standard: readonly StandardField[],
	fromFields: FromFields,
	fieldOptions: INodeProperties[],
	requiredProperties: INodeProperties[],
): Operation {
	const required = standard.filter((field) => field.required);
	const before = [...requiredProperties, additionalFieldsProperty(fieldOptions)];
	return {
		description: parametersByVersion(record, 'create', [], before),
		async execute(this: IExecuteFunctions, item: Item) {
			let body: IDataObject;
			if (this.getNode().typeVersion >= MAPPER_VERSION) {
				body = mappedBody(item, standard).body;
				for (const field of required)
					body[field.id] = requireText(item, body[field.id], field.displayName);
			} else {
				const set: IDataObject = {};
				for (const { id, displayName } of required)
					set[id] = requiredParameter(item, id, displayName);
				const fields = this.getNodeParameter('additionalFields', item.index, {}) as IDataObject;
				body = { ...fromFields(item, fields), ...set };
			}
			return [{ json: await recordRequest(item, 'POST', collection, body) }];
		},
	};
}

/**
 * Update of a lead or a deal, by the ID `idOf` reads, sent with `patch` (a lead's PATCH has its own checks). An update
 * must change something: it stops before any request when there is nothing to send. In versions 1 and 2 the body is
 * the one `fromFields` makes of "Update Fields". From version 3 on it is the mapper's, and custom fields it sets are
 * sent with the record's other custom fields (read once with GET of the record, which the spec does not show for deals:
 * choice deal-read), so that they survive whether the CRM merges `customFields` or replaces it whole; the record is
 * output with `_update`, the fields this item changed.
 */
export function updateOperation(
	record: 'lead' | 'deal',
	collection: string,
	standard: readonly StandardField[],
	fromFields: FromFields,
	fieldOptions: INodeProperties[],
	idProperty: INodeProperties,
	idOf: (item: Item) => string,
	patch = async (item: Item, id: string, body: IDataObject) =>
		await recordRequest(item, 'PATCH', recordPath(collection, id), body),
): Operation {
	const before = [
		collectionProperty('Update Fields', 'updateFields', fieldOptions, {
			description:
				'The fields to change. Only the fields added here are sent; the others keep their values.',
		}),
	];
	return {
		description: parametersByVersion(record, 'update', [idProperty], before),
		async execute(this: IExecuteFunctions, item: Item) {
			const { index } = item;
			const id = idOf(item);
			if (this.getNode().typeVersion < MAPPER_VERSION) {
				const fields = this.getNodeParameter('updateFields', index, {}) as IDataObject;
				const body = fromFields(item, fields);
				if (Object.keys(body).length === 0) {
					fail(
						item,
						`"Update Fields" has no field to change in item ${index}`,
						'Add at least one field under "Update Fields" and give it a value.',
					);
				}
				return [{ json: await patch(item, id, body) }];
			}
			const { body, changed } = mappedBody(item, standard);
			if (Object.keys(body).length === 0) {
				fail(
					item,
					`"Fields" maps no field to change in item ${index}`,
					'Add a field under "Fields" and give it a value, or with "Map Automatically" give the input item a key that the list of fields shows.',
				);
			}
			if (isPlainObject(body.customFields) && Object.keys(body.customFields).length > 0) {
				const current = await recordRequest(item, 'GET', recordPath(collection, id));
				const kept = isPlainObject(current.customFields) ? current.customFields : {};
				body.customFields = { ...kept, ...body.customFields };
			}
			return [{ json: { ...(await patch(item, id, body)), _update: { changed } } }];
		},
	};
}

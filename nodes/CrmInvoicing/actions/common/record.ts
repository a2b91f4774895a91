import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { apiRequest, isPlainObject, type SimplifiedResource } from '../../shared';
import { shownFor, type Operation } from '../operation';
import { fail, requiredParameter, requireText, type Item } from './fields';
import { mappedBody, MAPPER_VERSION } from './mapped';
import type { StandardField } from './mapperFields';
import { outputProperties, recordItems } from './output';

/** One record's requests, Get of one record, and the bodies of Create and Update (by node version, mapped.ts). */

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
	return await apiRequest.call(context, {
		method,
		path,
		body,
		itemIndex: index,
		expect: 'record',
	});
}

/**
 * Get of one record: the ID from `idProperty` (read by `idOf`, by default as a required text),
 * GET `collection`/{id}, the record output as Output says (output.ts).
 */
export function getOperation(
	resource: SimplifiedResource,
	collection: string,
	idProperty: INodeProperties,
	idOf = (item: Item) => requiredParameter(item, idProperty.name, idProperty.displayName),
): Operation {
	return {
		description: shownFor(resource, 'get', [idProperty, ...outputProperties]),
		async execute(item: Item) {
			const path = recordPath(collection, idOf(item));
			return recordItems(item, resource, [await recordRequest(item, 'GET', path)]);
		},
	};
}

/** How a lead's or a deal's fields are read, by node version. */
export interface BodyOptions {
	/** The writable fields the mapper of version 3 lists. */
	standard: readonly StandardField[];
	/** How versions 1 and 2 read a fields collection as a request body. */
	fromFields: (item: Item, fields: IDataObject) => IDataObject;
}

function usesMapper({ context }: Item): boolean {
	return context.getNode().typeVersion >= MAPPER_VERSION;
}

/**
 * The body of a Create of a lead or a deal. From node version 3 on it is the mapper's, the spec's
 * required fields each set (an error naming the field and item otherwise). Versions 1 and 2 read
 * the required fields from parameters of their own, and "Additional Fields" with `fromFields`.
 */
export function createBody(item: Item, { standard, fromFields }: BodyOptions): IDataObject {
	const required = standard.filter((field) => field.required);
	if (usesMapper(item)) {
		const { body } = mappedBody(item, standard);
		for (const { id, displayName } of required) body[id] = requireText(item, body[id], displayName);
		return body;
	}
	const set: IDataObject = {};
	for (const { id, displayName } of required) set[id] = requiredParameter(item, id, displayName);
	const fields = item.context.getNodeParameter('additionalFields', item.index, {});
	return { ...fromFields(item, fields as IDataObject), ...set };
}

/**
 * The body of an Update of the record at `path`. An update must change something: it stops before
 * any request when there is nothing to send. In versions 1 and 2 the body is the one `fromFields`
 * makes of "Update Fields". From version 3 on it is the mapper's, with `changed`, the fields it
 * sets; custom fields it sets are sent with the record's other custom fields (read once with GET
 * of the record, which the spec does not show for deals: choice deal-read), so that they survive
 * whether the CRM merges `customFields` or replaces it whole.
 */
export async function updateBody(
	item: Item,
	{ path, standard, fromFields }: BodyOptions & { path: string },
): Promise<{ body: IDataObject; changed?: string[] }> {
	const { context, index } = item;
	if (!usesMapper(item)) {
		const fields = context.getNodeParameter('updateFields', index, {}) as IDataObject;
		const body = fromFields(item, fields);
		if (Object.keys(body).length === 0) {
			fail(
				item,
				`"Update Fields" has no field to change in item ${index}`,
				'Add at least one field under "Update Fields" and give it a value.',
			);
		}
		return { body };
	}
	const { body, changed } = mappedBody(item, standard);
	if (Object.keys(body).length === 0) {
		fail(
			item,
			`"Fields" maps no field to change in item ${index}`,
			'Add a field under "Fields" and give it a value, or with "Map Automatically" give the input item a key that the list of fields shows.',
		);
	}
	const custom = body.customFields;
	if (isPlainObject(custom) && Object.keys(custom).length > 0) {
		const current = await recordRequest(item, 'GET', path);
		const kept = isPlainObject(current.customFields) ? current.customFields : {};
		body.customFields = { ...kept, ...custom };
	}
	return { body, changed };
}

/** An updated record as output: from version 3 on with `_update`, the fields the item changed. */
export function updatedItem(record: IDataObject, changed?: string[]) {
	const json = changed ? { ...record, _update: { changed } } : record;
	return [{ json }];
}

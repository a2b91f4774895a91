import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { apiRequest, isPlainObject, type SimplifiedResource } from '../../shared';
import { shownFor, type Operation } from '../operation';
import { fail, requiredParameter, requireText, type Item } from './fields';
import { mappedBody, MAPPER_VERSION } from './mapped';
import type { StandardField } from './mapperFields';
import { outputProperties, recordItems } from './output';

export function recordPath(collection: string, id: string) {
	return `${collection}/${encodeURIComponent(id)}`;
}

export function recordRequest(
	{ context, index }: Item,
	method: 'GET' | 'POST' | 'PATCH',
	path: string,
	body?: IDataObject,
) {
	return apiRequest.call(context, {
		method,
		path,
		body,
		itemIndex: index,
		expect: 'record',
	});
}

export function getOperation(
	resource: SimplifiedResource,
	collection: string,
	idProperty: INodeProperties,
	idOf = (item: Item) => requiredParameter(item, idProperty.name, idProperty.displayName),
): Operation {
	return {
		description: shownFor(resource, 'get', [idProperty, ...outputProperties]),
		async execute(item) {
			const path = recordPath(collection, idOf(item));
			return recordItems(item, resource, [await recordRequest(item, 'GET', path)]);
		},
	};
}

interface BodyOptions {
	standard: readonly StandardField[];
	fromFields: (item: Item, fields: IDataObject) => IDataObject;
}

function usesMapper({ context }: Item) {
	return context.getNode().typeVersion >= MAPPER_VERSION;
}

/** From version 3 on the mapper's, every required field set; versions 1 and 2 read their own parameters. */
export function createBody(item: Item, { standard, fromFields }: BodyOptions) {
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

/** From version 3 on, custom fields set are sent with the record's others (read with GET, choice deal-read), so that
 * they survive whether the CRM merges `customFields` or replaces it whole. */
export async function updateBody(
	item: Item,
	{ path, standard, fromFields }: BodyOptions & { path: string },
) {
	const { context, index } = item;
	if (!usesMapper(item)) {
		const body = fromFields(
			item,
			context.getNodeParameter('updateFields', index, {}) as IDataObject,
		);
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

export function updatedItem(record: IDataObject, changed?: string[]) {
	const json = changed ? { ...record, _update: { changed } } : record;
	return [{ json }];
}

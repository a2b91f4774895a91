import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { apiRequest, type SimplifiedResource } from '../../shared';
import type { Operation } from '../operation';
import {
	collectionParameter,
	customFieldsIn,
	fail,
	fromVersion,
	requiredParameter,
	requireText,
	type Item,
} from './fields';
import { mappedBody, MAPPER_VERSION, parametersByVersion } from './mapped';
import type { StandardField } from './mapperFields';
import { collectionProperty } from './options';
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

/** The ID a record's ID parameter gives (a lead's locator gives its ID). */
export function idOf(item: Item, { name, displayName }: INodeProperties) {
	return requiredParameter(item, name, displayName);
}

/** GET /{resource}s/{id}. */
export function getOperation(resource: SimplifiedResource, idProperty: INodeProperties): Operation {
	return {
		description: [idProperty, ...outputProperties],
		async execute(item) {
			const path = recordPath(`/${resource}s`, idOf(item, idProperty));
			return recordItems(item, resource, [await recordRequest(item, 'GET', path)]);
		},
	};
}

/** A record the node creates and changes by ID: a lead or a deal. */
export interface Editable {
	record: 'lead' | 'deal';
	standard: readonly StandardField[];
	/** Versions 1 and 2: the body from their collection of fields. */
	fromFields: (item: Item, fields: IDataObject) => IDataObject;
	idProperty: INodeProperties;
	/** Answers the record as changed. */
	patch: (item: Item, id: string, body: IDataObject) => Promise<IDataObject>;
}

/** From version 3 on the mapper's, versions 1 and 2 from their own parameters; every required field set. */
function createBody(item: Item, { standard, fromFields }: Editable) {
	const mapper = fromVersion(item, MAPPER_VERSION);
	const body = mapper
		? mappedBody(item, standard).body
		: fromFields(item, collectionParameter(item, 'additionalFields'));
	for (const { id, displayName } of standard.filter((field) => field.required)) {
		body[id] = mapper
			? requireText(item, body[id], displayName)
			: requiredParameter(item, id, displayName);
	}
	return body;
}

/** From version 3 on, custom fields set are sent with the record's others (read with GET, choice deal-read), so that
 * they survive whether the CRM merges `customFields` or replaces it whole. */
async function updateBody(item: Item, { standard, fromFields }: Editable, path: string) {
	const mapper = fromVersion(item, MAPPER_VERSION);
	const { body, changed } = mapper
		? mappedBody(item, standard)
		: { body: fromFields(item, collectionParameter(item, 'updateFields')), changed: undefined };
	if (Object.keys(body).length === 0) {
		fail(
			item,
			`${mapper ? '"Fields" maps' : '"Update Fields" has'} no field to change`,
			mapper
				? 'Add a field under "Fields" and give it a value, or with "Map Automatically" give the input item a key that the list of fields shows.'
				: 'Add at least one field under "Update Fields" and give it a value.',
		);
	}
	const custom = customFieldsIn(body);
	if (mapper && Object.keys(custom).length > 0) {
		const current = await recordRequest(item, 'GET', path);
		body.customFields = { ...customFieldsIn(current), ...custom };
	}
	return { body, changed };
}

/** `before`: the parameters of versions 1 and 2. */
export function createOperation(target: Editable, before: INodeProperties[]): Operation {
	return {
		description: parametersByVersion(target.record, 'create', before),
		async execute(item) {
			const body = createBody(item, target);
			return [{ json: await recordRequest(item, 'POST', `/${target.record}s`, body) }];
		},
	};
}

/** `options`: the "Update Fields" of versions 1 and 2. */
export function updateOperation(target: Editable, options: INodeProperties[]): Operation {
	const { record, idProperty, patch } = target;
	return {
		description: [
			idProperty,
			...parametersByVersion(record, 'update', [
				collectionProperty('Update Fields', 'updateFields', options, {
					description:
						'The fields to change. Only the fields added here are sent; the others keep their values.',
				}),
			]),
		],
		async execute(item) {
			const id = idOf(item, idProperty);
			const { body, changed } = await updateBody(item, target, recordPath(`/${record}s`, id));
			const json = await patch(item, id, body);
			return [{ json: changed ? { ...json, _update: { changed } } : json }];
		},
	};
}

/** An operation that sends the same `body` for every item. */
export function patchOperation(target: Editable, body: IDataObject): Operation {
	return {
		description: [target.idProperty],
		async execute(item) {
			return [{ json: await target.patch(item, idOf(item, target.idProperty), body) }];
		},
	};
}

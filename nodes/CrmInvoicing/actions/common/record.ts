import {
	updateDisplayOptions,
	validateFieldType,
	type FieldType,
	type IDataObject,
	type INodeProperties,
	type ResourceMapperValue,
} from 'n8n-workflow';

import { apiRequest, describeValue, isPlainObject, type SimplifiedResource } from '../../shared';
import type { Operation } from '../operation';
import {
	collectionParameter,
	customFieldsIn,
	fail,
	fromVersion,
	isSet,
	requestField,
	requiredParameter,
	requireOneOf,
	requireText,
	toIsoDate,
	type Item,
} from './fields';
import { CUSTOM_PREFIX, type StandardField } from './mapperFields';
import {
	additionalFieldsProperty,
	bodyFromFields,
	collectionProperty,
	customFieldsOption,
	otherFieldsOption,
} from './options';
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

const MAPPER_VERSION = 3;

/** `before` (versions 1 and 2) stays unchanged, so saved workflows open and run as they did. From version 3 on:
 * "Columns" as n8n's own nodes name it, plus the fields it cannot list (as versions 1 and 2 had them). Shown for the
 * record and the operation by resources.ts, as every operation's parameters. */
function parametersByVersion(
	record: 'lead' | 'deal',
	operation: 'create' | 'update',
	before: INodeProperties[],
) {
	const creating = operation === 'create';
	return [
		...updateDisplayOptions({ show: { '@version': [1, 2] } }, before),
		...updateDisplayOptions({ show: { '@version': [{ _cnd: { gte: MAPPER_VERSION } }] } }, [
			{
				displayName: 'Fields',
				name: 'columns',
				type: 'resourceMapper',
				noDataExpression: true,
				default: { mappingMode: 'defineBelow', value: null },
				required: true,
				typeOptions: {
					// Deal ID: Deal → Update lists the custom fields of that deal (a lead has no such parameter).
					loadOptionsDependsOn: ['operation', 'dealId'],
					resourceMapper: {
						resourceMapperMethod: record === 'lead' ? 'getLeadFields' : 'getDealFields',
						mode: 'add',
						fieldWords: { singular: 'field', plural: 'fields' },
						addAllFields: creating,
						// n8n's defaults serve the rest: Map Automatically offered, no key matching in mode "add".
						showTypeConversionOptions: true,
					},
				},
				description: creating
					? `The ${record}'s fields, and the custom fields found on its recent records`
					: `The fields to change; the others keep their values, custom fields included`,
			},
			additionalFieldsProperty(
				[customFieldsOption(record), otherFieldsOption],
				'Custom fields the list above does not show yet, and any other field the API accepts',
			),
		]),
	];
}

type Mapping = Item & { convert: boolean };

/** Every type the mapper lists, but text and options (typed sends those as given). */
const ARTICLE: Partial<Record<FieldType, string>> = {
	number: 'a number',
	boolean: 'a boolean (true or false)',
	dateTime: 'a date',
	object: 'a JSON object',
	array: 'an array',
};

/** n8n's own type check; "Attempt to Convert Types" converts text such as "12" or "true". Untyped (a custom field
 * seen with values of several types), the value as given. */
function typed(item: Mapping, label: string, value: unknown, type?: FieldType) {
	if (!type || type === 'string' || type === 'options') return value;
	const { convert } = item;
	const result = validateFieldType(label, value, type, { strict: !convert, parseStrings: convert });
	if (result.valid) return result.newValue;
	const article = ARTICLE[type];
	fail(
		item,
		`"${label}" must be ${article} but is ${describeValue(value)}`,
		convert
			? `"Attempt to Convert Types" is on, but this value cannot be read as ${article}. Fix the value or its expression.`
			: `Give ${article}, or turn on "Attempt to Convert Types" in the options of "Fields" (at its end) to convert text such as "12" or "true".`,
	);
}

function standardValue(item: Mapping, field: StandardField, value: unknown) {
	const { id, displayName, type, values } = field;
	const checked = typed(item, displayName, value, type);
	if (type === 'dateTime') return toIsoDate(item, checked, displayName);
	if (values) return requireOneOf(item, checked, values, displayName);
	if (type === 'string') return requestField(item, id, checked);
	return checked as IDataObject[string];
}

/** Kept in its type: a number stays a number, also in a field listed as text; a date stays the text given. */
function customValue(item: Mapping, key: string, value: unknown, type?: FieldType) {
	const checked = typed(item, `${key} (custom field)`, value, type);
	if (type === 'dateTime')
		return typeof value === 'string' ? value.trim() : toIsoDate(item, checked, key);
	return checked as IDataObject[string];
}

const isStandardKey = (key: string) => key !== 'customFields';
const mapperIdOf = (customKey: string) => `${CUSTOM_PREFIX}${customKey}`;

/** Custom fields by `customFields.<key>`, or with "Map Automatically" also by a plain key no standard field has.
 * Empty values are not sent. */
function mappedBody(item: Item, standard: readonly StandardField[]) {
	const { context, index } = item;
	const columns = context.getNodeParameter('columns', index) as ResourceMapperValue;
	const mapping = { ...item, convert: columns.attemptToConvertTypes === true };
	const types = new Map(columns.schema?.map((field) => [field.id, field.type] as const));
	const auto = columns.mappingMode === 'autoMapInputData';
	const mapped: IDataObject = {};
	// No prototype: a custom field named "__proto__" is an own key like any other.
	const custom = Object.create(null) as IDataObject;
	const setCustom = (key: string, value: unknown) => {
		if (!isSet(value)) return;
		custom[key] = customValue(mapping, key, value, types.get(mapperIdOf(key)));
	};
	// The mapper's values, or with "Map Automatically" the input item itself.
	const source = auto ? context.getInputData()[index]?.json : columns.value;
	for (const [key, value] of Object.entries(source ?? {})) {
		const field = standard.find((known) => known.id === key);
		if (field) {
			if (isSet(value)) mapped[key] = standardValue(mapping, field, value);
		} else if (key.startsWith(CUSTOM_PREFIX)) setCustom(key.slice(CUSTOM_PREFIX.length), value);
		else if (auto && key === 'customFields' && isPlainObject(value))
			for (const [inner, innerValue] of Object.entries(value)) setCustom(inner, innerValue);
		else if (auto && types.has(mapperIdOf(key))) setCustom(key, value);
	}
	// "Additional Fields" as versions 1 and 2 read it, the standard fields mapped in the place of the same in it.
	const body = bodyFromFields(item, collectionParameter(item, 'additionalFields'), {}, custom);
	return Object.assign(body, mapped);
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
		? mappedBody(item, standard)
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
	const body = mapper
		? mappedBody(item, standard)
		: fromFields(item, collectionParameter(item, 'updateFields'));
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
	// What this item sets, before the record's other custom fields join it.
	const changed = [
		...Object.keys(body).filter(isStandardKey),
		...Object.keys(custom).map(mapperIdOf),
	];
	if (mapper && Object.keys(custom).length > 0) {
		const current = await recordRequest(item, 'GET', path);
		body.customFields = { ...customFieldsIn(current), ...custom };
	}
	return { body, changed: mapper ? changed : undefined };
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

import {
	updateDisplayOptions,
	validateFieldType,
	type FieldType,
	type IDataObject,
	type INodeProperties,
	type ResourceMapperValue,
} from 'n8n-workflow';

import { describeValue, isPlainObject } from '../../shared';
import {
	collectionParameter,
	customFieldsIn,
	fail,
	isSet,
	requestField,
	requireOneOf,
	toIsoDate,
	type Item,
} from './fields';
import { CUSTOM_PREFIX, type StandardField } from './mapperFields';
import {
	additionalFieldsProperty,
	bodyFromFields,
	customFieldsOption,
	otherFieldsOption,
} from './options';

export const MAPPER_VERSION = 3;

/** `before` (versions 1 and 2) stays unchanged, so saved workflows open and run as they did. From version 3 on:
 * "Columns" as n8n's own nodes name it, plus the fields it cannot list (as versions 1 and 2 had them). Shown for the
 * record and the operation by resources.ts, as every operation's parameters. */
export function parametersByVersion(
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
	if (result.valid) return result.newValue ?? value;
	const article = ARTICLE[type] ?? type;
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

/** Kept in its type: a date stays the text given. */
function customValue(item: Mapping, key: string, value: unknown, type?: FieldType) {
	const checked = typed(item, `${key} (custom field)`, value, type);
	if (type === 'dateTime')
		return typeof value === 'string' ? value.trim() : toIsoDate(item, checked, key);
	if (type === 'string' && (typeof checked === 'number' || typeof checked === 'boolean'))
		return String(checked);
	return checked as IDataObject[string];
}

const isStandardKey = (key: string) => key !== 'customFields';
const mapperIdOf = (customKey: string) => `${CUSTOM_PREFIX}${customKey}`;

/** Custom fields by `customFields.<key>`, or with "Map Automatically" also by a plain key no standard field has.
 * Empty values are not sent; `changed` lists the fields set. */
export function mappedBody(item: Item, standard: readonly StandardField[]) {
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
	Object.assign(body, mapped);
	const changed = [
		...Object.keys(body).filter(isStandardKey),
		...Object.keys(customFieldsIn(body)).map(mapperIdOf),
	];
	return { body, changed };
}

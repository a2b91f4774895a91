import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { isPlainObject } from '../../shared';
import { customFieldsIn, fail, isSet, pairsOf, parseJson, requestField, type Item } from './fields';

export function textProperty(
	displayName: string,
	name: string,
	more?: Partial<INodeProperties>,
): INodeProperties {
	return { displayName, name, type: 'string', default: '', ...more };
}

function byLabel(a: INodeProperties, b: INodeProperties) {
	return a.displayName.localeCompare(b.displayName);
}

/** n8n's linter wants collection options in alphabetical order. */
export const byName = (options: INodeProperties[]) => options.sort(byLabel);

export function valueOption(value: string) {
	return { name: value, value };
}

function enumOption(value: string) {
	return { name: value.charAt(0) + value.slice(1).toLowerCase(), value };
}

export function compareTexts(a: string, b: string) {
	return a.localeCompare(b);
}

/** Sorted by value (the API's upper-case words, so the default order is the alphabetical one): the same order as
 * by name, which differs only in case. */
export const enumOptions = (values: readonly string[]) => [...values].sort().map(enumOption);

export function amountProperty(
	displayName: string,
	name: string,
	description: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'number',
		typeOptions: { numberPrecision: 2 },
		default: 0,
		description,
	};
}

export function customFieldsOption(record: string): INodeProperties {
	return {
		displayName: 'Custom Fields',
		name: 'customFields',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Custom Field',
		default: {},
		description: `Values of your workspace's custom ${record} fields, by field key. Sent as the customFields object.`,
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					textProperty('Key', 'key', {
						placeholder: 'industry',
						description: "The custom field's key as defined in your CRM workspace",
					}),
					textProperty('Value', 'value', { placeholder: 'Retail' }),
				],
			},
		],
	};
}

export const otherFieldsOption: INodeProperties = {
	displayName: 'Other Fields (JSON)',
	name: 'otherFields',
	type: 'json',
	default: '{}',
	description:
		'Any other fields the API accepts, as a JSON object. They are sent as they are, next to the fields above; use null to clear a field.',
};

export function collectionProperty(
	displayName: string,
	name: string,
	options: INodeProperties[],
	more: Partial<INodeProperties>,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		...more,
		options,
	};
}

export const additionalFieldsProperty = (options: INodeProperties[], description?: string) =>
	collectionProperty('Additional Fields', 'additionalFields', options, { description });

/** Only what the user set; to clear a field, send null through "Other Fields (JSON)". Custom fields last: those of
 * `custom` (the mapper's), then the Custom Fields pairs, over any in Other Fields. */
export function bodyFromFields(
	item: Item,
	fields: IDataObject,
	convert: Record<string, (value: unknown) => IDataObject[string] | undefined>,
	custom = Object.create(null) as IDataObject, // no prototype: "__proto__" is a key too
) {
	const { customFields, otherFields, ...rest } = fields;
	// Other Fields (JSON): none when empty (no value, blank text or null).
	const help = 'Enter a JSON object such as {"key": "value"}.';
	const other = parseJson(item, otherFields, 'Other Fields (JSON)', help) ?? {};
	if (!isPlainObject(other)) fail(item, '"Other Fields (JSON)" must be a JSON object', help);
	const body = { ...other };
	for (const [key, value] of Object.entries(rest)) {
		if (!isSet(value)) continue;
		const sent = convert[key] ? convert[key](value) : requestField(item, key, value);
		if (sent !== undefined) body[key] = sent;
	}
	for (const { key, value } of pairsOf(customFields)) {
		const name = key?.trim();
		if (name) custom[name] = value as IDataObject[string];
	}
	if (Object.keys(custom).length > 0) body.customFields = { ...customFieldsIn(body), ...custom };
	return body;
}

const PICKERS = {
	lead: { searchListMethod: 'searchLeads', id: 'e.g. lead_8f2k1' },
	user: { searchListMethod: 'searchUsers', id: 'e.g. usr_5e0c' },
};

export function locatorProperty(
	displayName: string,
	name: string,
	record: keyof typeof PICKERS,
	more: Partial<INodeProperties>,
): INodeProperties {
	const { searchListMethod, id } = PICKERS[record];
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${record}...`,
				typeOptions: { searchListMethod, searchable: true },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: id },
		],
		...more,
	};
}

/** n8n does not extract a locator inside a collection; a plain value (an ID from an expression) is returned as is. */
export function locatorValue(value: unknown) {
	return isPlainObject(value) && 'value' in value ? value.value : value;
}

import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { customFieldsFromPairs, isSet, requestField, toJsonObject, type Item } from './fields';

/** A text parameter (a name, an ID, an address): empty by default; `more` holds the rest (placeholder, required, …). */
export function textProperty(
	displayName: string,
	name: string,
	more: Partial<INodeProperties> = {},
): INodeProperties {
	return { displayName, name, type: 'string', default: '', ...more };
}

function byLabel(a: INodeProperties, b: INodeProperties): number {
	return a.displayName.localeCompare(b.displayName);
}

/** Properties in alphabetical order of their labels, as n8n's linter wants collection options. */
export const byName = (options: INodeProperties[]) => options.sort(byLabel);

/** An option whose name is its value. */
export function valueOption(value: string): INodePropertyOptions {
	return { name: value, value };
}

function enumOption(value: string): INodePropertyOptions {
	return { name: value.charAt(0) + value.slice(1).toLowerCase(), value };
}

function byOptionName(a: INodePropertyOptions, b: INodePropertyOptions): number {
	return a.name.localeCompare(b.name);
}

/** The options of an API enum (`HIGH` shown as High), by name. */
export const enumOptions = (values: readonly string[]) => values.map(enumOption).sort(byOptionName);

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

/** "Custom Fields": key/value pairs sent as the record's `customFields` object. */
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

/** "Other Fields (JSON)": any further keys the API accepts, sent as they are. */
export const otherFieldsOption: INodeProperties = {
	displayName: 'Other Fields (JSON)',
	name: 'otherFields',
	type: 'json',
	default: '{}',
	description:
		'Any other fields the API accepts, as a JSON object. They are sent as they are, next to the fields above; use null to clear a field.',
};

/** A collection of optional fields ("Additional Fields", "Filters"): only the fields the user adds are sent. */
export function collectionProperty(
	displayName: string,
	name: string,
	options: INodeProperties[],
	more: Partial<INodeProperties> = {},
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
	collectionProperty(
		'Additional Fields',
		'additionalFields',
		options,
		description ? { description } : {},
	);

/** "Update Fields" of versions 1 and 2 of Update: only the fields added are sent. */
export const updateFieldsProperty = (options: INodeProperties[]) =>
	collectionProperty('Update Fields', 'updateFields', options, {
		description:
			'The fields to change. Only the fields added here are sent; the others keep their values.',
	});

/**
 * A fields collection ("Additional Fields", "Update Fields") as a request body: only what the user set. "Other Fields
 * (JSON)" first, then each field that is set through its converter in `convert` or, without one, requestField (IDs
 * and text). An empty field is not sent: to clear one, send null through "Other Fields (JSON)". Custom fields last.
 */
export function bodyFromFields(
	item: Item,
	fields: IDataObject,
	convert: Record<string, (value: unknown) => IDataObject[string] | undefined> = {},
): IDataObject {
	const { customFields, otherFields, ...rest } = fields;
	const body = { ...toJsonObject(item, otherFields, 'Other Fields (JSON)') };
	for (const [key, value] of Object.entries(rest)) {
		if (!isSet(value)) continue;
		const sent = convert[key] ? convert[key](value) : requestField(item, key, value);
		if (sent !== undefined) body[key] = sent;
	}
	const custom = customFieldsFromPairs(customFields);
	if (custom) body.customFields = { ...(body.customFields as IDataObject | undefined), ...custom };
	return body;
}

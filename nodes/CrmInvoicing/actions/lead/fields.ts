import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	bodyFromFields,
	byName,
	customFieldsOption,
	mapperField,
	otherFieldsOption,
	requireText,
	textProperty,
	toNumber,
	type Item,
} from '../common';

export const leadFieldOptions: INodeProperties[] = [
	customFieldsOption('lead'),
	textProperty('Email', 'email', {
		placeholder: 'name@email.com',
		description: 'Email address of the lead',
	}),
	textProperty('Job Title', 'title', { placeholder: 'Head of Purchasing' }),
	textProperty('Mobile', 'mobile', {
		placeholder: '+14155550123',
		description: 'Mobile number with country code',
	}),
	otherFieldsOption,
	textProperty('Secondary Mobile', 'secondaryMobile', {
		placeholder: '+14155550124',
		description: 'Second mobile number with country code',
	}),
	textProperty('Source ID', 'sourceId', {
		placeholder: 'src_web',
		description: 'Public ID of the lead source',
	}),
	textProperty('Stage ID', 'stageId', {
		placeholder: 'lst_new',
		description: 'Public ID of the lead stage',
	}),
	{
		displayName: 'Value',
		name: 'value',
		type: 'number',
		default: 0,
		description: 'Expected deal value of the lead',
	},
	textProperty('Website', 'website', {
		placeholder: 'https://example.com',
		description: 'Company website URL',
	}),
];

export const leadUpdateFieldOptions = byName([
	...leadFieldOptions,
	textProperty('Name', 'name', {
		placeholder: 'Jane Doe',
		description: 'New full name of the lead',
	}),
]);

/** A custom field's value as text, so that 42 and "42" match (a server or a filter may give either); JSON for an
 * object or a list. */
export const textOf = (value: unknown) =>
	typeof value === 'string' ? value : JSON.stringify(value);

export function leadBodyFromFields(item: Item, fields: IDataObject) {
	if (fields.name !== undefined) requireText(item, fields.name, 'Name');
	return bodyFromFields(item, fields, { value: (value) => toNumber(item, value, 'Value') });
}

/** As the spec's POST /leads body lists them. */
export const LEAD_MAPPER_FIELDS = [
	mapperField('name', 'Name', { required: true }),
	mapperField('email', 'Email'),
	mapperField('title', 'Job Title'),
	mapperField('mobile', 'Mobile'),
	mapperField('secondaryMobile', 'Secondary Mobile'),
	mapperField('value', 'Value', { type: 'number' }),
	mapperField('sourceId', 'Source ID'),
	mapperField('stageId', 'Stage ID'),
	mapperField('website', 'Website'),
];

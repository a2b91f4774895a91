import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { customFieldsFromPairs, toJsonObject, toNumber } from '../../helpers/fields';

/** The lead fields that create (Additional Fields) and update (Update Fields) share, keyed by the API's names. */
export const leadFieldOptions: INodeProperties[] = [
	{
		displayName: 'Custom Fields',
		name: 'customFields',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Custom Field',
		default: {},
		description: 'Values of your workspace\'s custom lead fields, by field key',
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{
						displayName: 'Key',
						name: 'key',
						type: 'string',
						default: '',
						placeholder: 'industry',
						description: 'The custom field\'s key as defined in your CRM workspace',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: 'Retail',
					},
				],
			},
		],
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		description: 'Email address of the lead',
	},
	{
		displayName: 'Job Title',
		name: 'title',
		type: 'string',
		default: '',
		placeholder: 'Head of Purchasing',
	},
	{
		displayName: 'Mobile',
		name: 'mobile',
		type: 'string',
		default: '',
		placeholder: '+14155550123',
		description: 'Mobile number with country code',
	},
	{
		displayName: 'Other Fields (JSON)',
		name: 'otherFields',
		type: 'json',
		default: '{}',
		description:
			'Any other fields the API accepts, as a JSON object. They are sent as they are, next to the fields above.',
	},
	{
		displayName: 'Secondary Mobile',
		name: 'secondaryMobile',
		type: 'string',
		default: '',
		placeholder: '+14155550124',
		description: 'Second mobile number with country code',
	},
	{
		displayName: 'Source ID',
		name: 'sourceId',
		type: 'string',
		default: '',
		placeholder: 'src_web',
		description: 'Public ID of the lead source',
	},
	{
		displayName: 'Stage ID',
		name: 'stageId',
		type: 'string',
		default: '',
		placeholder: 'lst_new',
		description: 'Public ID of the lead stage',
	},
	{
		displayName: 'Value',
		name: 'value',
		type: 'number',
		default: 0,
		description: 'Expected deal value of the lead',
	},
	{
		displayName: 'Website',
		name: 'website',
		type: 'string',
		default: '',
		placeholder: 'https://example.com',
		description: 'Company website URL',
	},
];

/** Lead fields from a fields collection as a request body: only what the user set, custom and other fields merged. */
export function leadBodyFromFields(context: IExecuteFunctions, fields: IDataObject, itemIndex: number): IDataObject {
	const { customFields, otherFields, value, ...rest } = fields;
	const body: IDataObject = { ...toJsonObject(context, otherFields, 'Other Fields (JSON)', itemIndex) };
	for (const [key, fieldValue] of Object.entries(rest)) {
		if (fieldValue !== undefined) body[key] = typeof fieldValue === 'string' ? fieldValue.trim() : fieldValue;
	}
	if (value !== undefined) body.value = toNumber(context, value, 'Value', itemIndex);
	const custom = customFieldsFromPairs(customFields);
	if (custom) body.customFields = custom;
	return body;
}

import type { INodeProperties } from 'n8n-workflow';

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
					{
						displayName: 'Key',
						name: 'key',
						type: 'string',
						default: '',
						placeholder: 'industry',
						description: "The custom field's key as defined in your CRM workspace",
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

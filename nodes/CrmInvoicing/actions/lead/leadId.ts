import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireText } from '../../helpers/fields';

/** The lead to act on: picked from a searchable list, or given by ID. */
export const leadIdProperty: INodeProperties = {
	displayName: 'Lead',
	name: 'leadId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The lead to use',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a lead...',
			typeOptions: { searchListMethod: 'searchLeads', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. lead_8f2k1',
		},
	],
};

/** The lead ID chosen in the locator, checked to be non-empty. */
export function leadIdOf(context: IExecuteFunctions, itemIndex: number): string {
	const value = context.getNodeParameter('leadId', itemIndex, '', { extractValue: true });
	return requireText(context, value, 'Lead', itemIndex);
}

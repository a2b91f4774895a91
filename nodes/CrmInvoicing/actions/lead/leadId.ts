import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireText } from '../common/fields';
import { locatorProperty } from '../common/locator';
import { recordPath } from '../common/record';

/** The lead to act on: picked from a searchable list, or given by ID. */
export const leadIdProperty: INodeProperties = locatorProperty({
	displayName: 'Lead',
	name: 'leadId',
	description:
		'The lead to use. Pick it from the list (shows name, email and lead number; searches them and the mobile and website) or enter its public ID.',
	searchListMethod: 'searchLeads',
	listPlaceholder: 'Select a lead...',
	idPlaceholder: 'e.g. lead_8f2k1',
	required: true,
});

/** The lead ID chosen in the locator, checked to be non-empty. */
export function leadIdOf(context: IExecuteFunctions, itemIndex: number): string {
	const value = context.getNodeParameter('leadId', itemIndex, '', { extractValue: true });
	return requireText(context, value, 'Lead', itemIndex);
}

/** The path of one lead. */
export function leadPath(leadId: string): string {
	return recordPath('/leads', leadId);
}

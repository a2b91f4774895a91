import type { IExecuteFunctions } from 'n8n-workflow';

import { requiredParameter } from '../common/fields';
import { textProperty } from '../common/options';
import { recordPath } from '../common/record';

/** The deal to act on, by public ID (the API has no deal list to pick from). */
export const dealIdProperty = textProperty('Deal ID', 'dealId', {
	required: true,
	placeholder: 'e.g. deal_3fa85f64',
	description: 'Public ID of the deal, as returned when the deal was created',
});

/** The deal ID, checked to be non-empty. */
export function dealIdOf(context: IExecuteFunctions, itemIndex: number): string {
	return requiredParameter(context, 'dealId', 'Deal ID', itemIndex);
}

/** The path of one deal. */
export function dealPath(dealId: string): string {
	return recordPath('/deals', dealId);
}

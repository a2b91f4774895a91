import { recordPath, recordRequest, textProperty, type Editable } from '../common';
import { DEAL_MAPPER_FIELDS, dealBodyFromFields } from './fields';

export const DEAL: Editable = {
	record: 'deal',
	standard: DEAL_MAPPER_FIELDS,
	fromFields: dealBodyFromFields,
	/** The API has no deal list to pick from. */
	idProperty: textProperty('Deal ID', 'dealId', {
		required: true,
		placeholder: 'e.g. deal_3fa85f64',
		description: 'Public ID of the deal, as returned when the deal was created',
	}),
	patch: (item, id, body) => recordRequest(item, 'PATCH', recordPath('/deals', id), body),
};

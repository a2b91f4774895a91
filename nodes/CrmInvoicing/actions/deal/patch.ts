import type { IDataObject } from 'n8n-workflow';

import { requiredParameter, type Item } from '../common/fields';
import { textProperty } from '../common/options';
import { recordPath, recordRequest } from '../common/record';
import { shownFor } from '../operation';

/** The API has no deal list to pick from. */
export const dealIdProperty = textProperty('Deal ID', 'dealId', {
	required: true,
	placeholder: 'e.g. deal_3fa85f64',
	description: 'Public ID of the deal, as returned when the deal was created',
});

export const dealIdOf = (item: Item) => requiredParameter(item, 'dealId', 'Deal ID');

export function patchOperation(operation: string, body: IDataObject) {
	return {
		description: shownFor('deal', operation, [dealIdProperty]),
		async execute(item: Item) {
			const path = recordPath('/deals', dealIdOf(item));
			return [{ json: await recordRequest(item, 'PATCH', path, body) }];
		},
	};
}

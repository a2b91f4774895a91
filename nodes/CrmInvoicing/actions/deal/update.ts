import type { Item } from '../common/fields';
import { parametersByVersion } from '../common/mapped';
import { updateFieldsProperty } from '../common/options';
import { recordPath, recordRequest, updateBody, updatedItem } from '../common/record';
import { DEAL_MAPPER_FIELDS, dealBodyFromFields, dealUpdateFieldOptions } from './fields';
import { dealIdOf, dealIdProperty } from './patch';

export const description = parametersByVersion(
	'deal',
	'update',
	[dealIdProperty],
	[updateFieldsProperty(dealUpdateFieldOptions)],
);

export async function execute(item: Item) {
	const path = recordPath('/deals', dealIdOf(item));
	const { body, changed } = await updateBody(item, {
		path,
		standard: DEAL_MAPPER_FIELDS,
		fromFields: dealBodyFromFields,
	});
	return updatedItem(await recordRequest(item, 'PATCH', path, body), changed);
}

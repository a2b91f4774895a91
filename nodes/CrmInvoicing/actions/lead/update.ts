import type { Item } from '../common/fields';
import { parametersByVersion } from '../common/mapped';
import { updateFieldsProperty } from '../common/options';
import { recordPath, updateBody, updatedItem } from '../common/record';
import { LEAD_MAPPER_FIELDS, leadBodyFromFields, leadUpdateFieldOptions } from './fields';
import { leadIdOf, leadIdProperty, patchLead } from './patch';

export const description = parametersByVersion(
	'lead',
	'update',
	[leadIdProperty],
	[updateFieldsProperty(leadUpdateFieldOptions)],
);

export async function execute(item: Item) {
	const id = leadIdOf(item);
	const { body, changed } = await updateBody(item, {
		path: recordPath('/leads', id),
		standard: LEAD_MAPPER_FIELDS,
		fromFields: leadBodyFromFields,
	});
	return updatedItem(await patchLead(item, id, body), changed);
}

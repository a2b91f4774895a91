import type { Item } from '../common/fields';
import { parametersByVersion } from '../common/mapped';
import { additionalFieldsProperty, textProperty } from '../common/options';
import { createBody, recordRequest } from '../common/record';
import { LEAD_MAPPER_FIELDS, leadBodyFromFields, leadFieldOptions } from './fields';

export const description = parametersByVersion(
	'lead',
	'create',
	[],
	[
		textProperty('Name', 'name', {
			required: true,
			placeholder: 'Jane Doe',
			description: 'Full name of the lead',
		}),
		additionalFieldsProperty(leadFieldOptions),
	],
);

export async function execute(item: Item) {
	const body = createBody(item, { standard: LEAD_MAPPER_FIELDS, fromFields: leadBodyFromFields });
	return [{ json: await recordRequest(item, 'POST', '/leads', body) }];
}

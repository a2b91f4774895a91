import { createOperation } from '../common/record';
import { textProperty } from '../common/options';
import { LEAD_MAPPER_FIELDS, leadBodyFromFields, leadFieldOptions } from './fields';

export const { description, execute } = createOperation(
	'lead',
	'/leads',
	LEAD_MAPPER_FIELDS,
	leadBodyFromFields,
	leadFieldOptions,
	[
		textProperty('Name', 'name', {
			required: true,
			placeholder: 'Jane Doe',
			description: 'Full name of the lead',
		}),
	],
);

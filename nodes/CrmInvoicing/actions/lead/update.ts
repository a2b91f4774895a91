import { updateOperation } from '../common/record';
import { LEAD_MAPPER_FIELDS, leadBodyFromFields, leadUpdateFieldOptions } from './fields';
import { leadIdOf, leadIdProperty, patchLead } from './patch';

export const { description, execute } = updateOperation(
	'lead',
	'/leads',
	LEAD_MAPPER_FIELDS,
	leadBodyFromFields,
	leadUpdateFieldOptions,
	leadIdProperty,
	leadIdOf,
	patchLead,
);

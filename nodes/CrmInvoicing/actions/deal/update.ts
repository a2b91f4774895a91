import { updateOperation } from '../common/record';
import { DEAL_MAPPER_FIELDS, dealBodyFromFields, dealUpdateFieldOptions } from './fields';
import { dealIdOf, dealIdProperty } from './patch';

export const { description, execute } = updateOperation(
	'deal',
	'/deals',
	DEAL_MAPPER_FIELDS,
	dealBodyFromFields,
	dealUpdateFieldOptions,
	dealIdProperty,
	dealIdOf,
);

import { getOperation } from '../common/record';
import { leadIdOf, leadIdProperty, patchOperation } from './patch';
export * as create from './create';
export * as getMany from './getMany';
export * as update from './update';
export * as upsert from './upsert';

export const archive = patchOperation('archive', { archived: true });
export const get = getOperation('lead', '/leads', leadIdProperty, leadIdOf);
export const unarchive = patchOperation('unarchive', { archived: false });

export const defaultOperation = 'create';

export const operations = [
	{
		name: 'Archive',
		value: 'archive',
		action: 'Archive a lead',
		description: 'Archive a lead so that it no longer shows among active leads',
	},
	{ name: 'Create', value: 'create', action: 'Create a lead' },
	{
		name: 'Create or Update',
		value: 'upsert',
		action: 'Create or update a lead',
		description: 'Create a new record, or update the current one if it already exists (upsert)',
	},
	{ name: 'Get', value: 'get', action: 'Get a lead', description: 'Get a lead by ID' },
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many leads',
		description: 'Get many leads, optionally filtered by search text, archived status or stage',
	},
	{
		name: 'Unarchive',
		value: 'unarchive',
		action: 'Unarchive a lead',
		description: 'Bring an archived lead back among active leads',
	},
	{
		name: 'Update',
		value: 'update',
		action: 'Update a lead',
		description: 'Update the given fields of a lead',
	},
];

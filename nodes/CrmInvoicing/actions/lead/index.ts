export * as archive from './archive';
export * as create from './create';
export * as get from './get';
export * as getMany from './getMany';
export * as unarchive from './unarchive';
export * as update from './update';
export * as upsert from './upsert';

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

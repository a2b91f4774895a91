import type { ResourceOperation } from '../operation';
import * as archive from './archive';
import * as create from './create';
import * as get from './get';
import * as getMany from './getMany';
import * as unarchive from './unarchive';
import * as update from './update';
import * as upsert from './upsert';

/** A new node shows Create. */
export const defaultOperation = 'create';

export const operations: ResourceOperation[] = [
	{
		name: 'Archive',
		value: 'archive',
		action: 'Archive a lead',
		description: 'Archive a lead so that it no longer shows among active leads',
		run: archive,
	},
	{ name: 'Create', value: 'create', action: 'Create a lead', run: create },
	{
		name: 'Create or Update',
		value: 'upsert',
		action: 'Create or update a lead',
		description: 'Create a new record, or update the current one if it already exists (upsert)',
		run: upsert,
	},
	{ name: 'Get', value: 'get', action: 'Get a lead', description: 'Get a lead by ID', run: get },
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many leads',
		description: 'Get many leads, optionally filtered by search text, archived status or stage',
		run: getMany,
	},
	{
		name: 'Unarchive',
		value: 'unarchive',
		action: 'Unarchive a lead',
		description: 'Bring an archived lead back among active leads',
		run: unarchive,
	},
	{
		name: 'Update',
		value: 'update',
		action: 'Update a lead',
		description: 'Update the given fields of a lead',
		run: update,
	},
];

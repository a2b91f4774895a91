import type { ResourceOperation } from '../operation';
import * as archive from './archive';
import * as create from './create';
import * as get from './get';
import * as getMany from './getMany';
import * as unarchive from './unarchive';
import * as update from './update';
import * as upsert from './upsert';

export const operations: ResourceOperation[] = [
	{
		name: 'Archive',
		value: 'archive',
		description: 'Archive a lead so that it no longer shows among active leads',
		action: 'Archive a lead',
		run: archive,
	},
	{
		name: 'Create',
		value: 'create',
		description: 'Create a lead',
		action: 'Create a lead',
		run: create,
	},
	{
		name: 'Create or Update',
		value: 'upsert',
		description: 'Create a new record, or update the current one if it already exists (upsert)',
		action: 'Create or update a lead',
		run: upsert,
	},
	{
		name: 'Get',
		value: 'get',
		description: 'Get a lead by ID',
		action: 'Get a lead',
		run: get,
	},
	{
		name: 'Get Many',
		value: 'getMany',
		description: 'Get many leads, optionally filtered by search text, archived status or stage',
		action: 'Get many leads',
		run: getMany,
	},
	{
		name: 'Unarchive',
		value: 'unarchive',
		description: 'Bring an archived lead back among active leads',
		action: 'Unarchive a lead',
		run: unarchive,
	},
	{
		name: 'Update',
		value: 'update',
		description: 'Update the given fields of a lead',
		action: 'Update a lead',
		run: update,
	},
];

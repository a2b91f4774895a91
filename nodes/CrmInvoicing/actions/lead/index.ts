import { op } from '../operation';
import * as archive from './archive';
import * as create from './create';
import * as get from './get';
import * as getMany from './getMany';
import * as unarchive from './unarchive';
import * as update from './update';
import * as upsert from './upsert';

export const operations = [
	op(
		'Archive',
		'archive',
		archive,
		'Archive a lead',
		'Archive a lead so that it no longer shows among active leads',
	),
	op('Create', 'create', create, 'Create a lead'),
	op(
		'Create or Update',
		'upsert',
		upsert,
		'Create or update a lead',
		'Create a new record, or update the current one if it already exists (upsert)',
	),
	op('Get', 'get', get, 'Get a lead', 'Get a lead by ID'),
	op(
		'Get Many',
		'getMany',
		getMany,
		'Get many leads',
		'Get many leads, optionally filtered by search text, archived status or stage',
	),
	op(
		'Unarchive',
		'unarchive',
		unarchive,
		'Unarchive a lead',
		'Bring an archived lead back among active leads',
	),
	op('Update', 'update', update, 'Update a lead', 'Update the given fields of a lead'),
];

import { operationOption } from '../operation';

export * as archive from './archive';
export * as create from './create';
export * as get from './get';
export * as getMany from './getMany';
export * as unarchive from './unarchive';
export * as update from './update';
export * as upsert from './upsert';

export const defaultOperation = 'create';

export const operations = [
	operationOption(
		'Archive',
		'archive',
		'Archive a lead',
		'Archive a lead so that it no longer shows among active leads',
	),
	operationOption('Create', 'create', 'Create a lead'),
	operationOption(
		'Create or Update',
		'upsert',
		'Create or update a lead',
		'Create a new record, or update the current one if it already exists (upsert)',
	),
	operationOption('Get', 'get', 'Get a lead', 'Get a lead by ID'),
	operationOption(
		'Get Many',
		'getMany',
		'Get many leads',
		'Get many leads, optionally filtered by search text, archived status or stage',
	),
	operationOption(
		'Unarchive',
		'unarchive',
		'Unarchive a lead',
		'Bring an archived lead back among active leads',
	),
	operationOption('Update', 'update', 'Update a lead', 'Update the given fields of a lead'),
];

import { operationOption } from '../operation';

export * as create from './create';
export * as delete from './delete';
export * as get from './get';
export * as getMany from './getMany';

export const operations = [
	operationOption(
		'Create',
		'create',
		'Create a webhook subscription',
		'Subscribe a URL to events; the output holds the signing secret, shown only this once',
	),
	operationOption('Delete', 'delete', 'Delete a webhook subscription'),
	operationOption(
		'Get',
		'get',
		'Get a webhook subscription',
		'Get a webhook subscription by ID (without its secret)',
	),
	operationOption(
		'Get Many',
		'getMany',
		'Get many webhook subscriptions',
		'Get many webhook subscriptions (without their secrets)',
	),
];

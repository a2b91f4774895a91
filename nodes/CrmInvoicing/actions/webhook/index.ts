export * as create from './create';
export * as delete from './delete';
export * as get from './get';
export * as getMany from './getMany';

export const operations = [
	{
		name: 'Create',
		value: 'create',
		action: 'Create a webhook subscription',
		description:
			'Subscribe a URL to events; the output holds the signing secret, shown only this once',
	},
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a webhook subscription',
	},
	{
		name: 'Get',
		value: 'get',
		action: 'Get a webhook subscription',
		description: 'Get a webhook subscription by ID (without its secret)',
	},
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many webhook subscriptions',
		description: 'Get many webhook subscriptions (without their secrets)',
	},
];

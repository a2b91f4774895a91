import type { ResourceOperation } from '../operation';
import * as create from './create';
import * as deleteSubscription from './delete';
import * as get from './get';
import * as getMany from './getMany';

export const operations: ResourceOperation[] = [
	{
		name: 'Create',
		value: 'create',
		action: 'Create a webhook subscription',
		description:
			'Subscribe a URL to events; the output holds the signing secret, shown only this once',
		run: create,
	},
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a webhook subscription',
		run: deleteSubscription,
	},
	{
		name: 'Get',
		value: 'get',
		action: 'Get a webhook subscription',
		description: 'Get a webhook subscription by ID (without its secret)',
		run: get,
	},
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many webhook subscriptions',
		description: 'Get many webhook subscriptions (without their secrets)',
		run: getMany,
	},
];

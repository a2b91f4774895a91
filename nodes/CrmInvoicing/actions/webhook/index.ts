import type { ResourceOperation } from '../operation';
import * as create from './create';
import * as deleteSubscription from './delete';
import * as get from './get';
import * as getMany from './getMany';

export const operations: ResourceOperation[] = [
	{
		name: 'Create',
		value: 'create',
		description:
			'Subscribe a URL to events; the output holds the signing secret, shown only this once',
		action: 'Create a webhook subscription',
		run: create,
	},
	{
		name: 'Delete',
		value: 'delete',
		description: 'Delete a webhook subscription',
		action: 'Delete a webhook subscription',
		run: deleteSubscription,
	},
	{
		name: 'Get',
		value: 'get',
		description: 'Get a webhook subscription by ID (without its secret)',
		action: 'Get a webhook subscription',
		run: get,
	},
	{
		name: 'Get Many',
		value: 'getMany',
		description: 'Get many webhook subscriptions (without their secrets)',
		action: 'Get many webhook subscriptions',
		run: getMany,
	},
];

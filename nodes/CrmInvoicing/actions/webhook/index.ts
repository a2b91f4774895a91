import type { INodeProperties } from 'n8n-workflow';

import * as create from './create';
import * as deleteSubscription from './delete';
import * as get from './get';
import * as getMany from './getMany';

export { create, deleteSubscription, get, getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhook'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Subscribe a URL to events; the output holds the signing secret, shown only this once',
				action: 'Create a webhook subscription',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a webhook subscription',
				action: 'Delete a webhook subscription',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a webhook subscription by ID (without its secret)',
				action: 'Get a webhook subscription',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get many webhook subscriptions (without their secrets)',
				action: 'Get many webhook subscriptions',
			},
		],
		default: 'create',
	},
	...create.description,
	...deleteSubscription.description,
	...get.description,
	...getMany.description,
];

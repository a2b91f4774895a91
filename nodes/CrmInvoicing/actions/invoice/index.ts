import type { INodeProperties } from 'n8n-workflow';

import * as create from './create';

export { create };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['invoice'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create an invoice for a client with one or more line items',
				action: 'Create an invoice',
			},
		],
		default: 'create',
	},
	...create.description,
];

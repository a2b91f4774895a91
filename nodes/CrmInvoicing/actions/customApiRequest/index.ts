import type { INodeProperties } from 'n8n-workflow';

import * as request from './request';

export { request };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['customApiRequest'] } },
		options: [
			{
				name: 'Request',
				value: 'request',
				description: 'Send a request to any endpoint of the CRM API with this credential',
				action: 'Make a custom API request',
			},
		],
		default: 'request',
	},
	...request.description,
];

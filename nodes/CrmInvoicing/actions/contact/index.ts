import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany';

export { getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contact'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get many contacts (API v2), optionally filtered by search text',
				action: 'Get many contacts',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
];

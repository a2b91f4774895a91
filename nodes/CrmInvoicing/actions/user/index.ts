import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany';

export { getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['user'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get many users of the team, optionally filtered by search text or active membership',
				action: 'Get many users',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
];

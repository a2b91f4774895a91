import type { INodeProperties } from 'n8n-workflow';

import { operationParameters, operationProperty, type ResourceOperation } from '../operation';
import * as get from './get';

export { get };

/** The operations of this resource, alphabetical by name: the options, the router and the subtitle read this list. */
export const operations: ResourceOperation[] = [
	{
		name: 'Get',
		value: 'get',
		description: 'Get a client by ID',
		action: 'Get a client',
		run: get,
	},
];

export const description: INodeProperties[] = [
	operationProperty('client', operations, 'get'),
	...operationParameters(operations),
];

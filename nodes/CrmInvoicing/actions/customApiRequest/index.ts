import type { INodeProperties } from 'n8n-workflow';

import { operationParameters, operationProperty, type ResourceOperation } from '../operation';
import * as request from './request';

export { request };

/** The operations of this resource, alphabetical by name: the options, the router and the subtitle read this list. */
export const operations: ResourceOperation[] = [
	{
		name: 'Request',
		value: 'request',
		description: 'Send a request to any endpoint of the CRM API with this credential',
		action: 'Make a custom API request',
		run: request,
	},
];

export const description: INodeProperties[] = [
	operationProperty('customApiRequest', operations, 'request'),
	...operationParameters(operations),
];

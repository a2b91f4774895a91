import type { ResourceOperation } from '../operation';
import * as request from './request';

export const operations: ResourceOperation[] = [
	{
		name: 'Request',
		value: 'request',
		description: 'Send a request to any endpoint of the CRM API with this credential',
		action: 'Make a custom API request',
		run: request,
	},
];

import type { OperationOption } from '../operation';
export * as request from './request';

export const operations: OperationOption[] = [
	{
		name: 'Request',
		value: 'request',
		action: 'Make a custom API request',
		description: 'Send a request to any endpoint of the CRM API with this credential',
	},
];

import { operationOption } from '../operation';

export * as request from './request';

export const operations = [
	operationOption(
		'Request',
		'request',
		'Make a custom API request',
		'Send a request to any endpoint of the CRM API with this credential',
	),
];

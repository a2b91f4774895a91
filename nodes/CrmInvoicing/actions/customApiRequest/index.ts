export * as request from './request';

export const operations = [
	{
		name: 'Request',
		value: 'request',
		action: 'Make a custom API request',
		description: 'Send a request to any endpoint of the CRM API with this credential',
	},
];

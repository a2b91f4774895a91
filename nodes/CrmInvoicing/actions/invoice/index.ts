export * as create from './create';

export const operations = [
	{
		name: 'Create',
		value: 'create',
		action: 'Create an invoice',
		description: 'Create an invoice for a client with one or more line items',
	},
];

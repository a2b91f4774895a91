import { operationOption } from '../operation';

export * as create from './create';

export const operations = [
	operationOption(
		'Create',
		'create',
		'Create an invoice',
		'Create an invoice for a client with one or more line items',
	),
];

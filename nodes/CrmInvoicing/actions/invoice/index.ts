import type { ResourceOperation } from '../operation';
import * as create from './create';

export const operations: ResourceOperation[] = [
	{
		name: 'Create',
		value: 'create',
		description: 'Create an invoice for a client with one or more line items',
		action: 'Create an invoice',
		run: create,
	},
];

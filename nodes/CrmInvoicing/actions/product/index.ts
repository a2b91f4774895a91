import type { OperationOption } from '../operation';
export * as get from './get';

export const operations: OperationOption[] = [
	{
		name: 'Get',
		value: 'get',
		action: 'Get a product',
		description: 'Get a product by ID',
	},
];

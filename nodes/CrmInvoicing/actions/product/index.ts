import type { ResourceOperation } from '../operation';
import * as get from './get';

export const operations: ResourceOperation[] = [
	{
		name: 'Get',
		value: 'get',
		action: 'Get a product',
		description: 'Get a product by ID',
		run: get,
	},
];

import type { ResourceOperation } from '../operation';
import * as get from './get';

export const operations: ResourceOperation[] = [
	{
		name: 'Get',
		value: 'get',
		description: 'Get a product by ID',
		action: 'Get a product',
		run: get,
	},
];

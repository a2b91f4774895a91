import type { ResourceOperation } from '../operation';
import * as get from './get';

/** The operations of this resource, alphabetical by name: the options, the router and the subtitle read this list. */
export const operations: ResourceOperation[] = [
	{
		name: 'Get',
		value: 'get',
		description: 'Get a product by ID',
		action: 'Get a product',
		run: get,
	},
];

import type { ResourceOperation } from '../operation';
import * as get from './get';

export const operations: ResourceOperation[] = [
	{
		name: 'Get',
		value: 'get',
		action: 'Get a client',
		description: 'Get a client by ID',
		run: get,
	},
];

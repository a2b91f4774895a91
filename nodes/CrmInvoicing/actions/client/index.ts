import type { ResourceOperation } from '../operation';
import * as get from './get';

export const operations: ResourceOperation[] = [
	{
		name: 'Get',
		value: 'get',
		description: 'Get a client by ID',
		action: 'Get a client',
		run: get,
	},
];

import type { ResourceOperation } from '../operation';
import * as getMany from './getMany';

export const operations: ResourceOperation[] = [
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many contacts',
		description: 'Get many contacts (API v2), optionally filtered by search text',
		run: getMany,
	},
];

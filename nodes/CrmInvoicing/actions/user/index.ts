import type { ResourceOperation } from '../operation';
import * as getMany from './getMany';

export const operations: ResourceOperation[] = [
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many users',
		description:
			'Get many users of the team, optionally filtered by search text or active membership',
		run: getMany,
	},
];

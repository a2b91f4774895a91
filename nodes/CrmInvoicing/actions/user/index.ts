import type { ResourceOperation } from '../operation';
import * as getMany from './getMany';

/** The operations of this resource, alphabetical by name: the options, the router and the subtitle read this list. */
export const operations: ResourceOperation[] = [
	{
		name: 'Get Many',
		value: 'getMany',
		description:
			'Get many users of the team, optionally filtered by search text or active membership',
		action: 'Get many users',
		run: getMany,
	},
];

export * as getMany from './getMany';

export const operations = [
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many contacts',
		description: 'Get many contacts (API v2), optionally filtered by search text',
	},
];

export * as getMany from './getMany';

export const operations = [
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many users',
		description:
			'Get many users of the team, optionally filtered by search text or active membership',
	},
];

export * as get from './get';

export const operations = [
	{
		name: 'Get',
		value: 'get',
		action: 'Get a client',
		description: 'Get a client by ID',
	},
];

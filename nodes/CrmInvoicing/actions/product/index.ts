export * as get from './get';

export const operations = [
	{
		name: 'Get',
		value: 'get',
		action: 'Get a product',
		description: 'Get a product by ID',
	},
];

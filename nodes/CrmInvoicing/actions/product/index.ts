import { textProperty } from '../common/options';
import { getOperation } from '../common/record';

export const operations = [
	{
		name: 'Get',
		value: 'get',
		action: 'Get a product',
		description: 'Get a product by ID',
	},
];

export const get = getOperation(
	'product',
	'/products',
	textProperty('Product ID', 'productId', {
		required: true,
		placeholder: 'e.g. prd_7d2e',
		description: 'Public ID of the product from your catalogue',
	}),
);

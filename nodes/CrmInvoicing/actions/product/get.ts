import { getOperation, textProperty } from '../common';

export const { description, execute } = getOperation(
	'product',
	textProperty('Product ID', 'productId', {
		required: true,
		placeholder: 'e.g. prd_7d2e',
		description: 'Public ID of the product from your catalogue',
	}),
);

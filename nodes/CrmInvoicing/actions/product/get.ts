import { textProperty } from '../common/options';
import { getOperation } from '../common/record';

export const { description, execute } = getOperation(
	'product',
	'/products',
	textProperty('Product ID', 'productId', {
		required: true,
		placeholder: 'e.g. prd_7d2e',
		description: 'Public ID of the product from your catalogue',
	}),
);

import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { requireText } from '../common/fields';
import { recordItems, simplifyProperty } from '../common/output';
import { apiRequest } from '../../shared';

const properties: INodeProperties[] = [
	{
		displayName: 'Product ID',
		name: 'productId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. prd_7d2e',
		description: 'Public ID of the product from your catalogue',
	},
	simplifyProperty,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const productId = requireText(
		this,
		this.getNodeParameter('productId', itemIndex),
		'Product ID',
		itemIndex,
	);
	const product = await apiRequest.call(this, {
		method: 'GET',
		path: `/products/${encodeURIComponent(productId)}`,
		itemIndex,
		expect: 'record',
	});
	return recordItems(this, itemIndex, 'product', [product]);
}

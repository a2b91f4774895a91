import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { requiredParameter } from '../common/fields';
import { recordItems, simplifyProperty } from '../common/output';
import { recordPath, recordRequest } from '../common/record';

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
	const id = requiredParameter(this, 'productId', 'Product ID', itemIndex);
	const product = await recordRequest(this, 'GET', recordPath('/products', id), itemIndex);
	return recordItems(this, itemIndex, 'product', [product]);
}

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { requireFieldsToChange } from '../common/fields';
import { MAPPER_VERSION, parametersByVersion, updateMapped } from '../common/mapped';
import { dealIdOf, dealIdProperty, dealPath } from './dealId';
import { DEAL_MAPPER_FIELDS, dealBodyFromFields, dealUpdateFieldOptions } from './fields';
import { patchDeal } from './patch';

const properties: INodeProperties[] = [
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description:
			'The fields to change. Only the fields added here are sent; the others keep their values.',
		options: dealUpdateFieldOptions,
	},
];

export const description = parametersByVersion('deal', 'update', [dealIdProperty], properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const dealId = dealIdOf(this, itemIndex);
	if (this.getNode().typeVersion >= MAPPER_VERSION)
		// The spec shows no GET /deals/{id}; the node reads the deal there (choice deal-read).
		return await updateMapped(
			this,
			DEAL_MAPPER_FIELDS,
			dealPath(dealId),
			async (body) => await patchDeal(this, dealId, body, itemIndex),
			itemIndex,
		);
	const updateFields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const body = dealBodyFromFields(this, updateFields, itemIndex);
	requireFieldsToChange(this, body, itemIndex);
	const deal = await patchDeal(this, dealId, body, itemIndex);
	return [{ json: deal }];
}

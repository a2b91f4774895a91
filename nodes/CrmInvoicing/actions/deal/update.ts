import { updateDisplayOptions } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { requireFieldsToChange } from '../common/fields';
import { dealIdOf, dealIdProperty } from './dealId';
import { dealBodyFromFields, dealUpdateFieldOptions } from './fields';
import { patchDeal } from './patch';

const properties: INodeProperties[] = [
	dealIdProperty,
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

export const description = updateDisplayOptions(
	{ show: { resource: ['deal'], operation: ['update'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const dealId = dealIdOf(this, itemIndex);
	const updateFields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const body = dealBodyFromFields(this, updateFields, itemIndex);
	requireFieldsToChange(this, body, itemIndex);
	const deal = await patchDeal(this, dealId, body, itemIndex);
	return [{ json: deal }];
}

import { updateDisplayOptions } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { requireText } from '../common/fields';
import { apiRequest } from '../../shared';
import { leadBodyFromFields, leadFieldOptions } from './fields';

const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Jane Doe',
		description: 'Full name of the lead',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: leadFieldOptions,
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['create'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const name = requireText(this, this.getNodeParameter('name', itemIndex), 'Name', itemIndex);
	const additionalFields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = { ...leadBodyFromFields(this, additionalFields, itemIndex), name };
	const lead = await apiRequest.call(this, {
		method: 'POST',
		path: '/leads',
		body,
		itemIndex,
		expect: 'record',
	});
	return [{ json: lead }];
}

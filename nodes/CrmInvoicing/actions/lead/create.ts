import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { requireText } from '../common/fields';
import { MAPPER_VERSION, mappedBody, parametersByVersion, requireMapped } from '../common/mapped';
import { apiRequest } from '../../shared';
import { LEAD_MAPPER_FIELDS, leadBodyFromFields, leadFieldOptions } from './fields';

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

export const description = parametersByVersion('lead', 'create', [], properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	let body: IDataObject;
	if (this.getNode().typeVersion >= MAPPER_VERSION) {
		body = mappedBody(this, LEAD_MAPPER_FIELDS, itemIndex).body;
		requireMapped(this, LEAD_MAPPER_FIELDS, body, itemIndex);
	} else {
		const name = requireText(this, this.getNodeParameter('name', itemIndex), 'Name', itemIndex);
		const additionalFields = this.getNodeParameter(
			'additionalFields',
			itemIndex,
			{},
		) as IDataObject;
		body = { ...leadBodyFromFields(this, additionalFields, itemIndex), name };
	}
	const lead = await apiRequest.call(this, {
		method: 'POST',
		path: '/leads',
		body,
		itemIndex,
		expect: 'record',
	});
	return [{ json: lead }];
}

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { requireText } from '../common/fields';
import { MAPPER_VERSION, mappedBody, parametersByVersion, requireMapped } from '../common/mapped';
import { apiRequest } from '../../shared';
import { DEAL_MAPPER_FIELDS, dealBodyFromFields, dealCreateFieldOptions } from './fields';

const properties: INodeProperties[] = [
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Website redesign',
		description: 'Title of the deal (at least one character)',
	},
	{
		displayName: 'Pipeline ID',
		name: 'pipelineId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. pip_sales',
		description: 'Public ID of the pipeline the deal belongs to',
	},
	{
		displayName: 'Stage ID',
		name: 'stageId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. stg_new',
		description: 'Public ID of the pipeline stage the deal starts in',
	},
	{
		displayName: 'Client ID',
		name: 'clientId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. cli_4c1a9e',
		description: 'Public ID of the client the deal is with',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: dealCreateFieldOptions,
	},
];

export const description = parametersByVersion('deal', 'create', [], properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	if (this.getNode().typeVersion >= MAPPER_VERSION) {
		const { body } = mappedBody(this, DEAL_MAPPER_FIELDS, itemIndex);
		requireMapped(this, DEAL_MAPPER_FIELDS, body, itemIndex);
		return [{ json: await postDeal(this, body, itemIndex) }];
	}
	const title = requireText(this, this.getNodeParameter('title', itemIndex), 'Title', itemIndex);
	const pipelineId = requireText(
		this,
		this.getNodeParameter('pipelineId', itemIndex),
		'Pipeline ID',
		itemIndex,
	);
	const stageId = requireText(
		this,
		this.getNodeParameter('stageId', itemIndex),
		'Stage ID',
		itemIndex,
	);
	const clientId = requireText(
		this,
		this.getNodeParameter('clientId', itemIndex),
		'Client ID',
		itemIndex,
	);
	const additionalFields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {
		...dealBodyFromFields(this, additionalFields, itemIndex),
		title,
		pipelineId,
		stageId,
		clientId,
	};
	return [{ json: await postDeal(this, body, itemIndex) }];
}

async function postDeal(
	context: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	return await apiRequest.call(context, {
		method: 'POST',
		path: '/deals',
		body,
		itemIndex,
		expect: 'record',
	});
}

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { requiredParameter } from '../common/fields';
import { createRecord, parametersByVersion } from '../common/mapped';
import { additionalFieldsProperty, textProperty } from '../common/options';
import { DEAL_MAPPER_FIELDS, dealBodyFromFields, dealCreateFieldOptions } from './fields';

const properties: INodeProperties[] = [
	textProperty('Title', 'title', {
		required: true,
		placeholder: 'Website redesign',
		description: 'Title of the deal (at least one character)',
	}),
	textProperty('Pipeline ID', 'pipelineId', {
		required: true,
		placeholder: 'e.g. pip_sales',
		description: 'Public ID of the pipeline the deal belongs to',
	}),
	textProperty('Stage ID', 'stageId', {
		required: true,
		placeholder: 'e.g. stg_new',
		description: 'Public ID of the pipeline stage the deal starts in',
	}),
	textProperty('Client ID', 'clientId', {
		required: true,
		placeholder: 'e.g. cli_4c1a9e',
		description: 'Public ID of the client the deal is with',
	}),
	additionalFieldsProperty(dealCreateFieldOptions),
];

export const description = parametersByVersion('deal', 'create', [], properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await createRecord(this, '/deals', DEAL_MAPPER_FIELDS, itemIndex, () => {
		const required = {
			title: requiredParameter(this, 'title', 'Title', itemIndex),
			pipelineId: requiredParameter(this, 'pipelineId', 'Pipeline ID', itemIndex),
			stageId: requiredParameter(this, 'stageId', 'Stage ID', itemIndex),
			clientId: requiredParameter(this, 'clientId', 'Client ID', itemIndex),
		};
		const additionalFields = this.getNodeParameter('additionalFields', itemIndex, {});
		return { ...dealBodyFromFields(this, additionalFields as IDataObject, itemIndex), ...required };
	});
}

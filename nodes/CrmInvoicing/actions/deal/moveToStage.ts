import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { requiredParameter } from '../common/fields';
import { dealIdOf, dealIdProperty } from './dealId';
import { patchDeal } from './patch';

const properties: INodeProperties[] = [
	dealIdProperty,
	{
		displayName: 'Stage ID',
		name: 'stageId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. stg_qualified',
		description: 'Public ID of the pipeline stage to move the deal to',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['deal'], operation: ['moveToStage'] } },
	properties,
);

/** Same request as Update with Stage ID. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const stageId = requiredParameter(this, 'stageId', 'Stage ID', itemIndex);
	return [{ json: await patchDeal(this, dealIdOf(this, itemIndex), { stageId }, itemIndex) }];
}

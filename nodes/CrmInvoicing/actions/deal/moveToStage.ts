import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { requiredParameter } from '../common/fields';
import { textProperty } from '../common/options';
import { shownFor } from '../operation';
import { recordRequest } from '../common/record';
import { dealIdProperty, dealOf } from './patch';

export const description = shownFor('deal', 'moveToStage', [
	dealIdProperty,
	textProperty('Stage ID', 'stageId', {
		required: true,
		placeholder: 'e.g. stg_qualified',
		description: 'Public ID of the pipeline stage to move the deal to',
	}),
]);

/** Same request as Update with Stage ID. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const stageId = requiredParameter(this, 'stageId', 'Stage ID', itemIndex);
	const { path } = dealOf(this, itemIndex);
	return [{ json: await recordRequest(this, 'PATCH', path, itemIndex, { stageId }) }];
}

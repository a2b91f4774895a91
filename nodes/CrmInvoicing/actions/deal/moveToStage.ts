import { requiredParameter } from '../common/fields';
import { textProperty } from '../common/options';
import { patchOperation } from './patch';

/** Same request as Update with Stage ID. */
export const { description, execute } = patchOperation(
	'moveToStage',
	(context, itemIndex) => ({
		stageId: requiredParameter(context, 'stageId', 'Stage ID', itemIndex),
	}),
	[
		textProperty('Stage ID', 'stageId', {
			required: true,
			placeholder: 'e.g. stg_qualified',
			description: 'Public ID of the pipeline stage to move the deal to',
		}),
	],
);

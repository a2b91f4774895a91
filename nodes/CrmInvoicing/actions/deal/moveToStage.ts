import { requiredParameter } from '../common/fields';
import { textProperty } from '../common/options';
import { patchOperation } from './patch';

/** Same request as Update with Stage ID. */
export const { description, execute } = patchOperation(
	'moveToStage',
	(item) => ({ stageId: requiredParameter(item, 'stageId', 'Stage ID') }),
	[
		textProperty('Stage ID', 'stageId', {
			required: true,
			placeholder: 'e.g. stg_qualified',
			description: 'Public ID of the pipeline stage to move the deal to',
		}),
	],
);

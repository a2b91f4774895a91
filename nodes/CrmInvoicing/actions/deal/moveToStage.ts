import { requiredParameter, type Item } from '../common/fields';
import { textProperty } from '../common/options';
import { recordPath, recordRequest } from '../common/record';
import { shownFor } from '../operation';
import { dealIdOf, dealIdProperty } from './patch';

export const description = shownFor('deal', 'moveToStage', [
	dealIdProperty,
	textProperty('Stage ID', 'stageId', {
		required: true,
		placeholder: 'e.g. stg_qualified',
		description: 'Public ID of the pipeline stage to move the deal to',
	}),
]);

export async function execute(item: Item) {
	const stageId = requiredParameter(item, 'stageId', 'Stage ID');
	const path = recordPath('/deals', dealIdOf(item));
	return [{ json: await recordRequest(item, 'PATCH', path, { stageId }) }];
}

import { idOf, requiredParameter, textProperty, type Item } from '../common';
import { DEAL } from './patch';

export const description = [
	DEAL.idProperty,
	textProperty('Stage ID', 'stageId', {
		required: true,
		placeholder: 'e.g. stg_qualified',
		description: 'Public ID of the pipeline stage to move the deal to',
	}),
];

export async function execute(item: Item) {
	const stageId = requiredParameter(item, 'stageId', 'Stage ID');
	return [{ json: await DEAL.patch(item, idOf(item, DEAL.idProperty), { stageId }) }];
}

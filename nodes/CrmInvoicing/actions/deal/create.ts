import type { Item } from '../common/fields';
import { parametersByVersion } from '../common/mapped';
import { additionalFieldsProperty, textProperty } from '../common/options';
import { createBody, recordRequest } from '../common/record';
import { DEAL_MAPPER_FIELDS, dealBodyFromFields, dealCreateFieldOptions } from './fields';

export const description = parametersByVersion(
	'deal',
	'create',
	[],
	[
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
	],
);

export async function execute(item: Item) {
	const body = createBody(item, { standard: DEAL_MAPPER_FIELDS, fromFields: dealBodyFromFields });
	return [{ json: await recordRequest(item, 'POST', '/deals', body) }];
}

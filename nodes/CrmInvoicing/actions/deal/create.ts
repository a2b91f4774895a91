import { additionalFieldsProperty, createOperation, textProperty } from '../common';
import { dealCreateFieldOptions } from './fields';
import { DEAL } from './patch';

export const { description, execute } = createOperation(DEAL, [
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
]);

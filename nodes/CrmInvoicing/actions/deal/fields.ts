import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	amountProperty,
	bodyFromFields,
	byName,
	customFieldsOption,
	enumOptions,
	locatorProperty,
	locatorValue,
	mapperField,
	optionalText,
	otherFieldsOption,
	requireOneOf,
	requireText,
	textProperty,
	toIsoDate,
	toNumber,
	type Item,
} from '../common';

const DEAL_PRIORITIES = ['LOW', 'MEDIUM', 'HIGH'];
const DEAL_STATUSES = ['ACTIVE', 'WON', 'LOST'];

const sharedOptions: INodeProperties[] = [
	customFieldsOption('deal'),
	{
		displayName: 'Expected Close Date',
		name: 'expectedCloseDate',
		type: 'dateTime',
		default: '',
		description: 'When the deal is expected to close. Sent as an ISO 8601 date-time.',
	},
	otherFieldsOption,
	amountProperty('Price', 'price', 'Value of the deal'),
	{
		displayName: 'Priority',
		name: 'priority',
		type: 'options',
		options: enumOptions(DEAL_PRIORITIES),
		default: 'MEDIUM',
		description: 'Priority of the deal: LOW, MEDIUM or HIGH',
	},
	textProperty('Source ID', 'sourceId', {
		placeholder: 'e.g. src_web',
		description: 'Public ID of the deal source',
	}),
];

export const dealCreateFieldOptions = byName([
	...sharedOptions,
	locatorProperty('Lead', 'leadId', 'lead', {
		description: 'The lead this deal comes from. Pick it from the list or enter its public ID.',
	}),
]);

export const dealUpdateFieldOptions = byName([
	...sharedOptions,
	textProperty('Stage ID', 'stageId', {
		placeholder: 'e.g. stg_qualified',
		description: 'Public ID of a pipeline stage. Setting it moves the deal to that stage.',
	}),
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: enumOptions(DEAL_STATUSES),
		default: 'ACTIVE',
		description: 'Status of the deal: ACTIVE, WON or LOST',
	},
	textProperty('Title', 'title', {
		placeholder: 'Website redesign',
		description: 'New title of the deal (at least one character)',
	}),
]);

export function dealBodyFromFields(item: Item, fields: IDataObject) {
	if (fields.title !== undefined) requireText(item, fields.title, 'Title');
	return bodyFromFields(item, fields, {
		price: (value) => toNumber(item, value, 'Price'),
		priority: (value) => requireOneOf(item, value, DEAL_PRIORITIES, 'Priority'),
		status: (value) => requireOneOf(item, value, DEAL_STATUSES, 'Status'),
		expectedCloseDate: (value) => toIsoDate(item, value, 'Expected Close Date'),
		leadId: (value) => optionalText(item, locatorValue(value), 'Lead'),
	});
}

/** As the spec's POST and PATCH /deals bodies list them. */
export const DEAL_MAPPER_FIELDS = [
	mapperField('title', 'Title', { required: true }),
	mapperField('pipelineId', 'Pipeline ID', { required: true, only: 'create' }),
	mapperField('stageId', 'Stage ID', { required: true }),
	mapperField('clientId', 'Client ID', { required: true, only: 'create' }),
	mapperField('leadId', 'Lead ID', { only: 'create' }),
	mapperField('sourceId', 'Source ID'),
	mapperField('price', 'Price', { type: 'number' }),
	mapperField('expectedCloseDate', 'Expected Close Date', { type: 'dateTime' }),
	mapperField('priority', 'Priority', { type: 'options', values: DEAL_PRIORITIES }),
	mapperField('status', 'Status', { type: 'options', values: DEAL_STATUSES, only: 'update' }),
];

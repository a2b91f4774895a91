import type { IExecuteFunctions } from 'n8n-workflow';

import { commaList } from '../../shared';
import {
	additionalFieldsProperty,
	bodyFromFields,
	collectionParameter,
	customFieldsOption,
	enumOptions,
	locatorProperty,
	locatorValue,
	optionalText,
	otherFieldsOption,
	recordRequest,
	requiredParameter,
	requireOneOf,
	textProperty,
	toIsoDate,
	toNumber,
	type Item,
} from '../common';
import { lineItemProperties, lineItemsOf } from './lineItems';

const INVOICE_STATUSES = ['DRAFT', 'SENT'];

export const description = [
	textProperty('Client ID', 'clientId', {
		required: true,
		placeholder: 'e.g. cli_4c1a9e',
		description: 'Public ID of the client the invoice is for',
	}),
	{
		displayName: 'Date',
		name: 'date',
		type: 'dateTime',
		required: true,
		default: '',
		description:
			'Invoice date. Pick it, or enter an ISO 8601 date-time such as 2026-12-01T09:00:00, or an expression such as {{ $now }}.',
	},
	{
		displayName: 'Due Date',
		name: 'dueDate',
		type: 'dateTime',
		required: true,
		default: '',
		description:
			'Date by which the invoice is to be paid. Accepts an ISO 8601 date, the date picker, or an expression such as {{ $now.plus({ days: 30 }) }}.',
	},
	...lineItemProperties,
	additionalFieldsProperty([
		textProperty('Contact ID', 'contactId', {
			placeholder: 'e.g. con_91b2',
			description: 'Public ID of the contact person at the client',
		}),
		customFieldsOption('invoice'),
		textProperty('Notes', 'notes', {
			typeOptions: { rows: 3 },
			description: 'Notes printed on the invoice',
		}),
		otherFieldsOption,
		{
			displayName: 'Prices Include Tax',
			name: 'isInclusiveTax',
			type: 'boolean',
			default: false,
			description: 'Whether the line item prices already include tax (the API default is off)',
		},
		locatorProperty('Sales Person', 'salesPersonId', 'user', {
			description:
				'The user credited with the sale. Pick a user from the list or enter their public ID.',
		}),
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: enumOptions(INVOICE_STATUSES),
			default: 'DRAFT',
			description: 'Status the invoice is created in: DRAFT (the API default) or SENT',
		},
		textProperty('Subject', 'subject', { placeholder: 'Website redesign, phase 1' }),
		textProperty('Tag IDs', 'tags', {
			placeholder: '3, 7',
			description: 'Numeric tag IDs, comma-separated, or an expression giving an array of numbers',
		}),
		textProperty('Template ID', 'templateId', {
			placeholder: 'e.g. tpl_standard',
			description:
				"Public ID of the document template. Leave out to use the team's default invoice template.",
		}),
	]),
];

function toNumberList(item: Item, value: unknown) {
	// Text is comma-separated; an array gives its entries.
	const parts = typeof value === 'string' ? commaList(value) : [value].flat();
	return parts.map((part) => toNumber(item, part, 'Tag IDs'));
}

export async function execute(this: IExecuteFunctions, item: Item) {
	const clientId = requiredParameter(item, 'clientId', 'Client ID');
	const date = toIsoDate(item, this.getNodeParameter('date', item.index), 'Date');
	const dueDate = toIsoDate(item, this.getNodeParameter('dueDate', item.index), 'Due Date');
	const lineItems = lineItemsOf(item);
	const additional = bodyFromFields(item, collectionParameter(item, 'additionalFields'), {
		status: (value) => requireOneOf(item, value, INVOICE_STATUSES, 'Status'),
		salesPersonId: (value) => optionalText(item, locatorValue(value), 'Sales Person'),
		tags: (value) => toNumberList(item, value),
	});
	const body = { ...additional, clientId, date, dueDate, lineItems };
	return [{ json: await recordRequest(item, 'POST', '/invoices', body) }];
}

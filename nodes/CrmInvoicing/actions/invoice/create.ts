import { updateDisplayOptions } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import {
	customFieldsFromPairs,
	isSet,
	optionalId,
	requestField,
	locatorValue,
	requireIsoDate,
	requireOneOf,
	requireText,
	toJsonObject,
	toNumberList,
} from '../common/fields';
import { locatorProperty } from '../common/locator';
import { customFieldsOption, otherFieldsOption } from '../common/options';
import { apiRequest } from '../../shared';
import { lineItemProperties, lineItemsOf } from './lineItems';

const INVOICE_STATUSES = ['DRAFT', 'SENT'] as const;

const properties: INodeProperties[] = [
	{
		displayName: 'Client ID',
		name: 'clientId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. cli_4c1a9e',
		description: 'Public ID of the client the invoice is for',
	},
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
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Contact ID',
				name: 'contactId',
				type: 'string',
				default: '',
				placeholder: 'e.g. con_91b2',
				description: 'Public ID of the contact person at the client',
			},
			customFieldsOption('invoice'),
			{
				displayName: 'Notes',
				name: 'notes',
				type: 'string',
				typeOptions: { rows: 3 },
				default: '',
				description: 'Notes printed on the invoice',
			},
			otherFieldsOption,
			{
				displayName: 'Prices Include Tax',
				name: 'isInclusiveTax',
				type: 'boolean',
				default: false,
				description: 'Whether the line item prices already include tax (the API default is off)',
			},
			locatorProperty({
				displayName: 'Sales Person',
				name: 'salesPersonId',
				description:
					'The user credited with the sale. Pick a user from the list or enter their public ID.',
				searchListMethod: 'searchUsers',
				listPlaceholder: 'Select a user...',
				idPlaceholder: 'e.g. usr_5e0c',
			}),
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: [
					{ name: 'Draft', value: 'DRAFT' },
					{ name: 'Sent', value: 'SENT' },
				],
				default: 'DRAFT',
				description: 'Status the invoice is created in: DRAFT (the API default) or SENT',
			},
			{
				displayName: 'Subject',
				name: 'subject',
				type: 'string',
				default: '',
				placeholder: 'Website redesign, phase 1',
			},
			{
				displayName: 'Tag IDs',
				name: 'tags',
				type: 'string',
				default: '',
				placeholder: '3, 7',
				description:
					'Numeric tag IDs, comma-separated, or an expression giving an array of numbers',
			},
			{
				displayName: 'Template ID',
				name: 'templateId',
				type: 'string',
				default: '',
				placeholder: 'e.g. tpl_standard',
				description:
					"Public ID of the document template. Leave out to use the team's default invoice template.",
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['create'] } },
	properties,
);

function additionalBody(
	context: IExecuteFunctions,
	fields: IDataObject,
	itemIndex: number,
): IDataObject {
	const { customFields, otherFields, isInclusiveTax, salesPersonId, status, tags, ...texts } =
		fields;
	const body: IDataObject = {
		...toJsonObject(context, otherFields, 'Other Fields (JSON)', itemIndex),
	};
	for (const [key, value] of Object.entries(texts)) {
		const sent = requestField(context, key, value, itemIndex);
		if (sent !== undefined) body[key] = sent;
	}
	if (typeof isInclusiveTax === 'boolean') body.isInclusiveTax = isInclusiveTax;
	if (isSet(status))
		body.status = requireOneOf(context, status, INVOICE_STATUSES, 'Status', itemIndex);
	const salesPerson = optionalId(context, locatorValue(salesPersonId), 'Sales Person', itemIndex);
	if (salesPerson !== undefined) body.salesPersonId = salesPerson;
	if (tags !== undefined && !(typeof tags === 'string' && tags.trim() === '')) {
		body.tags = toNumberList(context, tags, 'Tag IDs', itemIndex);
	}
	const custom = customFieldsFromPairs(customFields);
	if (custom) body.customFields = { ...(body.customFields as IDataObject | undefined), ...custom };
	return body;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const clientId = requireText(
		this,
		this.getNodeParameter('clientId', itemIndex),
		'Client ID',
		itemIndex,
	);
	const date = requireIsoDate(this, this.getNodeParameter('date', itemIndex), 'Date', itemIndex);
	const dueDate = requireIsoDate(
		this,
		this.getNodeParameter('dueDate', itemIndex),
		'Due Date',
		itemIndex,
	);
	const lineItems = lineItemsOf(this, itemIndex);
	const additionalFields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {
		...additionalBody(this, additionalFields, itemIndex),
		clientId,
		date,
		dueDate,
		lineItems,
	};
	const invoice = await apiRequest.call(this, {
		method: 'POST',
		path: '/invoices',
		body,
		itemIndex,
		expect: 'record',
	});
	return [{ json: invoice }];
}

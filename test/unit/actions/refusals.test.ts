/** Every operation refuses a wrong value before any request, naming the field (and the line) and the item. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { byId, expectValidationError, useNock } from './support';
import { dealCreate, invoiceCreate } from '../../helpers/actions';

useNock();

const required = (field: string) => `"${field}" is required but is empty in item 0`;
const of = (resource: string, operation: string, more: IDataObject = {}): INodeParameters =>
	({ resource, operation, ...more }) as INodeParameters;

const leadUpdate = (updateFields: IDataObject) =>
	of('lead', 'update', { leadId: byId('lead_1'), updateFields });
const dealUpdate = (more: IDataObject) => of('deal', 'update', { dealId: 'deal_1', ...more });
const hook = { name: 'Sync', url: 'https://example.com/hook', events: ['lead.created'] };
const request = (more: IDataObject) =>
	of('customApiRequest', 'request', { method: 'GET', ...more });
const post = (jsonBody: string) => request({ method: 'POST', path: '/leads', jsonBody });
const dots = 'is refused in item 0: it has a ".." segment, which would point outside the API path';
const fullUrl = '"Path" must not contain "://" (a full URL) in item 0';
const line = { name: 'A', quantity: 1, price: 1 };
const invoice = (more: IDataObject) => invoiceCreate({ lineItems: { items: [line] }, ...more });
const linesJson = (lineItemsJson: string) => invoice({ lineItemsSource: 'json', lineItemsJson });

it.each<[INodeParameters, string]>([
	[of('lead', 'create', { name: '   ' }), required('Name')],
	[
		of('lead', 'create', { name: 'Jane', additionalFields: { value: '={{ "lots" }}' } }),
		'"Value" must be a number but is "lots" in item 0',
	],
	[of('lead', 'get', { leadId: byId('') }), required('Lead')],
	[
		of('lead', 'getMany', { limit: 0 }),
		'"Limit" must be a whole number of at least 1 but is 0 in item 0',
	],
	[leadUpdate({}), '"Update Fields" has no field to change in item 0'],
	[leadUpdate({ name: ' ' }), required('Name')],
	[leadUpdate({ otherFields: '{oops' }), '"Other Fields (JSON)" is not valid JSON in item 0'],
	[of('lead', 'upsert', { email: '  ', name: 'Jane' }), required('Email')],
	[dealCreate({ title: '  ' }), required('Title')],
	[dealCreate({ clientId: '' }), required('Client ID')],
	[dealCreate({ pipelineId: '' }), required('Pipeline ID')],
	[
		dealCreate({ additionalFields: { priority: '={{ "URGENT" }}' } }),
		'"Priority" must be one of LOW, MEDIUM, HIGH but is "URGENT" in item 0',
	],
	[
		dealCreate({ additionalFields: { expectedCloseDate: '={{ "next week" }}' } }),
		'"Expected Close Date" is not a valid date: "next week" in item 0',
	],
	[dealUpdate({ updateFields: {} }), '"Update Fields" has no field to change in item 0'],
	[dealUpdate({ updateFields: { title: '' } }), required('Title')],
	[
		dealUpdate({ updateFields: { status: '={{ "OPEN" }}' } }),
		'"Status" must be one of ACTIVE, WON, LOST but is "OPEN" in item 0',
	],
	[dealUpdate({ dealId: ' ', updateFields: { price: 1 } }), required('Deal ID')],
	[of('deal', 'moveToStage', { dealId: 'deal_1', stageId: '' }), required('Stage ID')],
	[of('client', 'get', { clientId: '' }), required('Client ID')],
	[of('product', 'get', { productId: ' ' }), required('Product ID')],
	[of('user', 'getMany', { limit: 2.5 }), '"Limit" must be a whole number of at least 1'],
	[of('webhook', 'create', { ...hook, name: '' }), required('Name')],
	[
		of('webhook', 'create', { ...hook, url: 'example.com/hook' }),
		'"URL" must be an http:// or https:// address but is "example.com/hook" in item 0',
	],
	[
		of('webhook', 'create', { ...hook, events: [], customEvents: ' , ' }),
		'"Events" needs at least one event in item 0',
	],
	[of('webhook', 'delete', { webhookId: '' }), required('Webhook Subscription ID')],
	[request({ path: 'leads' }), '"Path" must start with / but is "leads" in item 0'],
	[request({ path: '/redirect?to=https://evil.example' }), fullUrl],
	[request({ path: '/redirect?to=https%3A%2F%2Fevil.example' }), fullUrl],
	[request({ path: '/leads/../admin' }), `"Path" ${dots}`],
	[
		request({ path: '/api/v1/leads' }),
		'"Path" must not start with the version prefix (/api/v1) in item 0',
	],
	[request({ path: '' }), required('Path')],
	[post('{nope'), '"JSON Body" is not valid JSON in item 0'],
	[post('42'), '"JSON Body" must be a JSON object or array in item 0'],
	[
		request({ path: '/leads', paginate: true, limit: -1 }),
		'"Limit" must be a whole number of at least 1',
	],
	[invoice({ lineItems: {} }), '"Line Items" needs at least one line item in item 0'],
	[
		invoice({ lineItems: { items: [line, { ...line, name: ' ', productId: '' }] } }),
		'Line item 2 of item 0: needs a "name" or a "productId"',
	],
	[
		invoice({ additionalFields: { tags: '3, seven' } }),
		'"Tag IDs" must be a number but is "seven" in item 0',
	],
	[invoice({ date: '' }), required('Date')],
	[invoice({ dueDate: 'soon' }), '"Due Date" is not a valid date: "soon" in item 0'],
	[invoice({ dueDate: '2026-02-30' }), '"Due Date" is not a valid date: "2026-02-30" in item 0'],
	[invoice({ clientId: '' }), required('Client ID')],
	[
		invoice({ additionalFields: { status: '={{ "PAID" }}' } }),
		'"Status" must be one of DRAFT, SENT but is "PAID" in item 0',
	],
	[
		linesJson('[{"name": "A", "quantity": "two", "price": 1}]'),
		'Line item 1 of item 0: "quantity" must be a number but is "two"',
	],
	[
		linesJson('[{"name": "A", "quantity": 1}]'),
		'Line item 1 of item 0: "price" is required and must be a number',
	],
	[linesJson('[1]'), 'Line item 1 of item 0: is not an object'],
	[linesJson('[]'), '"Line Items (JSON)" needs at least one line item in item 0'],
	[linesJson('[{'), '"Line Items (JSON)" is not valid JSON in item 0'],
	[linesJson('"text"'), '"Line Items (JSON)" must be an array of line item objects in item 0'],
])('%j: %s', async (parameters, message) => {
	await expectValidationError(parameters, message);
});

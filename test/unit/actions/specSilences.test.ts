/**
 * The points where the spec says "not shown" or leaves a choice open (issue 12), each under both readings the sandbox's
 * personalities stand for: every operation either works or fails with an error that names the point; none reports a
 * success that did not happen.
 */
import nock from 'nock';
import { setGlobalState } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { api, BASE, byId, expectValidationError, jsonOf, logging, run, useNock } from './support';
import type { SeenRequest } from './support';
import { lead } from '../../helpers/records';

useNock();

beforeEach(() => setGlobalState({ defaultTimezone: 'UTC' }));

async function errorOf(
	promise: Promise<unknown>,
): Promise<Error & { description?: string; httpCode?: string }> {
	try {
		await promise;
	} catch (error) {
		return error as Error & { description?: string };
	}
	throw new Error('expected an error');
}

describe('archive / unarchive: the API may ignore `archived` in a PATCH', () => {
	it('standard reading: the PATCH answers the archived lead → success, no read-back', async () => {
		const seen: SeenRequest[] = [];
		const scope = api()
			.patch('/api/v1/leads/lead_1')
			.reply(logging(seen, 200, lead('lead_1', { archived: true })));
		const output = await run({ resource: 'lead', operation: 'archive', leadId: byId('lead_1') });
		expect(scope.isDone()).toBe(true);
		expect(seen).toHaveLength(1);
		expect(jsonOf(output)).toEqual([lead('lead_1', { archived: true })]);
	});

	it('alternate reading: 204, the read-back still shows archived=false → an error that says so', async () => {
		const seen: SeenRequest[] = [];
		const scope = api()
			.patch('/api/v1/leads/lead_1')
			.reply(logging(seen, 204))
			.get('/api/v1/leads/lead_1')
			.reply(logging(seen, 200, lead('lead_1', { archived: false })));
		const error = await errorOf(
			run({ resource: 'lead', operation: 'archive', leadId: byId('lead_1') }),
		);
		expect(scope.isDone()).toBe(true);
		expect(seen.map((request) => request.method)).toEqual(['PATCH', 'GET']);
		expect(error.message).toBe(
			'The API did not archive lead lead_1: it still answers archived=false',
		);
		expect(error.description).toMatch(/not among the fields PATCH \/leads\/\{id\} accepts/);
	});

	it('a 200 answer that is the lead, still unarchived → an error without a read-back', async () => {
		const scope = api()
			.patch('/api/v1/leads/lead_1')
			.reply(200, lead('lead_1', { archived: false }));
		const error = await errorOf(
			run({ resource: 'lead', operation: 'archive', leadId: byId('lead_1') }),
		);
		expect(scope.isDone()).toBe(true);
		expect(error.message).toBe(
			'The API did not archive lead lead_1: it still answers archived=false',
		);
	});

	it('a 200 answer that does not show `archived` → read back, and success when the lead is archived', async () => {
		const scope = api()
			.patch('/api/v1/leads/lead_1')
			.reply(200, { id: 'lead_1', name: 'Jane Doe' })
			.get('/api/v1/leads/lead_1')
			.reply(200, lead('lead_1', { archived: true }));
		const output = await run({ resource: 'lead', operation: 'archive', leadId: byId('lead_1') });
		expect(scope.isDone()).toBe(true);
		expect(jsonOf(output)).toEqual([lead('lead_1', { archived: true })]);
	});

	it('unarchive says "did not unarchive"; with Continue on Fail the error is its item and the next item goes on', async () => {
		api()
			.patch('/api/v1/leads/lead_1')
			.reply(204)
			.get('/api/v1/leads/lead_1')
			.reply(200, lead('lead_1', { archived: true }))
			.patch('/api/v1/leads/lead_2')
			.reply(200, lead('lead_2', { archived: false }));
		const output = await run(
			{ resource: 'lead', operation: 'unarchive', leadId: byId('={{ $json.id }}') },
			{ items: [{ json: { id: 'lead_1' } }, { json: { id: 'lead_2' } }], continueOnFail: true },
		);
		expect(output[0]).toMatchObject({
			json: { error: 'The API did not unarchive lead lead_1: it still answers archived=true' },
			pairedItem: { item: 0 },
		});
		expect(output[1]).toEqual({ json: lead('lead_2'), pairedItem: { item: 1 } });
	});
});

describe('lead update: 204 answers and ignored custom fields', () => {
	it('a 204 answer is followed by a read-back whose lead is the output', async () => {
		const seen: SeenRequest[] = [];
		api()
			.patch('/api/v1/leads/lead_1')
			.reply(logging(seen, 204))
			.get('/api/v1/leads/lead_1')
			.reply(logging(seen, 200, lead('lead_1', { title: 'CTO' })));
		const output = await run({
			resource: 'lead',
			operation: 'update',
			leadId: byId('lead_1'),
			updateFields: { title: 'CTO' },
		});
		expect(seen.map((request) => `${request.method} ${request.path}`)).toEqual([
			'PATCH /api/v1/leads/lead_1',
			'GET /api/v1/leads/lead_1',
		]);
		expect(jsonOf(output)).toEqual([lead('lead_1', { title: 'CTO' })]);
	});

	it('custom fields the API did not apply → an error naming them', async () => {
		api()
			.patch('/api/v1/leads/lead_1')
			.reply(204)
			.get('/api/v1/leads/lead_1')
			.reply(200, lead('lead_1', { title: 'CTO', customFields: null }));
		const error = await errorOf(
			run({
				resource: 'lead',
				operation: 'update',
				leadId: byId('lead_1'),
				updateFields: { title: 'CTO', customFields: { field: [{ key: 'tier', value: 'gold' }] } },
			}),
		);
		expect(error.message).toBe(
			'The API did not update the custom fields tier of lead lead_1: it answers customFields=null',
		);
	});

	it('custom fields answered with the same values (a number for a numeric text too) → success', async () => {
		api()
			.patch('/api/v1/leads/lead_1')
			.reply(200, lead('lead_1', { customFields: { tier: 'gold', seats: 5, other: true } }));
		const output = await run({
			resource: 'lead',
			operation: 'update',
			leadId: byId('lead_1'),
			updateFields: {
				customFields: {
					field: [
						{ key: 'tier', value: 'gold' },
						{ key: 'seats', value: '5' },
					],
				},
			},
		});
		expect(jsonOf(output)[0].customFields).toEqual({ tier: 'gold', seats: 5, other: true });
	});
});

describe('invoice line items', () => {
	const base = {
		resource: 'invoice',
		operation: 'create',
		clientId: 'cli_1',
		date: '2026-03-01',
		dueDate: '2026-03-31',
	};
	const invoice = { id: 'inv_1', lineItems: [] };

	it('from the form: a product ID and a quantity alone make a line; empty fields and the 0 price are not sent', async () => {
		const seen: SeenRequest[] = [];
		api()
			.post('/api/v1/invoices')
			.reply(logging(seen, 200, invoice));
		await run({
			...base,
			lineItems: {
				items: [
					{
						name: '',
						productId: 'prd_7',
						quantity: 3,
						price: 0,
						description: '',
						taxRateId: '',
						discount: 0,
						discountType: '',
						buyPrice: 0,
					},
					{
						name: 'Free sample',
						productId: '',
						quantity: 1,
						price: 0,
						description: '',
						taxRateId: '',
						discount: 0,
						discountType: '',
						buyPrice: 0,
					},
				],
			},
		});
		expect((seen[0].body as IDataObject).lineItems).toEqual([
			{ productId: 'prd_7', quantity: 3 },
			// Without a product, the price is the line's own: 0 is sent.
			{ name: 'Free sample', quantity: 1, price: 0 },
		]);
	});

	it('from JSON: a product ID and a quantity alone make a line; a line without product still needs a price', async () => {
		const seen: SeenRequest[] = [];
		api()
			.post('/api/v1/invoices')
			.reply(logging(seen, 200, invoice));
		await run({
			...base,
			lineItemsSource: 'json',
			lineItemsJson: '[{"productId": "prd_7", "quantity": 2}]',
		});
		expect((seen[0].body as IDataObject).lineItems).toEqual([{ productId: 'prd_7', quantity: 2 }]);

		await expectValidationError(
			{ ...base, lineItemsSource: 'json', lineItemsJson: '[{"name": "Hours", "quantity": 2}]' },
			'Line item 1 of item 0: "price" is required and must be a number',
		);
	});

	it('line items copied from an invoice response: response-only keys are dropped, a null productId is left out', async () => {
		const seen: SeenRequest[] = [];
		api()
			.post('/api/v1/invoices')
			.reply(logging(seen, 200, invoice));
		const copied = [
			{
				name: 'Consulting',
				quantity: 2,
				price: 105,
				tax: 20,
				discount: 0,
				discountType: 'fixed',
				buyPrice: 0,
				viewType: 'LINE_ITEM',
				amount: 210,
				taxAmount: 42,
				discountAmount: 0,
				description: '',
				productId: null,
			},
		];
		await run(
			{ ...base, lineItemsSource: 'json', lineItemsJson: '={{ $json.lineItems }}' },
			{ items: [{ json: { lineItems: copied } }] },
		);
		expect((seen[0].body as IDataObject).lineItems).toEqual([
			{
				name: 'Consulting',
				quantity: 2,
				price: 105,
				discount: 0,
				discountType: 'fixed',
				buyPrice: 0,
			},
		]);
	});

	it('a numeric productId (what responses show) is refused with the advice to use the public ID, from JSON and from the form', async () => {
		const error = await expectValidationError(
			{ ...base, lineItemsSource: 'json', lineItemsJson: '={{ $json.lineItems }}' },
			'Line item 1 of item 0: "productId" is the number 42, not a product\'s public ID',
			{
				items: [
					{
						json: {
							lineItems: [
								{
									name: 'Licence',
									quantity: 1,
									price: 50,
									productId: 42,
									viewType: 'LINE_ITEM',
									amount: 50,
								},
							],
						},
					},
				],
			},
		);
		expect((error as { description?: string }).description).toMatch(/Use the product's public ID/);
		await expectValidationError(
			{
				...base,
				lineItems: { items: [{ productId: '={{ $json.productId }}', quantity: 1, price: 0 }] },
			},
			/"productId" is the number 42/,
			{ items: [{ json: { productId: 42 } }] },
		);
	});
});

describe('date-only values keep their calendar date in every workflow time zone', () => {
	const base = {
		resource: 'invoice',
		operation: 'create',
		clientId: 'cli_1',
		lineItems: { items: [{ name: 'A', quantity: 1, price: 1 }] },
	};

	it.each(['Europe/Berlin', 'Pacific/Auckland', 'America/Los_Angeles', 'UTC'])(
		'%s: 2026-12-01 is sent as 2026-12-01T00:00:00.000Z',
		async (timezone) => {
			setGlobalState({ defaultTimezone: timezone });
			const seen: SeenRequest[] = [];
			api()
				.post('/api/v1/invoices')
				.reply(logging(seen, 200, { id: 'inv_1' }));
			await run({ ...base, date: '2026-12-01', dueDate: '2026-12-31' });
			expect(seen[0].body).toMatchObject({
				date: '2026-12-01T00:00:00.000Z',
				dueDate: '2026-12-31T00:00:00.000Z',
			});
		},
	);

	it('values with a time keep being read in the workflow time zone (Auckland is UTC+13 in December)', async () => {
		setGlobalState({ defaultTimezone: 'Pacific/Auckland' });
		const seen: SeenRequest[] = [];
		api()
			.post('/api/v1/invoices')
			.reply(logging(seen, 200, { id: 'inv_1' }));
		await run({ ...base, date: '2026-12-01T09:00:00', dueDate: '2026-12-01T09:00:00Z' });
		expect(seen[0].body).toMatchObject({
			date: '2026-11-30T20:00:00.000Z',
			dueDate: '2026-12-01T09:00:00.000Z',
		});
	});

	it('a deal expected close date alone is that date too', async () => {
		setGlobalState({ defaultTimezone: 'Europe/Berlin' });
		const seen: SeenRequest[] = [];
		api()
			.post('/api/v1/deals')
			.reply(logging(seen, 200, { id: 'deal_1' }));
		await run({
			resource: 'deal',
			operation: 'create',
			title: 'T',
			pipelineId: 'pip_1',
			stageId: 'stg_1',
			clientId: 'cli_1',
			additionalFields: { expectedCloseDate: '2026-12-01' },
		});
		expect(seen[0].body).toMatchObject({ expectedCloseDate: '2026-12-01T00:00:00.000Z' });
	});
});

describe('ID fields accept numbers from expressions and send them as strings', () => {
	const item = { json: { n: 42 } };

	it('lead create and update: sourceId, stageId', async () => {
		const seen: SeenRequest[] = [];
		api()
			.post('/api/v1/leads')
			.reply(logging(seen, 200, lead('lead_1')))
			.patch('/api/v1/leads/7')
			.reply(logging(seen, 200, lead('7')));
		await run(
			{
				resource: 'lead',
				operation: 'create',
				name: 'Jane',
				additionalFields: { sourceId: '={{ $json.n }}', stageId: '={{ $json.n + 1 }}' },
			},
			{ items: [item] },
		);
		await run(
			{
				resource: 'lead',
				operation: 'update',
				leadId: byId('={{ 7 }}'),
				updateFields: { stageId: '={{ $json.n }}' },
			},
			{ items: [item] },
		);
		expect(seen.map((request) => request.body)).toEqual([
			{ name: 'Jane', sourceId: '42', stageId: '43' },
			{ stageId: '42' },
		]);
	});

	it('deal create: pipelineId, stageId, clientId, leadId, sourceId', async () => {
		const seen: SeenRequest[] = [];
		api()
			.post('/api/v1/deals')
			.reply(logging(seen, 200, { id: 'deal_1' }));
		await run(
			{
				resource: 'deal',
				operation: 'create',
				title: 'T',
				pipelineId: '={{ $json.n }}',
				stageId: '={{ $json.n }}',
				clientId: '={{ $json.n }}',
				additionalFields: { leadId: byId('={{ $json.n }}'), sourceId: '={{ $json.n }}' },
			},
			{ items: [item] },
		);
		expect(seen[0].body).toEqual({
			title: 'T',
			pipelineId: '42',
			stageId: '42',
			clientId: '42',
			leadId: '42',
			sourceId: '42',
		});
	});

	it('invoice create: clientId, contactId, templateId, salesPersonId, line productId as text, taxRateId', async () => {
		const seen: SeenRequest[] = [];
		api()
			.post('/api/v1/invoices')
			.reply(logging(seen, 200, { id: 'inv_1' }));
		await run(
			{
				resource: 'invoice',
				operation: 'create',
				clientId: '={{ $json.n }}',
				date: '2026-03-01',
				dueDate: '2026-03-31',
				lineItems: { items: [{ name: 'A', quantity: 1, price: 1, taxRateId: '={{ $json.n }}' }] },
				additionalFields: {
					contactId: '={{ $json.n }}',
					templateId: '={{ $json.n }}',
					salesPersonId: byId('={{ $json.n }}'),
				},
			},
			{ items: [item] },
		);
		expect(seen[0].body).toMatchObject({
			clientId: '42',
			contactId: '42',
			templateId: '42',
			salesPersonId: '42',
			lineItems: [{ name: 'A', quantity: 1, price: 1, taxRateId: '42' }],
		});
	});

	it('path IDs: lead get, deal update, client get, product get, webhook get', async () => {
		const scope = api()
			.get('/api/v1/leads/42')
			.reply(200, lead('42'))
			.patch('/api/v1/deals/42')
			.reply(200, { id: '42' })
			.get('/api/v1/clients/42')
			.reply(200, { id: '42' })
			.get('/api/v1/products/42')
			.reply(200, { id: '42' })
			.get('/api/v1/webhooks/42')
			.reply(200, { id: '42' });
		const id = '={{ $json.n }}';
		await run({ resource: 'lead', operation: 'get', leadId: byId(id) }, { items: [item] });
		await run(
			{ resource: 'deal', operation: 'update', dealId: id, updateFields: { title: 'T' } },
			{ items: [item] },
		);
		await run({ resource: 'client', operation: 'get', clientId: id }, { items: [item] });
		await run({ resource: 'product', operation: 'get', productId: id }, { items: [item] });
		await run({ resource: 'webhook', operation: 'get', webhookId: id }, { items: [item] });
		expect(scope.isDone()).toBe(true);
	});
});

describe('webhook subscription delete is idempotent across retries', () => {
	it('502, then 404 on the retry → deleted (the first attempt deleted it)', async () => {
		const seen: SeenRequest[] = [];
		const scope = api()
			.delete('/api/v1/webhooks/whk_1')
			.reply(logging(seen, 502, 'Bad Gateway'))
			.delete('/api/v1/webhooks/whk_1')
			.reply(logging(seen, 404, { message: 'Webhook whk_1 was not found' }));
		const output = await run({ resource: 'webhook', operation: 'delete', webhookId: 'whk_1' });
		expect(scope.isDone()).toBe(true);
		expect(seen).toHaveLength(2);
		expect(jsonOf(output)).toEqual([{ deleted: true, id: 'whk_1' }]);
	});

	it('a dropped connection, then 404 on the retry → deleted', async () => {
		const dropped = api()
			.delete('/api/v1/webhooks/whk_1')
			.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
		const answered = api()
			.delete('/api/v1/webhooks/whk_1')
			.reply(404, { error: { code: 'NOT_FOUND', message: 'Webhook whk_1 was not found' } });
		const output = await run({ resource: 'webhook', operation: 'delete', webhookId: 'whk_1' });
		expect(dropped.isDone()).toBe(true);
		expect(answered.isDone()).toBe(true);
		expect(jsonOf(output)).toEqual([{ deleted: true, id: 'whk_1' }]);
	});

	it('404 on the first attempt stays an error', async () => {
		api().delete('/api/v1/webhooks/whk_1').reply(404, { message: 'Webhook whk_1 was not found' });
		const error = await errorOf(
			run({ resource: 'webhook', operation: 'delete', webhookId: 'whk_1' }),
		);
		expect(error.message).toBe('The CRM API answered 404: Webhook whk_1 was not found');
	});

	it('a 429 then 404 stays an error: a 429 means the first attempt was not processed', async () => {
		api()
			.delete('/api/v1/webhooks/whk_1')
			.reply(429, {}, { 'retry-after': '0' })
			.delete('/api/v1/webhooks/whk_1')
			.reply(404, { message: 'Webhook whk_1 was not found' });
		const error = await errorOf(
			run({ resource: 'webhook', operation: 'delete', webhookId: 'whk_1' }),
		);
		expect(error.message).toBe('The CRM API answered 404: Webhook whk_1 was not found');
	});
});

describe('error bodies in the alternate shapes', () => {
	it('a plain-text 400 → its text is the API message, in the error and its advice', async () => {
		nock(BASE)
			.post('/api/v1/leads')
			.reply(400, 'name is required', { 'Content-Type': 'text/plain; charset=utf-8' });
		const error = await errorOf(run({ resource: 'lead', operation: 'create', name: 'Jane' }));
		expect(error.message).toBe('The CRM API answered 400: name is required');
		expect(error.description).toMatch(/The API rejected a value: "name is required"/);
	});

	it('a { message } 404 → the message', async () => {
		nock(BASE).get('/api/v1/leads/lead_x').reply(404, { message: 'Lead lead_x was not found' });
		const error = await errorOf(
			run({ resource: 'lead', operation: 'get', leadId: byId('lead_x') }),
		);
		expect(error.message).toBe('The CRM API answered 404: Lead lead_x was not found');
		expect(error.description).toMatch(/Nothing was found at GET \/api\/v1\/leads\/lead_x/);
	});
});

describe('user search: the spec does not name the parameter; a server may ignore it', () => {
	const users = [
		{ id: 'usr_1', firstName: 'Ada', lastName: 'Admin', email: 'ada.admin@example.com' },
		{ id: 'usr_2', firstName: 'Rita', lastName: 'Reader', email: 'rita.reader@example.com' },
		{ id: 'usr_3', firstName: 'José', lastName: 'Núñez', email: 'jose@example.com' },
	];

	it("standard reading (the server filters): one request, the server's answer", async () => {
		const scope = api()
			.get('/api/v1/users')
			.query({ limit: '50', search: 'rita' })
			.reply(200, { items: [users[1]], hasMore: false, nextCursor: null });
		const output = await run({
			resource: 'user',
			operation: 'getMany',
			filters: { search: 'rita' },
		});
		expect(scope.isDone()).toBe(true);
		expect(jsonOf(output).map((user) => user.id)).toEqual(['usr_2']);
	});

	it('alternate reading (the server ignores it): the node keeps only the matches, paging on until the limit', async () => {
		const scope = api()
			.get('/api/v1/users')
			.query({ limit: '2', search: 'nunez' })
			.reply(200, { items: users.slice(0, 2), hasMore: true, nextCursor: 'u2' })
			.get('/api/v1/users')
			.query({ limit: '2', search: 'nunez', cursor: 'u2' })
			.reply(200, { items: users.slice(2), hasMore: false, nextCursor: null });
		const output = await run({
			resource: 'user',
			operation: 'getMany',
			limit: 2,
			filters: { search: 'nunez' },
		});
		expect(scope.isDone()).toBe(true);
		expect(jsonOf(output).map((user) => user.id)).toEqual(['usr_3']);
	});

	it('full names match too ("ada admin")', async () => {
		api()
			.get('/api/v1/users')
			.query({ limit: '50', search: 'ada admin' })
			.reply(200, { items: users, hasMore: false, nextCursor: null });
		const output = await run({
			resource: 'user',
			operation: 'getMany',
			filters: { search: 'ada admin' },
		});
		expect(jsonOf(output).map((user) => user.id)).toEqual(['usr_1']);
	});
});

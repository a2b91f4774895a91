import type { IDataObject } from 'n8n-workflow';

import { api, expectValidationError, jsonOf, logging, records, run, useNock } from './support';
import { answer } from '../../helpers/actions';
import type { SeenRequest } from './support';

useNock();

const subscription = (id: string, extra: IDataObject = {}): IDataObject => ({
	id,
	name: 'Order sync',
	url: 'https://example.com/hook',
	events: ['lead.created'],
	status: 'ACTIVE',
	createdAt: '2026-01-01T00:00:00.000Z',
	...extra,
});

describe('webhook subscription: create', () => {
	it('POSTs name, url and the picked plus custom events (no duplicates), and shows the secret once', async () => {
		const seen: SeenRequest[] = [];
		const created = subscription('whk_1', {
			events: ['lead.created', 'deal.updated', 'invoice.overdue'],
			secret: 'whsec_abc',
		});
		const scope = api()
			.post('/api/v1/webhooks')
			.reply(logging(seen, 200, created));

		const output = await run({
			resource: 'webhook',
			operation: 'create',
			name: 'Order sync',
			url: 'https://example.com/hook',
			events: ['lead.created', 'deal.updated'],
			customEvents: ' invoice.overdue, lead.created ,',
		});

		expect(scope.isDone()).toBe(true);
		expect(seen).toEqual([
			{
				method: 'POST',
				path: '/api/v1/webhooks',
				body: {
					name: 'Order sync',
					url: 'https://example.com/hook',
					events: ['lead.created', 'deal.updated', 'invoice.overdue'],
				},
			},
		]);
		expect(output).toEqual([{ json: created, pairedItem: { item: 0 } }]);
		expect(output[0].json.secret).toBe('whsec_abc');
	});

	it('rejects a missing name, a URL that is not http(s) and no events before any request', async () => {
		const valid = {
			resource: 'webhook',
			operation: 'create',
			name: 'Sync',
			url: 'https://example.com/hook',
			events: ['lead.created'],
		};
		await expectValidationError(
			{ ...valid, name: '' },
			'"Name" is required but is empty in item 0',
		);
		await expectValidationError(
			{ ...valid, url: 'example.com/hook' },
			'"URL" must be an http:// or https:// address but is "example.com/hook" in item 0',
		);
		await expectValidationError(
			{ ...valid, events: [], customEvents: ' , ' },
			'"Events" needs at least one event in item 0',
		);
	});
});

describe('webhook subscription: get and get many', () => {
	it('Get never shows a secret, even when the API returns one', async () => {
		const scope = api()
			.get('/api/v1/webhooks/whk_1')
			.reply(200, subscription('whk_1', { secret: 'whsec_leak', previousSecret: 'whsec_old' }));

		const output = await run({ resource: 'webhook', operation: 'get', webhookId: 'whk_1' });

		expect(scope.isDone()).toBe(true);
		expect(output).toEqual([{ json: subscription('whk_1'), pairedItem: { item: 0 } }]);
		expect(output[0].json).not.toHaveProperty('secret');
	});

	it('Get Many pages with limit=100 on Return All, one item per subscription, secrets stripped', async () => {
		const first = records(100, 1, 'whk_').map((record) => ({ ...record, secret: 'whsec_x' }));
		const scope = api()
			.get('/api/v1/webhooks')
			.query({ limit: '100' })
			.reply(200, { items: first, hasMore: true, nextCursor: 'w2' })
			.get('/api/v1/webhooks')
			.query({ limit: '100', cursor: 'w2' })
			.reply(200, {
				items: [subscription('whk_101', { secret: 'whsec_y' })],
				hasMore: false,
				nextCursor: null,
			});

		const output = await run({ resource: 'webhook', operation: 'getMany', returnAll: true });

		expect(scope.isDone()).toBe(true);
		expect(output).toHaveLength(101);
		expect(output[0].json).toEqual({ id: 'whk_1' });
		expect(output[100].json).toEqual(subscription('whk_101'));
		expect(jsonOf(output).filter((json) => 'secret' in json)).toEqual([]);
	});

	it('Get Many with a Limit across a page boundary asks for the remainder only; empty gives no items', async () => {
		const scope = api()
			.get('/api/v1/webhooks')
			.query({ limit: '100' })
			.reply(200, { items: records(100, 1, 'whk_'), hasMore: true, nextCursor: 'w2' })
			.get('/api/v1/webhooks')
			.query({ limit: '2', cursor: 'w2' })
			.reply(200, { items: records(2, 101, 'whk_'), hasMore: true, nextCursor: 'w3' })
			.get('/api/v1/webhooks')
			.query({ limit: '50' })
			.reply(200, { items: [], hasMore: false, nextCursor: null });

		expect(await run({ resource: 'webhook', operation: 'getMany', limit: 102 })).toHaveLength(102);
		expect(await run({ resource: 'webhook', operation: 'getMany' })).toEqual([]);
		expect(scope.isDone()).toBe(true);
	});
});

describe('webhook subscription: delete', () => {
	it('DELETEs /webhooks/{id} and outputs { deleted: true, id } for every item', async () => {
		const seen = answer('delete', /\/api\/v1\/webhooks\/whk_\d$/, undefined, {
			status: 204,
			times: 2,
		});

		const output = await run(
			{ resource: 'webhook', operation: 'delete', webhookId: '={{ $json.id }}' },
			{ items: [{ json: { id: 'whk_1' } }, { json: { id: 'whk_2' } }] },
		);

		expect(seen.map((request) => `${request.method} ${request.path}`)).toEqual([
			'DELETE /api/v1/webhooks/whk_1',
			'DELETE /api/v1/webhooks/whk_2',
		]);
		expect(output).toEqual([
			{ json: { deleted: true, id: 'whk_1' }, pairedItem: { item: 0 } },
			{ json: { deleted: true, id: 'whk_2' }, pairedItem: { item: 1 } },
		]);
	});

	it('with Continue on Fail, a 404 is the error of its item', async () => {
		api()
			.delete('/api/v1/webhooks/whk_gone')
			.reply(404, { error: { code: 'NOT_FOUND', message: 'Subscription whk_gone was not found' } })
			.delete('/api/v1/webhooks/whk_2')
			.reply(200, {});

		const output = await run(
			{ resource: 'webhook', operation: 'delete', webhookId: '={{ $json.id }}' },
			{ items: [{ json: { id: 'whk_gone' } }, { json: { id: 'whk_2' } }], continueOnFail: true },
		);

		expect(output[0]).toMatchObject({ json: { httpCode: '404' }, pairedItem: { item: 0 } });
		expect(output[1]).toEqual({ json: { deleted: true, id: 'whk_2' }, pairedItem: { item: 1 } });
	});

	it('a 200 answered with an HTML page (a sign-in page) is an error, and nothing is reported as deleted', async () => {
		api()
			.delete('/api/v1/webhooks/whk_1')
			.reply(200, '<html><head><title>Sign in</title></head><body>Single sign-on</body></html>', {
				'Content-Type': 'text/html',
			});

		const output = await run(
			{ resource: 'webhook', operation: 'delete', webhookId: 'whk_1' },
			{ continueOnFail: true },
		);

		expect(output).toHaveLength(1);
		expect(output[0].json.deleted).toBeUndefined();
		expect(output[0].json).toMatchObject({
			httpCode: '200',
			error: expect.stringContaining('answered DELETE /api/v1/webhooks/whk_1 with 200 (text/html)'),
		});
		expect(String(output[0].json.error)).toContain('not an empty answer or a JSON object');
		expect(String(output[0].json.description)).toContain(
			'Check in the CRM whether the DELETE took effect',
		);
	});

	it('rejects an empty ID before any request', async () => {
		await expectValidationError(
			{ resource: 'webhook', operation: 'delete', webhookId: '' },
			'"Webhook Subscription ID" is required but is empty in item 0',
		);
	});
});

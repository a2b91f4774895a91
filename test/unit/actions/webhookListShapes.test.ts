/** Webhook Subscription → Get Many reads GET /webhooks in every list shape the node knows (issue 12, "Webhook lists"). */
import { api, jsonOf, run, useNock } from './support';

useNock();

const hook = (id: string) => ({
	id,
	name: `hook ${id}`,
	url: 'https://example.com/hook',
	events: ['lead.created'],
	secret: 'whsec_must_not_show',
});

describe('webhook subscription: Get Many in every known list shape', () => {
	it('a bare array is the whole list (secrets dropped); a Limit cuts it', async () => {
		api()
			.get('/api/v1/webhooks')
			.query(true)
			.times(2)
			.reply(200, [hook('whk_1'), hook('whk_2'), hook('whk_3')]);
		const all = await run({ resource: 'webhook', operation: 'getMany', returnAll: true });
		expect(jsonOf(all).map((json) => json.id)).toEqual(['whk_1', 'whk_2', 'whk_3']);
		expect(JSON.stringify(all)).not.toContain('whsec_');
		expect(await run({ resource: 'webhook', operation: 'getMany', limit: 2 })).toHaveLength(2);
	});

	it('a v2 envelope is followed through meta.nextCursor', async () => {
		const scope = api()
			.get('/api/v1/webhooks')
			.query({ limit: '100' })
			.reply(200, { data: [hook('whk_1')], meta: { nextCursor: 'p2', hasMore: true } })
			.get('/api/v1/webhooks')
			.query({ limit: '100', cursor: 'p2' })
			.reply(200, { data: [hook('whk_2')], meta: { nextCursor: null, hasMore: false } });
		const all = await run({ resource: 'webhook', operation: 'getMany', returnAll: true });
		expect(scope.isDone()).toBe(true);
		expect(jsonOf(all).map((json) => json.id)).toEqual(['whk_1', 'whk_2']);
	});

	it('an unknown shape is a clear error, not an empty list', async () => {
		api()
			.get('/api/v1/webhooks')
			.query(true)
			.reply(200, { subscriptions: [hook('whk_1')] });
		await expect(
			run({ resource: 'webhook', operation: 'getMany', returnAll: true }),
		).rejects.toThrow(
			'The CRM API answered GET /api/v1/webhooks with 200 (application/json) and an object with the keys subscriptions, not a list',
		);
	});

	it('a cursor that repeats stops with a clear error', async () => {
		api()
			.get('/api/v1/webhooks')
			.query(true)
			.times(2)
			.reply(200, { items: [hook('whk_1')], hasMore: true, nextCursor: 'same' });
		await expect(
			run({ resource: 'webhook', operation: 'getMany', returnAll: true }),
		).rejects.toThrow('did not advance: page 2 handed back a cursor it had already given ("same")');
	});
});

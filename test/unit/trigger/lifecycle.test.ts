import nock from 'nock';

import { useNock } from '../../helpers/nock';
import type { IDataObject } from 'n8n-workflow';

import { ownerTag } from '../../../nodes/CrmInvoicing/trigger/store';
import { loggedMessages, TEST_CREDENTIALS } from '../../helpers/harness';
import {
	API,
	earlierSubscription,
	expectNoUnansweredRequests,
	plain,
	PRODUCTION_URL,
	SECRET,
	secretParts,
	storedSubscription,
	tagFor,
	TEST_URL,
	triggerHooks,
	unwrapped,
} from './fixtures';

const LIST = '/api/v1/webhooks';
const ONE = (id: string) => `/api/v1/webhooks/${id}`;

function emptyList() {
	return nock(API)
		.get(LIST)
		.query(true)
		.reply(200, { items: [], hasMore: false, nextCursor: null });
}

useNock();
expectNoUnansweredRequests();
beforeEach(() => {
	loggedMessages.length = 0;
});
afterEach(() => {
	const pending = nock.pendingMocks();
	nock.cleanAll();
	expect(pending).toEqual([]);
});
afterAll(() => nock.enableNetConnect());

describe('create', () => {
	it('POSTs name, URL and events with the API key, and stores id, secret, URL and events', async () => {
		emptyList();
		let sent: IDataObject | undefined;
		const post = nock(API)
			.post(LIST, (body: IDataObject) => {
				sent = body;
				return true;
			})
			.matchHeader('x-api-key', TEST_CREDENTIALS.apiKey)
			.reply(200, {
				id: 'whk_1',
				name: 'n8n: Leads to Slack',
				url: PRODUCTION_URL,
				events: [],
				status: 'active',
				secret: SECRET,
			});
		const trigger = triggerHooks({});

		await expect(trigger.create()).resolves.toBe(true);

		post.done();
		expect(sent).toEqual({
			name: `n8n: Leads to Slack [n8n:${tagFor()}]`,
			url: PRODUCTION_URL,
			events: ['deal.stage_changed', 'lead.created'],
		});
		expect(plain(trigger.staticData)).toEqual({
			subscriptionId: 'whk_1',
			secretWrapped: expect.stringMatching(/^aes256gcm\.v1:/),
			subscriptionUrl: PRODUCTION_URL,
			subscriptionEvents: ['deal.stage_changed', 'lead.created'],
			ownerTag: tagFor(),
		});
		// Stored wrapped, never in clear: only the credential's key unwraps it.
		expect(unwrapped(trigger.staticData)).toBe(SECRET);
		const text = JSON.stringify(plain(trigger.staticData));
		for (const part of secretParts(SECRET)) expect(text).not.toContain(part);
	});

	it('adds custom event names (comma-separated, trimmed, once each) and uses the custom subscription name', async () => {
		emptyList();
		let sent: IDataObject | undefined;
		nock(API)
			.post(LIST, (body: IDataObject) => {
				sent = body;
				return true;
			})
			.reply(200, { id: 'whk_2', secret: SECRET });
		const trigger = triggerHooks({
			parameters: {
				events: ['lead.created'],
				options: {
					customEvents: ' invoice.overdue ,lead.created,, client.created ',
					subscriptionName: '  Sales alerts ',
				},
			},
		});

		await trigger.create();

		expect(sent).toEqual({
			name: `Sales alerts [n8n:${tagFor()}]`,
			url: PRODUCTION_URL,
			events: ['client.created', 'invoice.overdue', 'lead.created'],
		});
		expect(plain(trigger.staticData).subscriptionEvents).toEqual([
			'client.created',
			'invoice.overdue',
			'lead.created',
		]);
	});

	it('subscribes with custom events alone', async () => {
		emptyList();
		nock(API)
			.post(LIST, (body: IDataObject) => JSON.stringify(body.events) === '["x.y"]')
			.reply(200, { id: 'whk_3', secret: SECRET });
		await expect(
			triggerHooks({ parameters: { events: [], options: { customEvents: 'x.y' } } }).create(),
		).resolves.toBe(true);
	});

	it('uses the test URL while listening for a test event', async () => {
		emptyList();
		nock(API)
			.post(LIST, (body: IDataObject) => body.url === TEST_URL)
			.reply(200, { id: 'whk_test', secret: SECRET });
		const trigger = triggerHooks({ mode: 'manual', webhookUrl: TEST_URL });
		await trigger.create();
		expect(trigger.staticData.subscriptionUrl).toBe(TEST_URL);
	});

	it('throws a clear error, without calling the API, when no event is selected', async () => {
		const trigger = triggerHooks({ parameters: { events: [], options: { customEvents: ' , ' } } });
		await expect(trigger.create()).rejects.toThrow('Select at least one event to subscribe to');
		expect(plain(trigger.staticData)).toEqual({});
	});

	it('throws when the response has no id, and stores nothing', async () => {
		emptyList();
		nock(API).post(LIST).reply(200, { secret: SECRET });
		const trigger = triggerHooks({});
		const error = (await trigger.create().then(
			() => undefined,
			(caught: unknown) => caught,
		)) as Error;
		expect(error).toBeInstanceOf(Error);
		expect(error.message).toBe('The CRM API did not return an id for the new webhook subscription');
		expect(plain(trigger.staticData)).toEqual({});
		for (const part of secretParts(SECRET))
			expect(JSON.stringify({ ...error, message: error.message })).not.toContain(part);
	});

	it('throws when the response has no whsec_ secret, and deletes the subscription only when it is a new one of its own', async () => {
		emptyList();
		const answer = {
			id: 'whk_nosecret',
			name: `n8n: Leads [n8n:${tagFor()}]`,
			url: PRODUCTION_URL,
		};
		nock(API)
			.post(LIST)
			.reply(200, { ...answer, secret: 'not-a-whsec' });
		const removed = nock(API).delete(ONE('whk_nosecret')).reply(204);
		const trigger = triggerHooks({});
		await expect(trigger.create()).rejects.toThrow('did not return a signing secret');
		removed.done();
		expect(plain(trigger.staticData)).toEqual({});
	});

	it.each([
		['no name or URL', {}],
		['another URL', { name: `n8n: Leads [n8n:${tagFor()}]`, url: 'https://other.example.com/w' }],
		['no owner tag', { name: 'n8n: Leads', url: PRODUCTION_URL }],
		[
			'the stored subscription, at another URL',
			{ name: `x [n8n:${tagFor()}]`, url: PRODUCTION_URL },
		],
	])(
		'an answer without a secret naming %s: nothing is deleted, and the error names it',
		async (_case, shown) => {
			emptyList();
			const stored = _case.startsWith('the stored')
				? storedSubscription({
						subscriptionId: 'whk_seen',
						subscriptionUrl: 'https://old.example.com/w',
					})
				: {};
			nock(API)
				.post(LIST)
				.reply(200, { id: 'whk_seen', ...shown });
			const error = await triggerHooks({ staticData: stored })
				.create()
				.catch((caught: Error) => caught);
			expect((error as Error).message).toContain(
				'webhook subscription whk_seen, without a signing secret',
			);
		},
	);

	it('removes only its own leftovers at its own URL: never one elsewhere (named in a warning), hand-made, other-mode or other-instance', async () => {
		const ours = tagFor('manual');
		nock(API)
			.get(LIST)
			.query({ limit: '100' })
			.reply(200, {
				items: [
					{
						id: 'whk_old',
						name: `n8n: Leads to Slack [n8n:${ours}]`,
						url: TEST_URL,
						events: ['lead.created'],
					},
					{ id: 'whk_hand', name: 'Made by hand', url: TEST_URL, events: ['lead.created'] },
					{
						id: 'whk_prod',
						name: `n8n: Leads to Slack [n8n:${tagFor('trigger')}]`,
						url: PRODUCTION_URL,
					},
					{
						id: 'whk_staging',
						name: `n8n: Leads [n8n:${tagFor('manual', { instanceId: 'staging' })}]`,
						url: TEST_URL,
					},
				],
				hasMore: true,
				nextCursor: 'c2',
			})
			.get(LIST)
			.query({ limit: '100', cursor: 'c2' })
			.reply(200, {
				items: [
					{
						id: 'whk_elsewhere',
						name: `old tunnel [n8n:${ours}]`,
						url: 'https://old-tunnel.example.com/webhook-test/x/webhook',
					},
				],
				hasMore: false,
				nextCursor: null,
			});
		const removedOld = nock(API).delete(ONE('whk_old')).reply(204);
		nock(API).post(LIST).reply(200, { id: 'whk_new', secret: SECRET });

		const trigger = triggerHooks({ mode: 'manual', webhookUrl: TEST_URL });
		await expect(trigger.create()).resolves.toBe(true);

		removedOld.done();
		// The one at another URL: no request to it (afterEach), no DELETE (none is mocked), and a warning names it.
		const warned = loggedMessages
			.filter((entry) => entry.level === 'warn')
			.map((entry) => entry.message);
		expect(warned).toEqual([expect.stringContaining('kept webhook subscription whk_elsewhere')]);
		expect(warned[0]).toContain('Webhook Subscription → Delete, ID whk_elsewhere');
		expect(trigger.staticData.subscriptionId).toBe('whk_new');
		expect(trigger.staticData.ownerTag).toBe(ours);
	});

	it.each([
		[
			'a bare array',
			() => [
				{ id: 'whk_old', name: `x [n8n:${tagFor()}]`, url: PRODUCTION_URL },
				{ id: 'whk_hand', name: 'hand-made', url: PRODUCTION_URL },
			],
		],
	])('reads the leftover list from %s', async (_shape, body) => {
		nock(API).get(LIST).query(true).reply(200, body());
		const removed = nock(API).delete(ONE('whk_old')).reply(204);
		nock(API).post(LIST).reply(200, { id: 'whk_new', secret: SECRET });
		await expect(triggerHooks({}).create()).resolves.toBe(true);
		removed.done();
	});

	it('reads the leftover list from a v2 envelope, following meta.nextCursor', async () => {
		nock(API)
			.get(LIST)
			.query({ limit: '100' })
			.reply(200, {
				data: [{ id: 'whk_hand', name: 'hand-made' }],
				meta: { nextCursor: 'p2', hasMore: true },
			})
			.get(LIST)
			.query({ limit: '100', cursor: 'p2' })
			.reply(200, {
				data: [{ id: 'whk_old', name: `x [n8n:${tagFor()}]`, url: PRODUCTION_URL }],
				meta: { nextCursor: null, hasMore: false },
			});
		const removed = nock(API).delete(ONE('whk_old')).reply(204);
		nock(API).post(LIST).reply(200, { id: 'whk_new', secret: SECRET });
		await expect(triggerHooks({}).create()).resolves.toBe(true);
		removed.done();
	});

	it.each([
		[
			'an unknown list shape',
			{ subscriptions: [] },
			'and an object with the keys subscriptions, not a list',
		],
		[
			'a repeating cursor',
			{ items: [{ id: 'whk_hand', name: 'hand-made' }], hasMore: true, nextCursor: 'same' },
			'handed back a cursor it had already given',
		],
	])('logs %s as a warning, deletes nothing and still subscribes', async (_case, body, message) => {
		nock(API).get(LIST).query(true).times(2).reply(200, body);
		nock(API).post(LIST).reply(200, { id: 'whk_new', secret: SECRET });
		await expect(triggerHooks({}).create()).resolves.toBe(true);
		expect(
			loggedMessages.some((entry) => entry.level === 'warn' && entry.message.includes(message)),
		).toBe(true);
	});

	it('still subscribes when the leftover sweep cannot list subscriptions', async () => {
		nock(API)
			.get(LIST)
			.query(true)
			.reply(403, { error: { code: 'FORBIDDEN', message: 'no' } });
		nock(API).post(LIST).reply(200, { id: 'whk_1', secret: SECRET });
		const trigger = triggerHooks({});
		await expect(trigger.create()).resolves.toBe(true);
		expect(
			loggedMessages.some(
				(entry) => entry.level === 'warn' && entry.message.includes('could not list'),
			),
		).toBe(true);
	});

	it('says which event names the API refused (400) when undocumented names were asked for, and stores nothing', async () => {
		emptyList();
		nock(API)
			.post(LIST)
			.reply(400, { error: { code: 'VALIDATION_ERROR', message: 'unknown event invoice.paid' } });
		const trigger = triggerHooks({
			parameters: { events: ['lead.created', 'invoice.paid', 'deal.updated'] },
		});
		await expect(trigger.create()).rejects.toThrow(
			"The API refused the event names invoice.paid (400 VALIDATION_ERROR: unknown event invoice.paid). The API's documentation names only lead.created.",
		);
		expect(plain(trigger.staticData)).toEqual({});
	});

	it('names every undocumented event when the 400 does not say which', async () => {
		emptyList();
		nock(API).post(LIST).reply(400, 'Bad Request', { 'content-type': 'text/plain' });
		const trigger = triggerHooks({
			parameters: {
				events: ['lead.created', 'deal.updated'],
				options: { customEvents: 'client.created' },
			},
		});
		const error = (await trigger.create().catch((caught: unknown) => caught)) as Error;
		expect(error.message).toMatch(
			/^The API refused the event names client\.created, deal\.updated \(400\b.*\)\. The API's documentation names only lead\.created\.$/,
		);
	});

	it('keeps the API error as it is for a 400 when only documented names were asked for', async () => {
		emptyList();
		nock(API)
			.post(LIST)
			.reply(400, { error: { code: 'VALIDATION_ERROR', message: 'url is invalid' } });
		await expect(
			triggerHooks({ parameters: { events: ['lead.created'] } }).create(),
		).rejects.toMatchObject({
			name: 'NodeApiError',
			message: expect.stringContaining('url is invalid'),
		});
	});

	it('surfaces an API error from POST /webhooks as NodeApiError', async () => {
		emptyList();
		nock(API)
			.post(LIST)
			.reply(422, {
				error: { code: 'VALIDATION', message: 'url must be a valid http or https URL' },
			});
		const trigger = triggerHooks({});
		await expect(trigger.create()).rejects.toMatchObject({
			name: 'NodeApiError',
			message: expect.stringContaining('url must be a valid http or https URL'),
		});
		expect(plain(trigger.staticData)).toEqual({});
	});
});

describe('checkExists', () => {
	/**
	 * What follows a false at this node's URL: checkExists deleted nothing and kept the stored subscription; create
	 * POSTs the new one, stores it, and only then DELETEs the old one (issue 29: n8n 1.x runs checkExists at every
	 * start-up, and a failed POST after a delete would leave the trigger deaf).
	 */
	async function replacedByCreate(
		trigger: ReturnType<typeof triggerHooks>,
		deleteReply: [number, IDataObject?] = [204],
	) {
		expect(trigger.staticData.subscriptionId).toBe('whk_1');
		const order: string[] = [];
		const crm = nock(API)
			.post(LIST)
			.reply(() => (order.push('POST'), [200, { id: 'whk_2', secret: SECRET }]))
			.delete(ONE('whk_1'))
			.reply(() => (order.push('DELETE'), deleteReply))
			.get(LIST)
			.query(true)
			.reply(200, []);
		await expect(trigger.create()).resolves.toBe(true);
		crm.done();
		expect(order).toEqual(['POST', 'DELETE']);
		expect(trigger.staticData.subscriptionId).toBe('whk_2');
	}

	it('is false without a stored subscription, and calls nothing', async () => {
		await expect(triggerHooks({}).checkExists()).resolves.toBe(false);
	});

	it('is true when the subscription exists with the same URL and events (in any order), and changes nothing', async () => {
		const get = nock(API)
			.get(ONE('whk_1'))
			.matchHeader('x-api-key', TEST_CREDENTIALS.apiKey)
			.reply(200, {
				id: 'whk_1',
				url: PRODUCTION_URL,
				events: ['lead.created', 'deal.stage_changed'],
				status: 'active',
			});
		const stored = storedSubscription();
		const trigger = triggerHooks({ staticData: stored });
		await expect(trigger.checkExists()).resolves.toBe(true);
		get.done();
		expect(plain(trigger.staticData)).toEqual(plain(stored));
		expect(unwrapped(trigger.staticData)).toBe(SECRET);
	});

	it('is false on 404, and clears the stored data', async () => {
		nock(API)
			.get(ONE('whk_1'))
			.reply(404, { error: { code: 'NOT_FOUND', message: 'Webhook whk_1 was not found' } });
		const trigger = triggerHooks({ staticData: storedSubscription({ recentDeliveries: ['abc'] }) });
		await expect(trigger.checkExists()).resolves.toBe(false);
		expect(plain(trigger.staticData)).toEqual({});
	});

	it('a 0.2 subscription (clear secret) at another URL is retired, its clear secret dropped, never kept', async () => {
		nock(API)
			.get(ONE('whk_1'))
			.reply(200, {
				id: 'whk_1',
				url: PRODUCTION_URL,
				events: ['deal.stage_changed', 'lead.created'],
			});
		const trigger = triggerHooks({
			staticData: earlierSubscription('0.2'),
			webhookUrl: 'https://new-host.example.com/webhook/x/webhook',
		});
		await expect(trigger.checkExists()).resolves.toBe(false);
		const state = plain(trigger.staticData);
		expect(JSON.stringify(state)).not.toContain(SECRET.slice('whsec_'.length));
		expect(state.retiredSubscriptions).toEqual([{ id: 'whk_1', url: PRODUCTION_URL }]);
	});

	it('is false when the URL changed (a new WEBHOOK_URL, a restored copy): the subscription at the other URL is kept, retired and named', async () => {
		nock(API)
			.get(ONE('whk_1'))
			.reply(200, {
				id: 'whk_1',
				url: PRODUCTION_URL,
				events: ['deal.stage_changed', 'lead.created'],
			});
		const stored = storedSubscription();
		const { secretWrapped } = stored;
		const trigger = triggerHooks({
			staticData: stored,
			webhookUrl: 'https://new-host.example.com/webhook/x/webhook',
		});
		await expect(trigger.checkExists()).resolves.toBe(false);
		// No DELETE (none is mocked), no request to the old URL (afterEach).
		expect(plain(trigger.staticData)).toEqual({
			retiredSubscriptions: [{ id: 'whk_1', url: PRODUCTION_URL, secretWrapped }],
		});
		// create follows (checkExists said false): its sweep finds it and names it, once.
		nock(API)
			.get(LIST)
			.query(true)
			.reply(200, [
				{ id: 'whk_1', name: `n8n: Leads to Slack [n8n:${tagFor()}]`, url: PRODUCTION_URL },
			])
			.post(LIST)
			.reply(200, { id: 'whk_2', secret: SECRET });
		await expect(trigger.create()).resolves.toBe(true);
		const warned = loggedMessages
			.filter((entry) => entry.level === 'warn')
			.map((entry) => entry.message);
		expect(warned).toEqual([
			expect.stringContaining(
				`kept webhook subscription whk_1, which carries this trigger's owner tag but delivers to ${PRODUCTION_URL}`,
			),
		]);
		expect(warned[0]).toContain('its deliveries that reach this node are answered 410');
	});

	it('is false when the events changed; create replaces the stale subscription, deleting it last (a 404 on delete is fine)', async () => {
		nock(API)
			.get(ONE('whk_1'))
			.reply(200, {
				id: 'whk_1',
				url: PRODUCTION_URL,
				events: ['lead.created', 'deal.stage_changed'],
			});
		const trigger = triggerHooks({
			staticData: storedSubscription(),
			parameters: { events: ['lead.created'] },
		});
		await expect(trigger.checkExists()).resolves.toBe(false);
		await replacedByCreate(trigger, [404, { error: { code: 'NOT_FOUND', message: 'gone' } }]);
	});

	it('counts custom events as selected events', async () => {
		nock(API)
			.get(ONE('whk_1'))
			.reply(200, { id: 'whk_1', url: PRODUCTION_URL, events: ['lead.created', 'x.y'] });
		const trigger = triggerHooks({
			staticData: storedSubscription({ subscriptionEvents: ['lead.created', 'x.y'] }),
			parameters: { events: ['lead.created'], options: { customEvents: 'x.y' } },
		});
		await expect(trigger.checkExists()).resolves.toBe(true);
	});

	it('is false when the API disabled the subscription', async () => {
		nock(API)
			.get(ONE('whk_1'))
			.reply(200, {
				id: 'whk_1',
				url: PRODUCTION_URL,
				events: ['deal.stage_changed', 'lead.created'],
				status: 'disabled',
			});
		const trigger = triggerHooks({ staticData: storedSubscription() });
		await expect(trigger.checkExists()).resolves.toBe(false);
		await replacedByCreate(trigger);
	});

	it('is false when the secret was lost; create replaces the subscription it cannot verify, deleting it last', async () => {
		nock(API)
			.get(ONE('whk_1'))
			.reply(200, {
				id: 'whk_1',
				url: PRODUCTION_URL,
				events: ['deal.stage_changed', 'lead.created'],
			});
		const trigger = triggerHooks({ staticData: storedSubscription({ secretWrapped: undefined }) });
		await expect(trigger.checkExists()).resolves.toBe(false);
		await replacedByCreate(trigger);
	});

	it('falls back to the stored URL and events when the API does not return them', async () => {
		nock(API).get(ONE('whk_1')).reply(200, { id: 'whk_1' });
		await expect(triggerHooks({ staticData: storedSubscription() }).checkExists()).resolves.toBe(
			true,
		);
	});

	it('throws other API errors and keeps the stored data', async () => {
		nock(API)
			.get(ONE('whk_1'))
			.reply(403, { error: { code: 'FORBIDDEN', message: 'not allowed' } });
		const stored = storedSubscription();
		const trigger = triggerHooks({ staticData: stored });
		await expect(trigger.checkExists()).rejects.toMatchObject({ name: 'NodeApiError' });
		expect(plain(trigger.staticData)).toEqual(plain(stored));
	});
});

describe('delete', () => {
	it('DELETEs the subscription, clears the stored data and returns true', async () => {
		const removed = nock(API)
			.delete(ONE('whk_1'))
			.matchHeader('x-api-key', TEST_CREDENTIALS.apiKey)
			.reply(204);
		const trigger = triggerHooks({ staticData: storedSubscription({ recentDeliveries: ['abc'] }) });
		await expect(trigger.delete()).resolves.toBe(true);
		removed.done();
		expect(plain(trigger.staticData)).toEqual({});
	});

	it('counts a 404 as already deleted', async () => {
		nock(API)
			.delete(ONE('whk_1'))
			.reply(404, { error: { code: 'NOT_FOUND', message: 'gone' } });
		const trigger = triggerHooks({ staticData: storedSubscription() });
		await expect(trigger.delete()).resolves.toBe(true);
		expect(plain(trigger.staticData)).toEqual({});
	});

	it('returns true without a call when nothing is stored', async () => {
		await expect(triggerHooks({}).delete()).resolves.toBe(true);
	});

	it('keeps the stored subscription when the API refuses, so the next activation reuses or replaces it', async () => {
		nock(API)
			.delete(ONE('whk_1'))
			.reply(403, { error: { code: 'FORBIDDEN', message: 'not allowed' } });
		const stored = storedSubscription();
		const trigger = triggerHooks({ staticData: stored });
		await expect(trigger.delete()).resolves.toBe(false);
		expect(plain(trigger.staticData)).toEqual(plain(stored));
		expect(
			loggedMessages.some((entry) => entry.level === 'warn' && entry.message.includes('whk_1')),
		).toBe(true);
		for (const entry of loggedMessages)
			for (const part of secretParts(SECRET)) expect(JSON.stringify(entry)).not.toContain(part);
	});

	it('a 200 answered with an HTML page is not a deletion: the subscription is kept and the warning says why', async () => {
		nock(API).delete(ONE('whk_1')).reply(200, '<!DOCTYPE html><html><body>Sign in</body></html>', {
			'Content-Type': 'text/html',
		});
		const stored = storedSubscription();
		const trigger = triggerHooks({ staticData: stored });
		await expect(trigger.delete()).resolves.toBe(false);
		expect(plain(trigger.staticData)).toEqual(plain(stored));
		const warned = loggedMessages
			.filter((entry) => entry.level === 'warn')
			.map((entry) => entry.message);
		expect(warned).toEqual([
			expect.stringContaining('could not delete webhook subscription whk_1; it is kept'),
		]);
		expect(warned[0]).toContain('with 200 (text/html)');
		expect(loggedMessages.some((entry) => /deleted/.test(entry.message))).toBe(false);
	});

	it("never deletes a subscription stored for another URL (a restored copy's data names production's): kept, retired, named", async () => {
		const stored = storedSubscription();
		const { secretWrapped } = stored;
		const trigger = triggerHooks({
			staticData: stored,
			webhookUrl: 'https://staging.example.com/webhook/x/webhook',
		});
		await expect(trigger.delete()).resolves.toBe(true);
		expect(plain(trigger.staticData)).toEqual({
			retiredSubscriptions: [{ id: 'whk_1', url: PRODUCTION_URL, secretWrapped }],
		});
		expect(loggedMessages.map((entry) => entry.message).join('\n')).toContain(
			'kept webhook subscription whk_1',
		);
	});
});

/**
 * A fake CRM API on nock that keeps subscriptions, so whole lifecycles can be checked for orphans:
 * what n8n does on "Listen for test event", activation, restart, deactivation and reactivation.
 */
describe('lifecycles leave no orphan subscription', () => {
	let store: Map<
		string,
		{ id: string; name: string; url: string; events: string[]; status: string }
	>;
	let counter: number;

	beforeEach(() => {
		store = new Map();
		counter = 0;
		nock(API)
			.persist()
			.post(LIST)
			.reply((_uri, body) => {
				const { name, url, events } = body as { name: string; url: string; events: string[] };
				const id = `whk_${++counter}`;
				store.set(id, { id, name, url, events, status: 'active' });
				return [
					200,
					{
						...store.get(id),
						secret: `whsec_${Buffer.from(`secret-${id}-0123456789`).toString('base64')}`,
					},
				];
			})
			.get(LIST)
			.query(true)
			.reply(() => [200, { items: [...store.values()], hasMore: false, nextCursor: null }])
			.get(/\/api\/v1\/webhooks\/[^/]+$/)
			.reply((uri) => {
				const subscription = store.get(uri.split('/').pop()!);
				return subscription
					? [200, subscription]
					: [404, { error: { code: 'NOT_FOUND', message: 'not found' } }];
			})
			.delete(/\/api\/v1\/webhooks\/[^/]+$/)
			.reply((uri) =>
				store.delete(uri.split('/').pop()!)
					? [204, '']
					: [404, { error: { code: 'NOT_FOUND', message: 'not found' } }],
			);
	});

	afterEach(() => nock.cleanAll());

	/** What n8n's WebhookService.createWebhookIfNotExists does. */
	async function activate(trigger: ReturnType<typeof triggerHooks>) {
		if (!(await trigger.checkExists())) await trigger.create();
	}

	it('test listening, activation, restart, deactivation and reactivation', async () => {
		// Listen for test event: n8n starts the test static data empty, then deletes after the event or timeout.
		const testStatic: IDataObject = {};
		await activate(triggerHooks({ mode: 'manual', webhookUrl: TEST_URL, staticData: testStatic }));
		expect([...store.values()].map((s) => s.url)).toEqual([TEST_URL]);
		await triggerHooks({ mode: 'manual', webhookUrl: TEST_URL, staticData: testStatic }).delete();
		expect(store.size).toBe(0);

		// Activation with the production URL.
		const production: IDataObject = {};
		await activate(triggerHooks({ staticData: production }));
		expect([...store.values()].map((s) => s.url)).toEqual([PRODUCTION_URL]);
		const firstId = production.subscriptionId;

		// n8n restarts: the saved static data comes back, the subscription is reused.
		await activate(
			triggerHooks({ staticData: JSON.parse(JSON.stringify(production)) as IDataObject }),
		);
		expect([...store.keys()]).toEqual([firstId]);

		// The user changes the events of the active workflow: replaced, not added.
		await activate(
			triggerHooks({ staticData: production, parameters: { events: ['invoice.paid'] } }),
		);
		expect(store.size).toBe(1);
		expect([...store.values()][0].events).toEqual(['invoice.paid']);

		// Deactivation.
		await triggerHooks({ staticData: production }).delete();
		expect(store.size).toBe(0);
		expect(plain(production)).toEqual({});

		// Reactivation.
		await activate(triggerHooks({ staticData: production }));
		expect(store.size).toBe(1);
	});

	it('n8n stopped while listening for a test event: the next listen removes the leftover', async () => {
		await activate(triggerHooks({ mode: 'manual', webhookUrl: TEST_URL, staticData: {} }));
		// The test static data is lost with the process; n8n starts the next listen with empty static data.
		await activate(triggerHooks({ mode: 'manual', webhookUrl: TEST_URL, staticData: {} }));
		expect([...store.values()].map((s) => s.url)).toEqual([TEST_URL]);
	});

	it('test listening while the workflow is active leaves the production subscription alone', async () => {
		const production: IDataObject = {};
		await activate(triggerHooks({ staticData: production }));
		const testStatic: IDataObject = {};
		await activate(triggerHooks({ mode: 'manual', webhookUrl: TEST_URL, staticData: testStatic }));
		expect(store.size).toBe(2);
		await triggerHooks({ mode: 'manual', webhookUrl: TEST_URL, staticData: testStatic }).delete();
		expect([...store.values()].map((s) => s.url)).toEqual([PRODUCTION_URL]);
		await expect(triggerHooks({ staticData: production }).checkExists()).resolves.toBe(true);
	});

	it('the subscription was deleted in the CRM meanwhile: reactivation creates a new one', async () => {
		const production: IDataObject = {};
		await activate(triggerHooks({ staticData: production }));
		store.clear();
		await activate(triggerHooks({ staticData: production }));
		expect(store.size).toBe(1);
		expect(store.has(String(production.subscriptionId))).toBe(true);
	});
});

/** The issue's cases of "never delete what is not ours", on the same fake CRM API that keeps subscriptions. */
describe('ownership: only subscriptions this trigger can prove it created are deleted', () => {
	let store: Map<
		string,
		{ id: string; name: string; url: string; events: string[]; status: string }
	>;
	let counter: number;
	let deleted: string[];

	beforeEach(() => {
		store = new Map();
		counter = 0;
		deleted = [];
		nock(API)
			.persist()
			.post(LIST)
			.reply((_uri, body) => {
				const { name, url, events } = body as { name: string; url: string; events: string[] };
				const id = `whk_${++counter}`;
				store.set(id, { id, name, url, events, status: 'active' });
				return [
					200,
					{
						...store.get(id),
						secret: `whsec_${Buffer.from(`secret-${id}-0123456789`).toString('base64')}`,
					},
				];
			})
			.get(LIST)
			.query(true)
			.reply(() => [200, [...store.values()]])
			.get(/\/api\/v1\/webhooks\/[^/]+$/)
			.reply((uri) => {
				const subscription = store.get(uri.split('/').pop()!);
				return subscription
					? [200, subscription]
					: [404, { error: { code: 'NOT_FOUND', message: 'not found' } }];
			})
			.delete(/\/api\/v1\/webhooks\/[^/]+$/)
			.reply((uri) => {
				const id = uri.split('/').pop()!;
				deleted.push(id);
				return store.delete(id)
					? [204, '']
					: [404, { error: { code: 'NOT_FOUND', message: 'not found' } }];
			});
	});

	afterEach(() => nock.cleanAll());

	async function activate(trigger: ReturnType<typeof triggerHooks>) {
		if (!(await trigger.checkExists())) await trigger.create();
	}

	function add(id: string, name: string, url: string) {
		store.set(id, {
			id,
			name,
			url,
			events: ['deal.stage_changed', 'lead.created'],
			status: 'active',
		});
	}

	it('the tag is built from the instance id n8n gives the node (getInstanceId), the workflow, the node and the mode', () => {
		expect(ownerTag(triggerHooks({}).context)).toBe(tagFor());
		const tags = new Set([
			tagFor(),
			tagFor('manual'),
			tagFor('trigger', { instanceId: 'other' }),
			tagFor('trigger', { workflowId: 'other' }),
			tagFor('trigger', { nodeId: 'other' }),
		]);
		expect(tags.size).toBe(5);
		for (const tag of tags) expect(tag).toMatch(/^[A-Za-z0-9_-]{16}$/);
	});

	it("an imported workflow (static data of another n8n instance) leaves that instance's subscription alone", async () => {
		// Production's n8n created whk_prod; the workflow was exported with its static data and imported here.
		const production = triggerHooks({ instanceId: 'production-instance', staticData: {} });
		await activate(production);
		const productionId = String(production.staticData.subscriptionId);
		const imported = JSON.parse(JSON.stringify(production.staticData)) as IDataObject;

		const staging = triggerHooks({
			staticData: imported,
			webhookUrl: 'https://staging.example.com/webhook/x/webhook',
		});
		await activate(staging);

		expect(deleted).toEqual([]);
		expect(store.has(productionId)).toBe(true);
		expect(store.size).toBe(2);
		expect(staging.staticData.subscriptionId).not.toBe(productionId);
		expect(staging.staticData.ownerTag).toBe(tagFor());
		expect(
			loggedMessages.some((entry) =>
				entry.message.includes(`left webhook subscription ${productionId} alone`),
			),
		).toBe(true);

		// Deactivating in staging deletes staging's, not production's.
		await staging.delete();
		expect([...store.keys()]).toEqual([productionId]);
	});

	it('deactivating a workflow whose static data came from another instance deletes nothing', async () => {
		add(
			'whk_prod',
			`n8n: Leads [n8n:${tagFor('trigger', { instanceId: 'production-instance' })}]`,
			PRODUCTION_URL,
		);
		const imported = storedSubscription({
			subscriptionId: 'whk_prod',
			ownerTag: tagFor('trigger', { instanceId: 'production-instance' }),
		});
		await expect(triggerHooks({ staticData: imported }).delete()).resolves.toBe(true);
		expect(deleted).toEqual([]);
	});

	it("leaves a hand-made subscription (even at its own URL) and another workflow's trigger alone", async () => {
		add('whk_hand', 'Made by hand in the CRM', PRODUCTION_URL);
		const other = triggerHooks({
			workflowId: 'other-workflow',
			staticData: {},
			webhookUrl: 'https://n8n.example.com/webhook/other/webhook',
		});
		await activate(other);
		const otherId = String(other.staticData.subscriptionId);

		const mine = triggerHooks({ staticData: {} });
		await activate(mine);
		await activate(triggerHooks({ staticData: {} })); // static data lost: re-subscribes, sweeps its own leftover only

		expect(deleted).toEqual([String(mine.staticData.subscriptionId)]);
		expect(store.has('whk_hand')).toBe(true);
		expect(store.has(otherId)).toBe(true);
		expect(store.size).toBe(3);
	});

	it('a stored id whose subscription now carries another tag (re-used or renamed) is not deleted', async () => {
		add('whk_x', `someone else [n8n:${tagFor('trigger', { workflowId: 'x' })}]`, PRODUCTION_URL);
		await activate(triggerHooks({ staticData: storedSubscription({ subscriptionId: 'whk_x' }) }));
		expect(deleted).toEqual([]);
		expect(store.size).toBe(2);
	});

	it("n8n's URL changed (WEBHOOK_URL, tunnel): it subscribes at the new URL and deletes nothing; its subscriptions elsewhere are kept and named", async () => {
		const production: IDataObject = {};
		await activate(triggerHooks({ staticData: production }));
		const oldId = String(production.subscriptionId);
		add('whk_hand', 'Made by hand', PRODUCTION_URL);
		add(
			'whk_other',
			`n8n: other [n8n:${tagFor('trigger', { workflowId: 'other' })}]`,
			'https://n8n.example.com/webhook/o/webhook',
		);
		// A leftover of this trigger at an even older URL (its delete failed back then).
		add(
			'whk_older',
			`n8n: Leads to Slack [n8n:${tagFor()}]`,
			'https://older.example.com/webhook/x/webhook',
		);

		const NEW_URL =
			'https://new-tunnel.example.com/webhook/c0ffee00-0000-4000-8000-0000000000aa/webhook';
		await activate(triggerHooks({ staticData: production, webhookUrl: NEW_URL }));

		expect(deleted).toEqual([]);
		const mine = [...store.values()].filter((s) => s.name.endsWith(`[n8n:${tagFor()}]`));
		expect(mine.map((s) => s.url).sort()).toEqual(
			[PRODUCTION_URL, 'https://older.example.com/webhook/x/webhook', NEW_URL].sort(),
		);
		expect(production.subscriptionId).toBe(mine.find((s) => s.url === NEW_URL)?.id);
		// The one it held is retired (a delivery through it that reaches this node is answered 410).
		expect((production.retiredSubscriptions as IDataObject[]).map((entry) => entry.id)).toEqual([
			oldId,
		]);
		const warned = loggedMessages
			.filter((entry) => entry.level === 'warn')
			.map((entry) => entry.message)
			.join('\n');
		expect(warned).toContain(`kept webhook subscription ${oldId}`);
		expect(warned).toContain('kept webhook subscription whk_older');
		expect(store.has('whk_hand') && store.has('whk_other')).toBe(true);
	});

	it("static data of version 0.1 (no tag): adopted when it delivers to this node's URL, else left alone", async () => {
		add('whk_legacy', 'n8n: Leads to Slack', PRODUCTION_URL);
		const legacy = earlierSubscription('0.1', { webhookId: 'whk_legacy' });
		const trigger = triggerHooks({ staticData: legacy });
		// Adopted, but its clear secret is not read: activation subscribes anew, then deletes it as its own.
		await expect(trigger.checkExists()).resolves.toBe(false);
		expect(trigger.staticData.ownerTag).toBe(tagFor());
		await trigger.create();
		expect(deleted).toEqual(['whk_legacy']);
		expect([...store.keys()]).toEqual([trigger.staticData.subscriptionId]);
		deleted.length = 0;

		add('whk_foreign', 'n8n: Leads to Slack', 'https://production.example.com/webhook/x/webhook');
		const imported = earlierSubscription('0.1', { webhookId: 'whk_foreign' });
		await expect(triggerHooks({ staticData: imported }).checkExists()).resolves.toBe(false);
		expect(deleted).toEqual([]);
	});

	it('two activations racing in one n8n process end with exactly one subscription, whose secret the last one holds', async () => {
		const first: IDataObject = {};
		const second: IDataObject = {};
		await Promise.all([
			activate(triggerHooks({ staticData: first })),
			activate(triggerHooks({ staticData: second })),
		]);
		expect(store.size).toBe(1);
		const [survivor] = [...store.values()];
		// The second create ran after the first (one at a time), swept the first one's subscription and holds its own.
		expect(second.subscriptionId).toBe(survivor.id);
		expect(unwrapped(second)).toBe(
			`whsec_${Buffer.from(`secret-${survivor.id}-0123456789`).toString('base64')}`,
		);
	});
});

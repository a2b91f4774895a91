import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { ownerTag } from '../../../nodes/CrmInvoicing/trigger/store';
import { loggedMessages, TEST_CREDENTIALS } from '../../helpers/harness';
import { useNock } from '../../helpers/nock';
import {
	activate,
	API,
	apiError,
	AT_CRM,
	earlierSubscription,
	expectEveryMockUsed,
	expectNoUnansweredRequests,
	fakeCrm,
	fakeSecret,
	LIST,
	logged,
	ONE,
	plain,
	PRODUCTION_URL,
	SECRET,
	secretParts,
	storedSubscription,
	tagFor,
	TEST_URL,
	triggerHooks,
	unwrapped,
	warnings,
	type FakeCrm,
} from '../../helpers/trigger';

const NEW_HOST_URL = 'https://new-host.example.com/webhook/x/webhook';

function emptyList() {
	return nock(API)
		.get(LIST)
		.query(true)
		.reply(200, { items: [], hasMore: false, nextCursor: null });
}

/** A POST /webhooks that records the body it was sent. */
function recordedPost(answer: IDataObject) {
	const sent: IDataObject[] = [];
	const scope = nock(API)
		.post(LIST, (body: IDataObject) => {
			sent.push(body);
			return true;
		})
		.matchHeader('x-api-key', TEST_CREDENTIALS.apiKey)
		.reply(200, answer);
	return { sent, scope };
}

useNock();
expectNoUnansweredRequests();
expectEveryMockUsed();

describe('create', () => {
	it('POSTs name, URL and events with the API key, and stores id, secret (wrapped, never in clear), URL and events', async () => {
		emptyList();
		const post = recordedPost({ ...AT_CRM, name: 'n8n: Leads to Slack', secret: SECRET });
		const trigger = triggerHooks({});
		await expect(trigger.create()).resolves.toBe(true);
		post.scope.done();
		expect(post.sent).toEqual([
			{
				name: `n8n: Leads to Slack [n8n:${tagFor()}]`,
				url: PRODUCTION_URL,
				events: ['deal.stage_changed', 'lead.created'],
			},
		]);
		const secretWrapped = expect.stringMatching(/^aes256gcm\.v1:/);
		expect(plain(trigger.staticData)).toEqual({ ...storedSubscription(), secretWrapped });
		// Only the credential's key unwraps it.
		expect(unwrapped(trigger.staticData)).toBe(SECRET);
		const text = JSON.stringify(plain(trigger.staticData));
		for (const part of secretParts(SECRET)) expect(text).not.toContain(part);
	});

	it.each([
		[
			'custom event names (comma-separated, trimmed, once each) and its custom name',
			{
				events: ['lead.created'],
				options: {
					customEvents: ' invoice.overdue ,lead.created,, client.created ',
					subscriptionName: '  Sales alerts ',
				},
			},
			'trigger' as const,
			{
				name: `Sales alerts [n8n:${tagFor()}]`,
				url: PRODUCTION_URL,
				events: ['client.created', 'invoice.overdue', 'lead.created'],
			},
		],
		[
			'custom events alone, at the test URL while listening for a test event',
			{ events: [], options: { customEvents: 'x.y' } },
			'manual' as const,
			{ name: `n8n: Leads to Slack [n8n:${tagFor('manual')}]`, url: TEST_URL, events: ['x.y'] },
		],
	])('subscribes with %s', async (_case, parameters, mode, sent) => {
		emptyList();
		const post = recordedPost({ id: 'whk_2', secret: SECRET });
		const trigger = triggerHooks({ parameters, mode, webhookUrl: sent.url });
		await expect(trigger.create()).resolves.toBe(true);
		expect(post.sent).toEqual([sent]);
		expect(plain(trigger.staticData)).toMatchObject({
			subscriptionUrl: sent.url,
			subscriptionEvents: sent.events,
		});
	});

	it('throws a clear error, without calling the API, when no event is selected', async () => {
		const trigger = triggerHooks({ parameters: { events: [], options: { customEvents: ' , ' } } });
		await expect(trigger.create()).rejects.toThrow('Select at least one event to subscribe to');
		expect(plain(trigger.staticData)).toEqual({});
	});

	it('throws when the response has no id, and stores nothing (nor names the secret)', async () => {
		emptyList();
		nock(API).post(LIST).reply(200, { secret: SECRET });
		const trigger = triggerHooks({});
		const error = (await trigger.create().catch((caught: unknown) => caught)) as Error;
		expect(error).toBeInstanceOf(Error);
		expect(error.message).toBe('The CRM API did not return an id for the new webhook subscription');
		expect(plain(trigger.staticData)).toEqual({});
		const text = JSON.stringify({ ...error, message: error.message });
		for (const part of secretParts(SECRET)) expect(text).not.toContain(part);
	});

	const mine = `n8n: Leads [n8n:${tagFor()}]`;
	it.each([
		['a new one of its own (deleted)', { name: mine, url: PRODUCTION_URL, secret: 'x' }, {}, true],
		['no name or URL', {}, {}, false],
		['another URL', { name: mine, url: 'https://other.example.com/w' }, {}, false],
		['no owner tag', { name: 'n8n: Leads', url: PRODUCTION_URL }, {}, false],
		[
			'the stored subscription, at another URL',
			{ name: `x [n8n:${tagFor()}]`, url: PRODUCTION_URL },
			storedSubscription({
				subscriptionId: 'whk_seen',
				subscriptionUrl: 'https://old.example.com/w',
			}),
			false,
		],
	])(
		'an answer without a whsec_ secret naming %s: the error names it, only a new one of its own is deleted',
		async (_case, shown, stored, deleted) => {
			emptyList();
			nock(API)
				.post(LIST)
				.reply(200, { id: 'whk_seen', ...shown });
			if (deleted) nock(API).delete(ONE('whk_seen')).reply(204);
			const trigger = triggerHooks({ staticData: stored });
			await expect(trigger.create()).rejects.toThrow(
				deleted
					? 'did not return a signing secret'
					: 'webhook subscription whk_seen, without a signing secret',
			);
			if (deleted) expect(plain(trigger.staticData)).toEqual({});
		},
	);

	it('removes only its own leftovers at its own URL: never one elsewhere (named in a warning), hand-made, other-mode or other-instance', async () => {
		const ours = tagFor('manual');
		const staging = tagFor('manual', { instanceId: 'staging' });
		const firstPage = [
			{ id: 'whk_old', name: `n8n: Leads to Slack [n8n:${ours}]`, url: TEST_URL },
			{ id: 'whk_hand', name: 'Made by hand', url: TEST_URL, events: ['lead.created'] },
			{ id: 'whk_prod', name: `n8n: Leads [n8n:${tagFor('trigger')}]`, url: PRODUCTION_URL },
			{ id: 'whk_staging', name: `n8n: Leads [n8n:${staging}]`, url: TEST_URL },
		];
		const oldTunnel = 'https://old-tunnel.example.com/webhook-test/x/webhook';
		const elsewhere = { id: 'whk_elsewhere', name: `old tunnel [n8n:${ours}]`, url: oldTunnel };
		nock(API)
			.get(LIST)
			.query({ limit: '100' })
			.reply(200, { items: firstPage, hasMore: true, nextCursor: 'c2' })
			.get(LIST)
			.query({ limit: '100', cursor: 'c2' })
			.reply(200, { items: [elsewhere], hasMore: false, nextCursor: null });
		const removedOld = nock(API).delete(ONE('whk_old')).reply(204);
		nock(API).post(LIST).reply(200, { id: 'whk_new', secret: SECRET });
		const trigger = triggerHooks({ mode: 'manual', webhookUrl: TEST_URL });
		await expect(trigger.create()).resolves.toBe(true);
		removedOld.done();
		// The one at another URL: no request to it (afterEach), no DELETE (none is mocked), and a warning names it.
		expect(warnings()).toEqual([
			expect.stringContaining('kept webhook subscription whk_elsewhere'),
		]);
		expect(warnings()[0]).toContain('Webhook Subscription → Delete, ID whk_elsewhere');
		expect(trigger.staticData.subscriptionId).toBe('whk_new');
		expect(trigger.staticData.ownerTag).toBe(ours);
	});

	it.each([
		[
			'an unknown list shape',
			200,
			{ subscriptions: [] },
			'and an object with the keys subscriptions, not a list',
		],
		['a list it may not read', 403, apiError('FORBIDDEN', 'no'), 'could not list'],
	])(
		'logs %s as a warning, deletes nothing and still subscribes',
		async (_case, status, body, message) => {
			nock(API).get(LIST).query(true).times(2).optionally().reply(status, body);
			nock(API).post(LIST).reply(200, { id: 'whk_new', secret: SECRET });
			await expect(triggerHooks({}).create()).resolves.toBe(true);
			expect(warnings().some((entry) => entry.includes(message))).toBe(true);
		},
	);

	it.each([
		[
			'the names its 400 gives',
			apiError('VALIDATION_ERROR', 'unknown event invoice.paid'),
			{ events: ['lead.created', 'invoice.paid', 'deal.updated'] },
			/^The API refused the event names invoice\.paid \(400 VALIDATION_ERROR: unknown event invoice\.paid\)\./,
		],
		[
			'every undocumented name when its 400 does not say which',
			'Bad Request',
			{ events: ['lead.created', 'deal.updated'], options: { customEvents: 'client.created' } },
			/^The API refused the event names client\.created, deal\.updated \(400\b.*\)\./,
		],
	])(
		'a refused POST names %s, says only lead.created is documented, and stores nothing',
		async (_case, answer, parameters, message) => {
			emptyList();
			nock(API).post(LIST).reply(400, answer);
			const trigger = triggerHooks({ parameters });
			const error = (await trigger.create().catch((caught: unknown) => caught)) as Error;
			expect(error.message).toMatch(message);
			expect(error.message).toMatch(/ The API's documentation names only lead\.created\.$/);
			expect(plain(trigger.staticData)).toEqual({});
		},
	);

	it.each([
		['a 400 when only documented names were asked for', 400, 'url is invalid'],
		['a 422', 422, 'url must be a valid http or https URL'],
	])(
		'keeps the API error of %s as it is (NodeApiError), and stores nothing',
		async (_case, status, message) => {
			emptyList();
			nock(API).post(LIST).reply(status, apiError('VALIDATION_ERROR', message));
			const trigger = triggerHooks({ parameters: { events: ['lead.created'] } });
			await expect(trigger.create()).rejects.toMatchObject({
				name: 'NodeApiError',
				message: expect.stringContaining(message),
			});
			expect(plain(trigger.staticData)).toEqual({});
		},
	);
});

describe('checkExists', () => {
	it('is false without a stored subscription (and delete true), without a call', async () => {
		await expect(triggerHooks({}).checkExists()).resolves.toBe(false);
		await expect(triggerHooks({}).delete()).resolves.toBe(true);
	});

	it.each([
		[
			'the same URL and events, in any order',
			{ ...AT_CRM, events: ['lead.created', 'deal.stage_changed'] },
			{},
			undefined,
		],
		[
			'custom events counted as selected events',
			{ ...AT_CRM, events: ['lead.created', 'x.y'] },
			{ subscriptionEvents: ['lead.created', 'x.y'] },
			{ events: ['lead.created'], options: { customEvents: 'x.y' } },
		],
		['no URL or events in the answer (the stored ones count)', { id: 'whk_1' }, {}, undefined],
	])('is true for %s, and changes nothing', async (_case, answer, stored, parameters) => {
		const get = nock(API)
			.get(ONE('whk_1'))
			.matchHeader('x-api-key', TEST_CREDENTIALS.apiKey)
			.reply(200, answer);
		const staticData = storedSubscription(stored);
		const trigger = triggerHooks({ staticData, parameters });
		await expect(trigger.checkExists()).resolves.toBe(true);
		get.done();
		expect(plain(trigger.staticData)).toEqual(plain(staticData));
		expect(unwrapped(trigger.staticData)).toBe(SECRET);
	});

	it('is false on 404, and clears the stored data', async () => {
		nock(API).get(ONE('whk_1')).reply(404, apiError('NOT_FOUND', 'Webhook whk_1 was not found'));
		const trigger = triggerHooks({ staticData: storedSubscription({ recentDeliveries: ['abc'] }) });
		await expect(trigger.checkExists()).resolves.toBe(false);
		expect(plain(trigger.staticData)).toEqual({});
	});

	it('a 0.2 subscription (clear secret) at another URL is retired, its clear secret dropped, never kept', async () => {
		nock(API).get(ONE('whk_1')).reply(200, AT_CRM);
		const trigger = triggerHooks({
			staticData: earlierSubscription('0.2'),
			webhookUrl: NEW_HOST_URL,
		});
		await expect(trigger.checkExists()).resolves.toBe(false);
		const state = plain(trigger.staticData);
		expect(JSON.stringify(state)).not.toContain(SECRET.slice('whsec_'.length));
		expect(state.retiredSubscriptions).toEqual([{ id: 'whk_1', url: PRODUCTION_URL }]);
	});

	// Issue 29: n8n 1.x runs checkExists at every start-up, and a failed POST after a delete would leave the trigger
	// deaf: checkExists deletes nothing, and create DELETEs the old subscription only after it stored the new one.
	it.each([
		['the events changed (a 404 on delete is fine)', {}, { events: ['lead.created'] }, {}, 404],
		['the API disabled the subscription', {}, undefined, { status: 'disabled' }, 204],
		['the secret was lost', { secretWrapped: undefined }, undefined, {}, 204],
	])(
		'is false when %s; create replaces the subscription, deleting it last',
		async (_case, stored, parameters, answer, deleted) => {
			nock(API)
				.get(ONE('whk_1'))
				.reply(200, { ...AT_CRM, ...answer });
			const trigger = triggerHooks({ staticData: storedSubscription(stored), parameters });
			await expect(trigger.checkExists()).resolves.toBe(false);
			expect(trigger.staticData.subscriptionId).toBe('whk_1');
			const order: string[] = [];
			const crm = nock(API)
				.post(LIST)
				.reply(() => {
					order.push('POST');
					return [200, { id: 'whk_2', secret: SECRET }];
				})
				.delete(ONE('whk_1'))
				.reply(() => {
					order.push('DELETE');
					return [deleted, deleted === 404 ? apiError('NOT_FOUND', 'gone') : ''];
				})
				.get(LIST)
				.query(true)
				.reply(200, []);
			await expect(trigger.create()).resolves.toBe(true);
			crm.done();
			expect(order).toEqual(['POST', 'DELETE']);
			expect(trigger.staticData.subscriptionId).toBe('whk_2');
		},
	);

	it('throws other API errors and keeps the stored data', async () => {
		nock(API).get(ONE('whk_1')).reply(403, apiError('FORBIDDEN', 'not allowed'));
		const stored = storedSubscription();
		const trigger = triggerHooks({ staticData: stored });
		await expect(trigger.checkExists()).rejects.toMatchObject({ name: 'NodeApiError' });
		expect(plain(trigger.staticData)).toEqual(plain(stored));
	});
});

describe('delete', () => {
	it.each([
		['DELETEs the subscription (204)', 204],
		['counts a 404 as already deleted', 404],
	])('%s, clears the stored data and returns true', async (_case, status) => {
		const removed = nock(API)
			.delete(ONE('whk_1'))
			.matchHeader('x-api-key', TEST_CREDENTIALS.apiKey)
			.reply(status, status === 404 ? apiError('NOT_FOUND', 'gone') : '');
		const trigger = triggerHooks({ staticData: storedSubscription({ recentDeliveries: ['abc'] }) });
		await expect(trigger.delete()).resolves.toBe(true);
		removed.done();
		expect(plain(trigger.staticData)).toEqual({});
	});

	it.each([
		['the API refuses (403)', 403, apiError('FORBIDDEN', 'not allowed'), 'answered 403 FORBIDDEN'],
		[
			'a 200 answered with an HTML page, which is not a deletion',
			200,
			'<!DOCTYPE html><html><body>Sign in</body></html>',
			'with 200 (text/html)',
		],
	])(
		'keeps the stored subscription when %s, and the warning says why',
		async (_case, status, body, why) => {
			const type: Record<string, string> =
				typeof body === 'string' ? { 'Content-Type': 'text/html' } : {};
			nock(API).delete(ONE('whk_1')).reply(status, body, type);
			const stored = storedSubscription();
			const trigger = triggerHooks({ staticData: stored });
			await expect(trigger.delete()).resolves.toBe(false);
			expect(plain(trigger.staticData)).toEqual(plain(stored));
			expect(warnings()).toEqual([
				expect.stringContaining('could not delete webhook subscription whk_1; it is kept'),
			]);
			expect(warnings()[0]).toContain(why);
			expect(loggedMessages.some((entry) => /deleted/.test(entry.message))).toBe(false);
			for (const part of secretParts(SECRET))
				expect(JSON.stringify(loggedMessages)).not.toContain(part);
		},
	);
});

/** A CRM that keeps subscriptions: what n8n does on "Listen for test event", activation, restart, deactivation. */
describe('lifecycles leave no orphan subscription', () => {
	let crm: FakeCrm;
	beforeEach(() => {
		crm = fakeCrm();
	});
	const urls = () => [...crm.store.values()].map((subscription) => subscription.url);
	const listening = (staticData: IDataObject) =>
		triggerHooks({ mode: 'manual', webhookUrl: TEST_URL, staticData });

	it('test listening, activation, restart, new events, deactivation, reactivation, deletion in the CRM', async () => {
		// n8n stopped while listening: the test static data is lost, n8n starts the next listen with empty static data,
		// which removes the leftover; it deletes after the event or timeout.
		await activate(listening({}));
		const testStatic: IDataObject = {};
		await activate(listening(testStatic));
		expect(urls()).toEqual([TEST_URL]);
		await listening(testStatic).delete();
		expect(crm.store.size).toBe(0);

		const production: IDataObject = {};
		await activate(triggerHooks({ staticData: production }));
		expect(urls()).toEqual([PRODUCTION_URL]);
		const firstId = production.subscriptionId;

		// n8n restarts: the saved static data comes back, the subscription is reused.
		await activate(triggerHooks({ staticData: plain(production) }));
		expect([...crm.store.keys()]).toEqual([firstId]);

		// The user changes the events of the active workflow: replaced, not added.
		await activate(
			triggerHooks({ staticData: production, parameters: { events: ['invoice.paid'] } }),
		);
		expect([...crm.store.values()].map((subscription) => subscription.events)).toEqual([
			['invoice.paid'],
		]);

		await triggerHooks({ staticData: production }).delete();
		expect(crm.store.size).toBe(0);
		expect(plain(production)).toEqual({});

		await activate(triggerHooks({ staticData: production }));
		expect(crm.store.size).toBe(1);
		// Deleted in the CRM meanwhile: the next activation subscribes anew.
		crm.store.clear();
		await activate(triggerHooks({ staticData: production }));
		expect([...crm.store.keys()]).toEqual([production.subscriptionId]);
	});
	// Test listening while the workflow is active: its sweep keeps the production subscription (another mode's tag),
	// 'removes only its own leftovers' above; its delete DELETEs only the id it stored, the 'delete' table.
});

/** The cases of "never delete what is not ours", on the same CRM that keeps subscriptions. */
describe('ownership: only subscriptions this trigger can prove it created are deleted', () => {
	let crm: FakeCrm;
	beforeEach(() => {
		crm = fakeCrm();
	});
	const otherTag = (ids: Parameters<typeof tagFor>[1]) => tagFor('trigger', ids);

	it('the tag is built from the instance id n8n gives the node, the workflow, the node and the mode ("internal" as its URL\'s)', () => {
		expect(ownerTag(triggerHooks({}).context)).toBe(tagFor());
		const tags = new Set([
			tagFor(),
			tagFor('manual'),
			otherTag({ instanceId: 'other' }),
			otherTag({ workflowId: 'other' }),
			otherTag({ nodeId: 'other' }),
		]);
		expect(tags.size).toBe(5);
		for (const tag of tags) expect(tag).toMatch(/^[A-Za-z0-9_-]{16}$/);
		// n8n 2.38 and 2.41 end test listening with mode "internal": the tag must be that of the URL's mode.
		const at = (mode: string, url: string) =>
			ownerTag({
				getInstanceId: () => 'instance-1',
				getWorkflow: () => ({ id: 'wf1' }),
				getNode: () => ({ id: 'node-1', name: 'On Lead Created' }),
				getMode: () => mode,
				getNodeWebhookUrl: () => url,
			});
		expect(at('internal', TEST_URL)).toBe(at('manual', TEST_URL));
		expect(at('internal', PRODUCTION_URL)).toBe(at('trigger', PRODUCTION_URL));
		expect(at('manual', TEST_URL)).not.toBe(at('trigger', PRODUCTION_URL));
	});

	it("an imported workflow (static data of another n8n instance) leaves that instance's subscription alone", async () => {
		// Production's n8n created its subscription; the workflow was exported with its static data and imported here.
		const production = triggerHooks({ instanceId: 'production-instance', staticData: {} });
		await activate(production);
		const productionId = String(production.staticData.subscriptionId);
		const webhookUrl = 'https://staging.example.com/webhook/x/webhook';
		// Deactivated here before any activation: nothing is deleted.
		const early = triggerHooks({ staticData: plain(production.staticData), webhookUrl });
		await expect(early.delete()).resolves.toBe(true);
		const staging = triggerHooks({ staticData: plain(production.staticData), webhookUrl });
		await activate(staging);
		expect(crm.deleted).toEqual([]);
		expect(crm.store.size).toBe(2);
		expect(staging.staticData.subscriptionId).not.toBe(productionId);
		expect(staging.staticData.ownerTag).toBe(tagFor());
		expect(logged()).toContain(`left webhook subscription ${productionId} alone`);
		// Deactivating in staging deletes staging's, not production's.
		await staging.delete();
		expect([...crm.store.keys()]).toEqual([productionId]);
	});

	it('a stored id whose subscription now carries another tag (re-used or renamed) is not deleted', async () => {
		crm.add('whk_x', `someone else [n8n:${otherTag({ workflowId: 'x' })}]`, PRODUCTION_URL);
		await activate(triggerHooks({ staticData: storedSubscription({ subscriptionId: 'whk_x' }) }));
		expect(crm.deleted).toEqual([]);
		expect(crm.store.size).toBe(2);
	});

	// Hand-made and other triggers' subscriptions the sweep never deletes: 'removes only its own leftovers' above.
	it("n8n's URL changed (WEBHOOK_URL, tunnel): it subscribes at the new URL and deletes nothing; its subscriptions elsewhere are kept and named", async () => {
		const production: IDataObject = {};
		await activate(triggerHooks({ staticData: production }));
		const oldId = String(production.subscriptionId);
		// A leftover of this trigger at an even older URL (its delete failed back then).
		const OLDER_URL = 'https://older.example.com/webhook/x/webhook';
		crm.add('whk_older', `n8n: Leads to Slack [n8n:${tagFor()}]`, OLDER_URL);
		const NEW_URL = 'https://new-tunnel.example.com/webhook/x/webhook';
		await activate(triggerHooks({ staticData: production, webhookUrl: NEW_URL }));

		expect(crm.deleted).toEqual([]);
		const mine = [...crm.store.values()].filter((s) =>
			String(s.name).endsWith(`[n8n:${tagFor()}]`),
		);
		expect(mine.map((s) => s.url).sort()).toEqual([PRODUCTION_URL, OLDER_URL, NEW_URL].sort());
		expect(production.subscriptionId).toBe(mine.find((s) => s.url === NEW_URL)?.id);
		// The one it held is retired (a delivery through it that reaches this node is answered 410).
		const retired = production.retiredSubscriptions as IDataObject[];
		expect(retired.map((entry) => entry.id)).toEqual([oldId]);
		const warned = warnings().join('\n');
		expect(warned).toContain(
			`kept webhook subscription ${oldId}, which carries this trigger's owner tag but delivers to ${PRODUCTION_URL}`,
		);
		expect(warned).toContain('its deliveries that reach this node are answered 410');
		expect(warned).toContain('kept webhook subscription whk_older');
	});

	it('static data of version 0.1 (no tag) whose subscription the CRM shows at another URL is left alone', async () => {
		crm.add('whk_foreign', 'n8n: Leads to Slack', 'https://production.example.com/w');
		const imported = earlierSubscription('0.1', { webhookId: 'whk_foreign' });
		await expect(triggerHooks({ staticData: imported }).checkExists()).resolves.toBe(false);
		expect(crm.deleted).toEqual([]);
	});

	it('two activations racing in one n8n process end with exactly one subscription, whose secret the last one holds', async () => {
		const [first, second]: IDataObject[] = [{}, {}];
		await Promise.all([
			activate(triggerHooks({ staticData: first })),
			activate(triggerHooks({ staticData: second })),
		]);
		// The second create ran after the first (one at a time), swept the first one's subscription and holds its own.
		expect([...crm.store.keys()]).toEqual([second.subscriptionId]);
		expect(unwrapped(second)).toBe(fakeSecret(String(second.subscriptionId)));
	});
});

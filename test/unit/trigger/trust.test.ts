/**
 * Issue 17, the trigger's part: linear and capped header parsing, the secret at rest, refusals a retry can pass (503),
 * retired subscriptions (410), old URLs settled by a probe (restored clone, dead URL, alias), one deadline per
 * lifecycle hook, and Output Full Record after the duplicate check.
 */
import nock from 'nock';
import type { IDataObject, INodeParameters, IWebhookResponseData } from 'n8n-workflow';

import {
	NO_CREDENTIAL_REASON,
	NO_SECRET_REASON,
	RETIRED_REASON,
	STALE_REASON,
	UNCHECKED_REASON,
	UNUSABLE_SECRET_REASON,
} from '../../../nodes/CrmInvoicingTrigger/delivery';
import { hookLimits, HOOK_TIME_LIMIT_MS } from '../../../nodes/CrmInvoicingTrigger/lifecycle';
import { isWrapped, unwrapSecret, wrapSecret, type SecretOwner } from '../../../nodes/CrmInvoicingTrigger/secretAtRest';
import {
	MAX_SIGNATURE_ENTRIES,
	MAX_SIGNATURE_HEADER_LENGTH,
	readSignatureEntries,
	signedHeaders,
	verifyWebhookSignature,
	type ParseMeter,
} from '../../../nodes/CrmInvoicingTrigger/signature';
import { CHECK_INTERVAL_MS, forgetCurrency } from '../../../nodes/CrmInvoicingTrigger/staleness';
import { PROBE_ORIGIN } from '../../../nodes/CrmInvoicing/transport/probe';
import { createHookContext, createWebhookContext, loggedMessages, TEST_CREDENTIALS } from '../../helpers/harness';
import { useNock } from '../../helpers/nock';
import {
	API,
	HARNESS_IDS,
	nextMessageId,
	nodeType,
	nowSeconds,
	OLD_SECRET,
	PRODUCTION_URL,
	SECRET,
	secretParts,
	tagFor,
} from './fixtures';

useNock();
beforeEach(() => {
	loggedMessages.length = 0;
	forgetCurrency();
});
afterEach(() => {
	const pending = nock.pendingMocks();
	nock.cleanAll();
	expect(pending).toEqual([]);
});
afterAll(() => nock.enableNetConnect());

const ONE = (id: string) => `/api/v1/webhooks/${id}`;
const owner = (subscriptionId: string, ids: Partial<SecretOwner> = {}): SecretOwner => ({
	workflowId: HARNESS_IDS.workflowId,
	nodeId: HARNESS_IDS.nodeId,
	subscriptionId,
	...ids,
});
const wrap = (secret: string, subscriptionId: string, apiKey = TEST_CREDENTIALS.apiKey) =>
	wrapSecret(secret, apiKey, owner(subscriptionId));

/** What a 0.3 trigger stores after creating `whk_1` (the secret wrapped). */
function stored(overrides: IDataObject = {}): IDataObject {
	return {
		webhookId: 'whk_1',
		webhookSecretWrapped: wrap(SECRET, String(overrides.webhookId ?? 'whk_1')),
		webhookUrl: PRODUCTION_URL,
		webhookEvents: ['deal.stage_changed', 'lead.created'],
		webhookOwner: tagFor(),
		...overrides,
	};
}

const plain = (data: IDataObject) => JSON.parse(JSON.stringify(data)) as IDataObject;

function event(id = 'lead_1') {
	return JSON.stringify({ event: 'lead.created', timestamp: '2026-01-01T00:00:00.000Z', payload: { id, name: 'Jane' } });
}

interface Delivered {
	result: IWebhookResponseData;
	status: number;
	body: unknown;
	credentialReads: number;
}

async function deliver(options: {
	rawBody?: string;
	headers?: Record<string, string>;
	secrets?: string[];
	id?: string;
	staticData?: IDataObject;
	parameters?: INodeParameters;
	credentials?: null;
}): Promise<Delivered> {
	const rawBody = options.rawBody ?? event();
	const headers =
		options.headers ?? signedHeaders(options.secrets ?? [SECRET], options.id ?? nextMessageId(), nowSeconds(), rawBody);
	const parts = createWebhookContext({
		nodeType,
		parameters: options.parameters ?? { events: ['lead.created', 'deal.stage_changed'] },
		staticData: options.staticData ?? stored(),
		headers,
		rawBody: Buffer.from(rawBody, 'utf8'),
		webhookUrl: PRODUCTION_URL,
		...(options.credentials === null ? { credentials: null } : {}),
	});
	const result = await nodeType.webhook.call(parts.context);
	return {
		result,
		status: parts.response.statusCode,
		body: parts.response.sentBody,
		credentialReads: parts.credentialsHelper.getDecryptedCalls,
	};
}

function expectNothingRun(delivered: Delivered, status: number, reason?: string) {
	expect(delivered.result.workflowData).toBeUndefined();
	expect(delivered.status).toBe(status);
	if (reason !== undefined) expect(delivered.body).toEqual({ error: reason });
}

function hooks(options: { staticData?: IDataObject; webhookUrl?: string; parameters?: INodeParameters } = {}) {
	const parts = createHookContext({
		nodeType,
		parameters: options.parameters ?? { events: ['lead.created', 'deal.stage_changed'] },
		webhookUrl: options.webhookUrl ?? PRODUCTION_URL,
		staticData: options.staticData,
		workflowName: 'Leads to Slack',
	});
	const methods = nodeType.webhookMethods.default;
	return {
		...parts,
		checkExists: async () => await methods.checkExists.call(parts.context),
		create: async () => await methods.create.call(parts.context),
		delete: async () => await methods.delete.call(parts.context),
	};
}

const warnings = () => loggedMessages.filter((entry) => entry.level === 'warn').map((entry) => entry.message);

// ---------------------------------------------------------------------------------------------------------------------

describe('webhook-signature is parsed in linear time, with its length and entries capped first', () => {
	/** The characters the parse visits, for an input of `length` characters built by `make`. */
	function steps(make: (length: number) => string, length: number): number {
		const meter: ParseMeter = { steps: 0 };
		readSignatureEntries(make(length), Infinity, meter);
		return meter.steps;
	}

	// Inputs that made the former patterns backtrack, and others that stress each loop of the scanner.
	const adversarial: Array<[string, (n: number) => string]> = [
		['commas then one base64 character', (n) => ','.repeat(n - 1) + 'A'],
		['v1, then commas then one base64 character', (n) => 'v1,' + ','.repeat(n - 4) + 'A'],
		['",v1" repeated (a split at every comma)', (n) => ',v1'.repeat(Math.floor(n / 3))],
		['"v" and digits without the closing comma', (n) => ',v' + '1'.repeat(n - 2)],
		['",v1a" repeated without a closing comma', (n) => ',v1a'.repeat(Math.floor(n / 4))],
		['whitespace runs', (n) => ' \t'.repeat(Math.floor(n / 2))],
		['an entry with trailing commas', (n) => 'v1,abc' + ','.repeat(n - 6)],
	];

	it.each(adversarial)('%s: at most 4 visits per character, at every size', (_name, make) => {
		for (const length of [1_000, 4_000, 16_000, 64_000]) {
			// The bound is the same for every size: visits grow in proportion to the length, never faster.
			expect(steps(make, length)).toBeLessThanOrEqual(4 * length + 8);
		}
	});

	it('reads the entries as the former patterns did on well-formed and joined headers', () => {
		expect(readSignatureEntries('v1,abc= v1,def=')).toEqual(['v1,abc=', 'v1,def=']);
		expect(readSignatureEntries('v1,abc=, v1,def=')).toEqual(['v1,abc=', 'v1,def=']);
		expect(readSignatureEntries('v1,abc=,v1,def=')).toEqual(['v1,abc=', 'v1,def=']);
		expect(readSignatureEntries('v1,abc=,,')).toEqual(['v1,abc=']);
		expect(readSignatureEntries('v2,xyz v1a,foo v1,abc')).toEqual(['v2,xyz', 'v1a,foo', 'v1,abc']);
		expect(readSignatureEntries('  ')).toEqual([]);
	});

	it('stops reading after MAX_SIGNATURE_ENTRIES entries', () => {
		expect(readSignatureEntries(Array(MAX_SIGNATURE_ENTRIES).fill('v1,a').join(' '))).toHaveLength(MAX_SIGNATURE_ENTRIES);
		const meter: ParseMeter = { steps: 0 };
		const many = Array(10_000).fill('v1,a').join(' ');
		expect(readSignatureEntries(many, MAX_SIGNATURE_ENTRIES, meter)).toBeUndefined();
		// It stopped early: far fewer visits than the header's length.
		expect(meter.steps).toBeLessThan(200);
	});

	it('a 16 KB header of commas ending in one base64 character is refused as too long, before any parsing (401)', async () => {
		const body = event();
		const good = signedHeaders([SECRET], nextMessageId(), nowSeconds(), body);
		const crafted = { ...good, 'webhook-signature': ','.repeat(16_383) + 'A' };
		expect(
			verifyWebhookSignature({ secret: SECRET, headers: crafted, rawBody: body }),
		).toEqual({ ok: false, reason: 'webhook-signature header is too long' });
		// No question to the CRM either: a crafted header is not a signature mismatch.
		expectNothingRun(await deliver({ rawBody: body, headers: crafted }), 401, 'webhook-signature header is too long');
		const tooMany = { ...good, 'webhook-signature': Array(MAX_SIGNATURE_ENTRIES + 1).fill('v1,a').join(' ') };
		expect(tooMany['webhook-signature'].length).toBeLessThan(MAX_SIGNATURE_HEADER_LENGTH);
		expectNothingRun(await deliver({ rawBody: body, headers: tooMany }), 401, 'webhook-signature header has too many entries');
	});
});

describe('the signing secret at rest', () => {
	it('is wrapped with AES-256-GCM under a key bound to the API key and the workflow, node and subscription ids', () => {
		const wrapped = wrap(SECRET, 'whk_1');
		expect(isWrapped(wrapped)).toBe(true);
		for (const part of secretParts(SECRET)) expect(wrapped).not.toContain(part);
		expect(wrapped).not.toContain(TEST_CREDENTIALS.apiKey);
		expect(unwrapSecret(wrapped, TEST_CREDENTIALS.apiKey, owner('whk_1'))).toBe(SECRET);
		// Another key, another subscription, node or workflow: it does not unwrap.
		expect(unwrapSecret(wrapped, 'sk_other_key', owner('whk_1'))).toBeUndefined();
		expect(unwrapSecret(wrapped, TEST_CREDENTIALS.apiKey, owner('whk_2'))).toBeUndefined();
		expect(unwrapSecret(wrapped, TEST_CREDENTIALS.apiKey, owner('whk_1', { nodeId: 'other' }))).toBeUndefined();
		expect(unwrapSecret(wrapped, TEST_CREDENTIALS.apiKey, owner('whk_1', { workflowId: 'other' }))).toBeUndefined();
		// Tampered: the tag does not verify.
		const parts = wrapped.split(':');
		parts[2] = Buffer.from('x'.repeat(SECRET.length)).toString('base64url');
		expect(unwrapSecret(parts.join(':'), TEST_CREDENTIALS.apiKey, owner('whk_1'))).toBeUndefined();
		// Wrapped twice, it differs (a fresh IV each time).
		expect(wrap(SECRET, 'whk_1')).not.toBe(wrapped);
	});

	it('a delivery verifies with the wrapped secret; the credential is read once, then the unwrapped secret is cached', async () => {
		const staticData = stored({ webhookSecretWrapped: wrap(SECRET, 'whk_1') });
		const first = await deliver({ staticData: plain(staticData) });
		expect(first.result.workflowData).toHaveLength(1);
		expect(first.credentialReads).toBe(1);
		const second = await deliver({ staticData: plain(staticData) });
		expect(second.result.workflowData).toHaveLength(1);
		expect(second.credentialReads).toBe(0);
	});

	it('one that does not unwrap (the credential changed) counts as no secret: 503, and a log line says why', async () => {
		const staticData = stored({ webhookSecretWrapped: wrap(SECRET, 'whk_1', 'sk_the_previous_key') });
		expectNothingRun(await deliver({ staticData }), 503, UNUSABLE_SECRET_REASON);
		expect(warnings().join('\n')).toContain('cannot be unwrapped');
	});

	it('a credential n8n cannot hand over (deleted) is 503 too, with a reason, and nothing runs', async () => {
		// A wrapped secret this process has not unwrapped yet needs the credential.
		const staticData = stored({ webhookId: 'whk_fresh', webhookSecretWrapped: wrap(SECRET, 'whk_fresh') });
		expectNothingRun(await deliver({ staticData, credentials: null }), 503, NO_CREDENTIAL_REASON);
	});

		it('activation notices a changed credential and subscribes anew (the old subscription is deleted)', async () => {
		nock(API).get(ONE('whk_1')).reply(200, { id: 'whk_1', url: PRODUCTION_URL, events: ['lead.created', 'deal.stage_changed'] });
		const removed = nock(API).delete(ONE('whk_1')).reply(204);
		const trigger = hooks({ staticData: stored({ webhookSecretWrapped: wrap(SECRET, 'whk_1', 'sk_the_previous_key') }) });
		await expect(trigger.checkExists()).resolves.toBe(false);
		removed.done();
		expect(plain(trigger.staticData)).toEqual({});
		expect(warnings().join('\n')).toContain('cannot be unwrapped with this credential');
	});

	it('static data of 0.2 (a clear secret) still verifies until activation migrates it; nothing clear is stored after', async () => {
		const legacy = stored({ webhookSecretWrapped: undefined, webhookSecret: SECRET });
		delete legacy.webhookSecretWrapped;
		expect((await deliver({ staticData: plain(legacy) })).result.workflowData).toHaveLength(1);
		nock(API).get(ONE('whk_1')).reply(200, { id: 'whk_1', url: PRODUCTION_URL, events: ['lead.created', 'deal.stage_changed'] });
		const trigger = hooks({ staticData: legacy });
		await expect(trigger.checkExists()).resolves.toBe(true);
		const text = JSON.stringify(plain(trigger.staticData));
		for (const part of secretParts(SECRET)) expect(text).not.toContain(part);
		expect((await deliver({ staticData: plain(trigger.staticData) })).result.workflowData).toHaveLength(1);
	});
});

describe('a signature mismatch a retry may pass is answered 503; a forgery never runs', () => {
	const forged = { secrets: [OLD_SECRET] };

	it('a stale reader (queue-mode webhook process): the stored subscription is gone at the CRM, so 503; the retry with the saved data runs', async () => {
		// Main deleted whk_1 and created whk_2 (secret SECRET); this process still reads whk_1 and its secret OLD_SECRET.
		const stale = stored({ webhookId: 'whk_1', webhookSecretWrapped: wrap(OLD_SECRET, 'whk_1') });
		const asked = nock(API).get(ONE('whk_1')).reply(404, { error: { code: 'NOT_FOUND', message: 'gone' } });
		const body = event();
		const id = nextMessageId();
		expectNothingRun(await deliver({ rawBody: body, id, staticData: stale }), 503, STALE_REASON);
		asked.done();
		// The CRM's retry reads the saved static data.
		const saved = stored({ webhookId: 'whk_2', webhookSecretWrapped: wrap(SECRET, 'whk_2') });
		expect((await deliver({ rawBody: body, id, staticData: saved })).result.workflowData).toHaveLength(1);
	});

	it('the stored subscription delivers to another URL now (moved, retired): 503', async () => {
		nock(API).get(ONE('whk_1')).reply(200, { id: 'whk_1', url: 'https://old.example.com/webhook/x/webhook' });
		expectNothingRun(await deliver(forged), 503, STALE_REASON);
	});

	it('the CRM cannot say (no answer it understands): 503, nothing runs', async () => {
		nock(API).get(ONE('whk_1')).reply(401, { error: { code: 'UNAUTHORIZED', message: 'no' } });
		expectNothingRun(await deliver(forged), 503, UNCHECKED_REASON);
	});

	it('the stored subscription is current at this URL: a forgery, 401', async () => {
		nock(API).get(ONE('whk_1')).reply(200, { id: 'whk_1', url: PRODUCTION_URL, status: 'active' });
		expectNothingRun(await deliver(forged), 401, 'signature does not match');
	});

	it('a forger costs at most one API request per subscription per process per interval, however many it sends', async () => {
		let asked = 0;
		nock(API)
			.get(ONE('whk_1'))
			.times(100)
			.optionally()
			.reply(200, () => {
				asked++;
				return { id: 'whk_1', url: PRODUCTION_URL };
			});
		const burst = await Promise.all(Array.from({ length: 20 }, async () => await deliver(forged)));
		for (const delivered of burst) expectNothingRun(delivered, 401);
		for (let index = 0; index < 20; index++) expectNothingRun(await deliver(forged), 401);
		expect(asked).toBe(1);
		expect(CHECK_INTERVAL_MS).toBeGreaterThanOrEqual(30_000);
	});

	it('no secret yet is 503, without asking the CRM', async () => {
		expectNothingRun(await deliver({ staticData: { webhookId: 'whk_1' } }), 503, NO_SECRET_REASON);
	});
});

describe('a retired subscription (left in place at an old URL that still answers)', () => {
	it('a delivery that verifies only with its secret is answered 410 (the CRM disables it) and runs nothing', async () => {
		const staticData = stored({
			webhookRetired: [{ webhookId: 'whk_0', webhookUrl: 'https://old.example.com/webhook/x/webhook', webhookSecretWrapped: wrap(OLD_SECRET, 'whk_0') }],
		});
		expectNothingRun(await deliver({ secrets: [OLD_SECRET], staticData: plain(staticData) }), 410, RETIRED_REASON);
		// The current subscription's deliveries run as usual.
		expect((await deliver({ staticData: plain(staticData) })).result.workflowData).toHaveLength(1);
	});
});

describe('subscriptions at another URL are removed only when that URL is provably dead', () => {
	const OLD_ORIGIN = 'https://n8n.example.com';
	const STAGING_URL = 'https://staging.example.com/webhook/c0ffee00-0000-4000-8000-0000000000aa/webhook';

	/** The probe: OPTIONS with an Origin, no API key, no secret. */
	function probe(status: number) {
		return nock(OLD_ORIGIN, { badheaders: ['x-api-key', 'authorization'] })
			.options('/webhook/c0ffee00-0000-4000-8000-0000000000aa/webhook')
			.matchHeader('origin', PROBE_ORIGIN)
			.reply(status);
	}

	it('restored clone: production\'s URL still answers as a registered n8n webhook, so its subscription stays (retired here, named in a warning)', async () => {
		nock(API).get(ONE('whk_1')).reply(200, { id: 'whk_1', url: PRODUCTION_URL, events: ['lead.created', 'deal.stage_changed'] });
		const probed = probe(204);
		const trigger = hooks({ staticData: stored(), webhookUrl: STAGING_URL });
		await expect(trigger.checkExists()).resolves.toBe(false);
		probed.done();
		const data = plain(trigger.staticData);
		expect(data.webhookId).toBeUndefined();
		expect(data.webhookRetired).toEqual([{ webhookId: 'whk_1', webhookUrl: PRODUCTION_URL, webhookSecretWrapped: expect.any(String) }]);
		const warned = warnings().join('\n');
		expect(warned).toContain('kept webhook subscription whk_1');
		expect(warned).toContain('Webhook Subscription → Delete');

		// create: the sweep finds production's subscription (same owner tag, the clone computes it too) and keeps it.
		nock(API)
			.get('/api/v1/webhooks')
			.query(true)
			.reply(200, { items: [{ id: 'whk_1', name: `n8n: Leads to Slack [n8n:${tagFor()}]`, url: PRODUCTION_URL }], hasMore: false });
		const probedAgain = probe(204);
		nock(API).post('/api/v1/webhooks').reply(200, { id: 'whk_staging', secret: SECRET });
		await expect(trigger.create()).resolves.toBe(true);
		probedAgain.done();
		expect(trigger.staticData.webhookId).toBe('whk_staging');
		expect((plain(trigger.staticData).webhookRetired as IDataObject[]).map((entry) => entry.webhookId)).toEqual(['whk_1']);
	});

	it('a restored clone deactivated before any checkExists ran (n8n 2.41 runs none at start-up) does not delete production\'s subscription', async () => {
		// The clone's static data still names production's subscription at production's URL; nothing may be deleted.
		const probed = probe(204);
		const trigger = hooks({ staticData: stored(), webhookUrl: STAGING_URL });
		await expect(trigger.delete()).resolves.toBe(true);
		probed.done();
		const data = plain(trigger.staticData);
		expect(data.webhookId).toBeUndefined();
		// Kept with its wrapped secret: a delivery through it that reaches this n8n (an alias) is answered 410.
		expect(data.webhookRetired).toEqual([{ webhookId: 'whk_1', webhookUrl: PRODUCTION_URL, webhookSecretWrapped: expect.any(String) }]);
		expect(warnings().join('\n')).toContain('kept webhook subscription whk_1');
	});

	it('deactivated with a subscription stored for an old URL that no longer answers as a webhook: deleted', async () => {
		const probed = probe(404);
		const removed = nock(API).delete(ONE('whk_1')).reply(204);
		const trigger = hooks({ staticData: stored(), webhookUrl: STAGING_URL });
		await expect(trigger.delete()).resolves.toBe(true);
		probed.done();
		removed.done();
		expect(plain(trigger.staticData).webhookId).toBeUndefined();
	});

	it('dead old URL (n8n answers 404: no webhook registered there): deleted', async () => {
		nock(API).get(ONE('whk_1')).reply(200, { id: 'whk_1', url: PRODUCTION_URL, events: ['lead.created', 'deal.stage_changed'] });
		const probed = probe(404);
		const removed = nock(API).delete(ONE('whk_1')).reply(204);
		const trigger = hooks({ staticData: stored(), webhookUrl: STAGING_URL });
		await expect(trigger.checkExists()).resolves.toBe(false);
		probed.done();
		removed.done();
		expect(plain(trigger.staticData)).toEqual({});
	});

	it('dead old URL (connection refused twice, a second apart): deleted', async () => {
		nock(API).get(ONE('whk_1')).reply(200, { id: 'whk_1', url: PRODUCTION_URL, events: ['lead.created', 'deal.stage_changed'] });
		const refused = nock(OLD_ORIGIN)
			.options(/.*/)
			.times(2)
			.replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
		const removed = nock(API).delete(ONE('whk_1')).reply(204);
		await expect(hooks({ staticData: stored(), webhookUrl: STAGING_URL }).checkExists()).resolves.toBe(false);
		refused.done();
		removed.done();
	});

	it('an old URL that answers something else (a 5xx) is no proof: kept', async () => {
		nock(API).get(ONE('whk_1')).reply(200, { id: 'whk_1', url: PRODUCTION_URL, events: ['lead.created', 'deal.stage_changed'] });
		const probed = probe(502);
		const trigger = hooks({ staticData: stored(), webhookUrl: STAGING_URL });
		await expect(trigger.checkExists()).resolves.toBe(false);
		probed.done();
		expect(warnings().join('\n')).toContain('could not be checked (HTTP 502)');
	});

	it('a restored clone and production, each activating over and over, never delete each other\'s subscription', async () => {
		// One CRM, two n8n with the same instance id (a restored backup), so the same owner tag.
		const store = new Map<string, IDataObject>();
		let next = 1;
		const deleted: string[] = [];
		nock(API)
			.persist()
			.get('/api/v1/webhooks')
			.query(true)
			.reply(() => [200, { items: [...store.values()], hasMore: false }])
			.get(/^\/api\/v1\/webhooks\/[^/]+$/)
			.reply((uri) => {
				const found = store.get(uri.split('/').pop()!);
				return found ? [200, found] : [404, { error: { code: 'NOT_FOUND', message: 'gone' } }];
			})
			.delete(/^\/api\/v1\/webhooks\/[^/]+$/)
			.reply((uri) => {
				const id = uri.split('/').pop()!;
				deleted.push(id);
				return store.delete(id) ? [204, ''] : [404, { error: { code: 'NOT_FOUND', message: 'gone' } }];
			})
			.post('/api/v1/webhooks')
			.reply((_uri, body) => {
				const id = `whk_${next++}`;
				store.set(id, { ...(body as IDataObject), id });
				return [200, { ...(body as IDataObject), id, secret: `whsec_${Buffer.from(`secret-${id}-0123456789`).toString('base64')}` }];
			});
		// Both n8n answer the probe for their own URL: both are up.
		nock(OLD_ORIGIN).persist().options(/.*/).reply(204);
		nock('https://staging.example.com').persist().options(/.*/).reply(204);

		const activate = async (trigger: ReturnType<typeof hooks>) => {
			if (!(await trigger.checkExists())) await trigger.create();
		};
		const production: IDataObject = {};
		await activate(hooks({ staticData: production }));
		const productionId = String(production.webhookId);
		// The backup: a copy of production's static data, started with another WEBHOOK_URL.
		const staging = plain(production);
		for (let round = 0; round < 3; round++) {
			await activate(hooks({ staticData: staging, webhookUrl: STAGING_URL }));
			await activate(hooks({ staticData: production }));
		}
		expect(deleted).toEqual([]);
		expect(production.webhookId).toBe(productionId);
		expect(store.get(productionId)?.url).toBe(PRODUCTION_URL);
		expect([...store.values()].map((subscription) => subscription.url).sort()).toEqual([PRODUCTION_URL, STAGING_URL].sort());
		nock.cleanAll();
	});
});

describe('each lifecycle hook finishes within its time limit, whatever the CRM does', () => {
	afterEach(() => {
		hookLimits.totalMs = HOOK_TIME_LIMIT_MS;
		// The CRM's delayed answers would otherwise keep their timers running after the test.
		nock.abortPendingRequests();
	});

	it('is at most 30 s', () => {
		expect(HOOK_TIME_LIMIT_MS).toBeLessThanOrEqual(30_000);
	});

	it('checkExists against a CRM that never answers fails with an error that names the time limit', async () => {
		hookLimits.totalMs = 1_000;
		nock(API).get(ONE('whk_1')).delay(60_000).reply(200, {});
		const trigger = hooks({ staticData: stored() });
		const started = Date.now();
		await expect(trigger.checkExists()).rejects.toThrow(/did not answer in time: the trigger could not check its webhook subscription within 1 s/);
		// It gave up at its deadline, not at the end of the CRM's delay.
		expect(Date.now() - started).toBeLessThan(30_000);
		// The stored subscription is kept for the next activation.
		expect(trigger.staticData.webhookId).toBe('whk_1');
	});

	it('create against a CRM that never answers (list, then POST) fails within its time limit too', async () => {
		hookLimits.totalMs = 2_000;
		nock(API).get('/api/v1/webhooks').query(true).delay(60_000).reply(200, []);
		// The list's hang leaves POST /webhooks its share of the time limit: it is still sent (and hangs too).
		nock(API).post('/api/v1/webhooks').delay(60_000).reply(200, {});
		const started = Date.now();
		await expect(hooks({}).create()).rejects.toThrow(/did not answer in time: the trigger could not create its webhook subscription within 2 s/);
		expect(Date.now() - started).toBeLessThan(30_000);
		expect(warnings().join('\n')).toContain('could not list webhook subscriptions');
	});

	it('create against a webhook list that never answers still subscribes, within its time limit', async () => {
		hookLimits.totalMs = 2_000;
		nock(API).get('/api/v1/webhooks').query(true).delay(60_000).reply(200, []);
		nock(API).post('/api/v1/webhooks').reply(200, { id: 'whk_new', secret: SECRET });
		const trigger = hooks({});
		await expect(trigger.create()).resolves.toBe(true);
		expect(trigger.staticData.webhookId).toBe('whk_new');
	});

	it('delete against a CRM that never answers keeps the subscription for the next activation, within its time limit', async () => {
		hookLimits.totalMs = 1_000;
		nock(API).delete(ONE('whk_1')).delay(60_000).reply(204);
		const trigger = hooks({ staticData: stored() });
		await expect(trigger.delete()).resolves.toBe(false);
		expect(trigger.staticData.webhookId).toBe('whk_1');
	});
});

describe('Output Full Record reads the lead after the duplicate check', () => {
	it('a retry of an accepted delivery is answered as a duplicate without reading the lead', async () => {
		const read = nock(API).get('/api/v1/leads/lead_9').once().reply(200, { id: 'lead_9', name: 'Jane' });
		const staticData = stored();
		const id = nextMessageId();
		const body = event('lead_9');
		const parameters = { events: ['lead.created'], options: { fullRecord: true } };
		const first = await deliver({ rawBody: body, id, staticData, parameters });
		expect(first.result.workflowData).toHaveLength(1);
		read.done();
		// No second GET is mocked: a read would fail and answer 503 instead of the duplicate's 200.
		const retry = await deliver({ rawBody: body, id, staticData: plain(staticData), parameters });
		expect(retry.result.workflowData).toBeUndefined();
		expect(retry.body).toEqual({ received: true, duplicate: true });
	});
});

/** The trigger's trust rules (issues 17, 22 and 40): header caps, the secret at rest, mismatches, retired subscriptions,
 * the deletion rule and the hooks' time limits. */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import {
	LOOKUP_INTERVAL_MS,
	NO_CREDENTIAL_REASON,
	RATIONED_REASON,
	RETIRED_REASON,
	ROTATED_REASON,
	STALE_REASON,
	TEST_MISMATCH_REASON,
	UNCHECKED_REASON,
} from '../../../nodes/CrmInvoicing/trigger/webhook';
import { HOOK_TIME_LIMIT_MS } from '../../../nodes/CrmInvoicing/CrmInvoicingTrigger.node';
import {
	unwrapSecret,
	wrapSecret,
	type SecretOwner,
} from '../../../nodes/CrmInvoicing/trigger/store';
import {
	MAX_SIGNATURE_ENTRIES,
	MAX_SIGNATURE_HEADER_LENGTH,
	readSignatureEntries,
} from '../../../nodes/CrmInvoicing/trigger/signature';
import { mayDelete } from '../../../nodes/CrmInvoicing/trigger/ownership';
import { SIGNATURE_RENEWAL_INTERVAL_MS } from '../../../nodes/CrmInvoicing/trigger/renewal';
import { TEST_CREDENTIALS } from '../../helpers/harness';
import { useNock } from '../../helpers/nock';
import { signedHeaders } from '../../helpers/signing';
import {
	API,
	apiError,
	AT_CRM,
	deliver,
	eventBody,
	expectEveryMockUsed,
	expectNothingRun,
	expectNoUnansweredRequests,
	HARNESS_IDS,
	LIST,
	nextMessageId,
	nodeType,
	nowSeconds,
	OLD_SECRET,
	ONE,
	passLookupInterval,
	plain,
	PRODUCTION_URL,
	renewalAtCrm,
	renewingCrm,
	retiredWhk0,
	SECRET,
	secretParts,
	storedSubscription,
	tagFor,
	TEST_URL,
	triggerHooks,
	useMovableClock,
	warnings,
	wrapAsStored,
} from '../../helpers/trigger';

useNock();
useMovableClock();
expectNoUnansweredRequests();
expectEveryMockUsed();
beforeEach(() => {
	passLookupInterval();
});

const KEY = TEST_CREDENTIALS.apiKey;
const owner = (subscriptionId: string, ids: Partial<SecretOwner> = {}): SecretOwner => ({
	workflowId: HARNESS_IDS.workflowId,
	nodeId: HARNESS_IDS.nodeId,
	subscriptionId,
	...ids,
});

describe('webhook-signature is capped in length before it is parsed, and in entries while it is parsed', () => {
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

	// The cap bounds the parse's time whatever its shape: one split on a character class and anchored tests per token.
	it.each(adversarial)('%s at the length cap: at most 16 entries, or refused', (_name, make) => {
		const header = make(MAX_SIGNATURE_HEADER_LENGTH);
		expect(header.length).toBeLessThanOrEqual(MAX_SIGNATURE_HEADER_LENGTH);
		const entries = readSignatureEntries(header);
		if (entries) expect(entries.length).toBeLessThanOrEqual(MAX_SIGNATURE_ENTRIES);
		for (const entry of entries ?? []) expect(entry).toMatch(/^v\d+[a-z]*,/);
	});

	const FULL = Array(MAX_SIGNATURE_ENTRIES).fill('v1,a');
	it.each([
		['v1,abc= v1,def=', ['v1,abc=', 'v1,def=']],
		['v1,abc=, v1,def=', ['v1,abc=', 'v1,def=']],
		['v1,abc=,v1,def=', ['v1,abc=', 'v1,def=']],
		['v1,abc=,,', ['v1,abc=']],
		['v2,xyz v1a,foo v1,abc', ['v2,xyz', 'v1a,foo', 'v1,abc']],
		['  ', []],
		[FULL.join(' '), FULL],
		[Array(10_000).fill('v1,a').join(' '), undefined],
	])('reads %p as the former patterns did, up to MAX_SIGNATURE_ENTRIES', (header, entries) => {
		expect(readSignatureEntries(header)).toEqual(entries);
	});

	it('a 16 KB header, or one of 17 entries, is refused (401) before any parsing or question to the CRM', async () => {
		const body = eventBody();
		const good = signedHeaders([SECRET], nextMessageId(), nowSeconds(), body);
		const crafted = { ...good, 'webhook-signature': ','.repeat(16_383) + 'A' };
		// No question to the CRM (none is mocked): a crafted header is not a signature mismatch.
		const tooLong = await deliver({ rawBody: body, headers: crafted });
		expectNothingRun(tooLong, 401, 'webhook-signature header is too long');
		const entries = Array(MAX_SIGNATURE_ENTRIES + 1).fill('v1,a');
		const tooMany = { ...good, 'webhook-signature': entries.join(' ') };
		expect(tooMany['webhook-signature'].length).toBeLessThan(MAX_SIGNATURE_HEADER_LENGTH);
		const refused = await deliver({ rawBody: body, headers: tooMany });
		expectNothingRun(refused, 401, 'webhook-signature header has too many entries');
	});
});

describe('the signing secret at rest', () => {
	it('is wrapped with AES-256-GCM under a key bound to the API key and the workflow, node and subscription ids', () => {
		const wrapped = wrapSecret(SECRET, KEY, owner('whk_1'));
		expect(wrapped).toMatch(/^aes256gcm\.v1:[\w-]+:[\w-]+:[\w-]+$/);
		for (const part of [...secretParts(SECRET), KEY]) expect(wrapped).not.toContain(part);
		expect(unwrapSecret(wrapped, KEY, owner('whk_1'))).toBe(SECRET);
		// The format is the documented one: data a 0.3 trigger stored unwraps (wrapAsStored writes it from the format).
		expect(unwrapSecret(wrapAsStored(SECRET, 'whk_1'), KEY, owner('whk_1'))).toBe(SECRET);
		// Another key, another subscription, node or workflow: it does not unwrap.
		expect(unwrapSecret(wrapped, 'sk_other_key', owner('whk_1'))).toBeUndefined();
		for (const other of [
			owner('whk_2'),
			owner('whk_1', { nodeId: 'x' }),
			owner('whk_1', { workflowId: 'x' }),
		])
			expect(unwrapSecret(wrapped, KEY, other)).toBeUndefined();
		// Tampered: the tag does not verify.
		const parts = wrapped.split(':');
		parts[2] = Buffer.from('x'.repeat(SECRET.length)).toString('base64url');
		expect(unwrapSecret(parts.join(':'), KEY, owner('whk_1'))).toBeUndefined();
		// Wrapped twice, it differs (a fresh IV each time).
		expect(wrapSecret(SECRET, KEY, owner('whk_1'))).not.toBe(wrapped);
	});

	// No stored subscription: delivery.test ('no secret stored').
	it('a credential n8n cannot hand over (deleted) is 503, with a reason, and nothing runs nor asks the CRM', async () => {
		const staticData = storedSubscription({ subscriptionId: 'whk_fresh' });
		expectNothingRun(await deliver({ credentials: null, staticData }), 503, NO_CREDENTIAL_REASON);
	});
});

describe('a signature that does not match: 503, and a renewal when a question asked now shows the stored subscription current (issue 40)', () => {
	const forged = { secrets: [OLD_SECRET] };
	const OLD_URL = 'https://old.example.com/webhook/x/webhook';
	// Each test past the renewal interval of the tests before it: a current subscription then starts a renewal.
	beforeEach(() => {
		jest.setSystemTime(Date.now() + SIGNATURE_RENEWAL_INTERVAL_MS);
	});

	it('a stale reader (queue mode): the stored subscription is gone at the CRM, so 503; the retry with the saved data runs', async () => {
		// Main deleted whk_1 and created whk_2 (secret SECRET); this process still reads whk_1 and its secret OLD_SECRET.
		const stale = storedSubscription({ secretWrapped: wrapAsStored(OLD_SECRET, 'whk_1') });
		nock(API).get(ONE('whk_1')).reply(404, apiError('NOT_FOUND', 'gone'));
		const id = nextMessageId();
		expectNothingRun(await deliver({ id, staticData: stale }), 503, STALE_REASON);
		// The CRM's retry reads the saved static data.
		const saved = storedSubscription({ subscriptionId: 'whk_2' });
		expect((await deliver({ id, staticData: saved })).ran).toBe(true);
	});

	it.each([
		['it at another URL (moved, retired)', 200, { ...AT_CRM, url: OLD_URL }, STALE_REASON],
		['it disabled', 200, { ...AT_CRM, status: 'disabled' }, STALE_REASON],
		['an error (401)', 401, apiError('UNAUTHORIZED', 'no'), UNCHECKED_REASON],
		['a 200 HTML page, not a subscription', 200, '<html>Sign in</html>', UNCHECKED_REASON],
		['a 200 without an id', 200, { ok: true }, UNCHECKED_REASON],
		['503 once (not retried)', 503, apiError('UNAVAILABLE', 'busy'), UNCHECKED_REASON],
	])('the CRM answers %s: 503', async (_case, status, body, reason) => {
		const type: Record<string, string> =
			typeof body === 'string' ? { 'Content-Type': 'text/html' } : {};
		nock(API).get(ONE('whk_1')).reply(status, body, type);
		expectNothingRun(await deliver(forged), 503, reason);
	});

	it('on the test URL ("Listen for test event"): 503 without a question', async () => {
		const staticData = storedSubscription({
			subscriptionUrl: TEST_URL,
			ownerTag: tagFor('manual'),
		});
		const delivered = await deliver({ ...forged, staticData, mode: 'manual' });
		expectNothingRun(delivered, 503, TEST_MISMATCH_REASON);
	});

	it('no verdict is kept: after a renewal, the next question is asked anew (never a verdict from an old "current")', async () => {
		nock(API)
			.get(ONE('whk_1'))
			.reply(200, AT_CRM)
			.get(ONE('whk_1'))
			.reply(404, apiError('NOT_FOUND', 'gone'));
		renewalAtCrm();
		expectNothingRun(await deliver(forged), 503, ROTATED_REASON);
		// Another process renewed the subscription: the next mismatch (after the interval) asks again, and gets 503.
		passLookupInterval();
		expectNothingRun(await deliver(forged), 503, STALE_REASON);
	});

	it('forged deliveries to ten triggers (ten workflows) start nothing and cost one question per 30 s for the whole process, and one renewal per question at most', async () => {
		// The renewal a question that finds the subscription current starts (a different node each time here).
		const crm = renewingCrm(SECRET);
		const forgedTo = async (workflowId: string) => {
			const secretWrapped = wrapAsStored(SECRET, 'whk_1', undefined, { workflowId });
			return await deliver({
				...forged,
				workflowId,
				staticData: storedSubscription({ secretWrapped }),
			});
		};
		const workflows = Array.from({ length: 30 }, (_unused, index) => `workflow-${index % 10}`);
		const burst = await Promise.all(workflows.map(forgedTo));
		for (const delivered of burst) expectNothingRun(delivered, 503);
		expect(burst.map((delivered) => (delivered.body as IDataObject).error).sort()).toEqual(
			[...Array(29).fill(RATIONED_REASON), ROTATED_REASON].sort(),
		);
		expect(crm).toEqual({ asked: 1, posts: 1 });
		// 30 s later, one more question is allowed; not before.
		jest.setSystemTime(Date.now() + LOOKUP_INTERVAL_MS - 1_000);
		expectNothingRun(await deliver(forged), 503, RATIONED_REASON);
		jest.setSystemTime(Date.now() + 1_001);
		expectNothingRun(await deliver(forged), 503, ROTATED_REASON);
		expect(crm).toEqual({ asked: 2, posts: 2 });
	});
});

describe('a retired subscription (kept at the CRM because it delivers to another URL)', () => {
	it('a delivery that verifies only with its secret is answered 410 (the CRM disables it) and runs nothing', async () => {
		const staticData = storedSubscription({ retiredSubscriptions: [retiredWhk0()] });
		const delivered = await deliver({ secrets: [OLD_SECRET], staticData: plain(staticData) });
		expectNothingRun(delivered, 410, RETIRED_REASON);
		// The current subscription's deliveries run as usual.
		expect((await deliver({ staticData: plain(staticData) })).ran).toBe(true);
	});

	it('at most three are kept, the oldest forgotten first', async () => {
		const retired = [0, 1, 2, 3, 4].map((index) => ({
			id: `whk_r${index}`,
			url: `https://old${index}.example.com/h`,
		}));
		const staticData = storedSubscription({ retiredSubscriptions: retired });
		const webhookUrl = 'https://new.example.com/webhook/x/webhook';
		const { secretWrapped } = staticData;
		const trigger = triggerHooks({ staticData, webhookUrl });
		// Deactivated while its data names a subscription at another URL (a restored copy's data names production's): that
		// one is not deleted (no DELETE is mocked) but retired too, with its secret, and named; nothing else is kept.
		await expect(trigger.delete()).resolves.toBe(true);
		expect(plain(trigger.staticData)).toEqual({
			retiredSubscriptions: [
				...retired.slice(3),
				{ id: 'whk_1', url: PRODUCTION_URL, secretWrapped },
			],
		});
		expect(warnings().join()).toContain('kept webhook subscription whk_1');
	});
});

describe("the deletion rule: only a subscription with this node's tag at this node's own URL, whatever any URL answers", () => {
	const STAGING_URL =
		'https://staging.example.com/webhook/c0ffee00-0000-4000-8000-0000000000aa/webhook';
	const tag = tagFor();

	it.each([
		['its tag at its URL', { ownerTag: tag, url: PRODUCTION_URL }, true],
		['its tag at another URL', { ownerTag: tag, url: STAGING_URL }, false],
		["another mode's tag", { ownerTag: tagFor('manual'), url: PRODUCTION_URL }, false],
		['no tag', { ownerTag: undefined, url: PRODUCTION_URL }, false],
		['no URL', { ownerTag: tag, url: undefined }, false],
		['a URL with a trailing slash', { ownerTag: tag, url: `${PRODUCTION_URL}/` }, false],
	])('mayDelete tests two facts, the owner tag and the URL: %s', (_case, subscription, allowed) => {
		expect(mayDelete(subscription, tag, PRODUCTION_URL)).toBe(allowed);
	});

	// Its sweep at create then keeps production's (named) and deletes only its own: lifecycle.test ('removes only its own
	// leftovers at its own URL').
	it("a restored copy (same owner tag, another URL) retires production's subscription at activation, with its secret: no DELETE, no request to production's URL", async () => {
		nock(API).get(ONE('whk_1')).reply(200, AT_CRM);
		const stored = storedSubscription();
		const { secretWrapped } = stored;
		const trigger = triggerHooks({ staticData: stored, webhookUrl: STAGING_URL });
		await expect(trigger.checkExists()).resolves.toBe(false);
		expect(plain(trigger.staticData)).toEqual({
			retiredSubscriptions: [{ id: 'whk_1', url: PRODUCTION_URL, secretWrapped }],
		});
	});

	it("a flood of subscriptions planted with this node's tag at internal addresses: no request, none deleted, at most ten warnings and one count", async () => {
		const planted = [
			'http://127.0.0.1:6379/',
			'http://169.254.169.254/latest/meta-data/',
			'http://localhost:5678/rest/users',
			'file:///etc/passwd',
			'http://10.0.0.1/\nCRM Invoicing Trigger: a forged log line',
			...Array.from({ length: 35 }, (_unused, index) => `http://10.0.1.${index}/`),
		];
		const name = `planted [n8n:${tag}]`;
		const items = planted.map((url, index) => ({ id: `whk_planted_${index}`, name, url }));
		nock(API).get(LIST).query(true).reply(200, { items, hasMore: false });
		nock(API).post(LIST).reply(200, { id: 'whk_new', secret: SECRET });
		await expect(triggerHooks({}).create()).resolves.toBe(true);
		// No DELETE is mocked, and afterEach finds no request to any other host.
		expect(warnings()).toHaveLength(11);
		for (let index = 0; index < 10; index++)
			expect(warnings()[index]).toContain(`kept webhook subscription whk_planted_${index}`);
		expect(warnings()[10]).toContain('kept 30 more webhook subscriptions');
		// What the CRM lists is anyone's text: no line break reaches the log.
		for (const message of warnings()) expect(message).not.toMatch(/[\r\n]/);
		expect(warnings().join()).toContain(
			'http://10.0.0.1/?CRM Invoicing Trigger: a forged log line',
		);
	});
});

describe(`each lifecycle hook finishes within its time limit (${HOOK_TIME_LIMIT_MS / 1000} s), whatever the CRM does`, () => {
	type Hooks = ReturnType<typeof triggerHooks>;
	/** Runs `hook` with a shorter time limit than HOOK_TIME_LIMIT_MS; the CRM below waits 60 s, past the test's timeout. */
	const run = async (trigger: Hooks, hook: 'checkExists' | 'create' | 'delete', limitMs: number) =>
		await nodeType.webhookMethods.default[hook].call(trigger.context, limitMs);

	it.each([
		['checkExists', 'check', () => nock(API).get(ONE('whk_1'))],
		['create', 'create', () => nock(API).post(LIST)],
	] as const)(
		'%s against a CRM that never answers fails with an error that names the time limit, and keeps what was stored',
		async (hook, what, request) => {
			// n8n activates workflows for about 20 s (docs/trigger.md).
			expect(HOOK_TIME_LIMIT_MS).toBeLessThanOrEqual(20_000);
			request().delay(60_000).reply(200, {});
			const trigger = triggerHooks({ staticData: storedSubscription() });
			await expect(run(trigger, hook, 1_000)).rejects.toThrow(
				`did not answer in time: the trigger could not ${what} its webhook subscription within 1 s`,
			);
			expect(trigger.staticData.subscriptionId).toBe('whk_1');
		},
	);

	it('create against a webhook list that never answers still subscribes, within its time limit', async () => {
		nock(API).get(LIST).query(true).delay(60_000).reply(200, []);
		nock(API).post(LIST).reply(200, { id: 'whk_new', secret: SECRET });
		const trigger = triggerHooks({});
		await expect(run(trigger, 'create', 2_000)).resolves.toBe(true);
		expect(trigger.staticData.subscriptionId).toBe('whk_new');
	});

	it('delete against a CRM that never answers keeps the subscription for the next activation, within its time limit', async () => {
		nock(API).delete(ONE('whk_1')).delay(60_000).reply(204);
		const trigger = triggerHooks({ staticData: storedSubscription() });
		await expect(run(trigger, 'delete', 1_000)).resolves.toBe(false);
		expect(trigger.staticData.subscriptionId).toBe('whk_1');
	});
});

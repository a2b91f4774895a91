/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** Issue 22, point 3: a change of the credential's API key loses nothing it need not lose: the secret is wrapped anew
 * while a process holds it, else the trigger subscribes anew (once, bounded, logged). */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { RENEWAL_INTERVAL_MS } from '../../../nodes/CrmInvoicing/trigger/renewal';
import { UNUSABLE_SECRET_REASON } from '../../../nodes/CrmInvoicing/trigger/webhook';
import { TEST_CREDENTIALS } from '../../helpers/harness';
import { useNock } from '../../helpers/nock';
import { signedHeaders } from '../../helpers/signing';
import {
	API,
	apiError,
	AT_CRM,
	deliver as deliverTo,
	earlierSubscription,
	eventBody,
	expectEveryMockUsed,
	expectNothingRun,
	expectNeverLogged,
	expectNoUnansweredRequests,
	freshProcess,
	LIST,
	logged,
	NEW_SECRET,
	nextMessageId,
	nowSeconds,
	OLD_SECRET,
	ONE,
	plain,
	PRODUCTION_URL,
	renewalAtCrm,
	retiredWhk0,
	SECRET,
	secretParts,
	storedSubscription,
	tagFor,
	TEST_URL,
	triggerHooks,
	unwrapped,
	useMovableClock,
	wrapAsStored,
	type DeliveryOptions,
} from '../../helpers/trigger';

const OLD_KEY = TEST_CREDENTIALS.apiKey;
const NEW_KEY = 'sk_test_the_rotated_key_0002';
const RETIRED_URL = 'https://old.example.com/webhook/x/webhook';

useNock();
useMovableClock();
expectNoUnansweredRequests();
expectEveryMockUsed();
let step = 0;
beforeEach(() => {
	// Each test starts past the renewal interval of the tests before it (Date only).
	jest.setSystemTime(Date.now() + RENEWAL_INTERVAL_MS + ++step * 1_000);
});
expectNeverLogged([OLD_KEY, NEW_KEY, ...secretParts(SECRET), ...secretParts(NEW_SECRET)]);

/** A delivery signed with `secret` (SECRET), under the credential's key `apiKey` (NEW_KEY). */
async function deliver(
	staticData: IDataObject,
	options: DeliveryOptions & { apiKey?: string; secret?: string } = {},
) {
	const credentials = { ...TEST_CREDENTIALS, apiKey: options.apiKey ?? NEW_KEY };
	const delivered = await deliverTo({
		secrets: [options.secret ?? SECRET],
		...options,
		staticData,
		credentials,
	});
	return { ...delivered, staticData: plain(delivered.staticData) };
}

const hooks = (staticData: IDataObject, apiKey: string) =>
	triggerHooks({ staticData, credentials: { ...TEST_CREDENTIALS, apiKey } });

/** The trigger subscribed under the old key: this process wrapped the secret, so it holds it. */
async function subscribedUnderOldKey(): Promise<IDataObject> {
	nock(API)
		.get(LIST)
		.query(true)
		.reply(200, [])
		.post(LIST)
		.reply(200, { id: 'whk_1', secret: SECRET });
	const trigger = hooks({}, OLD_KEY);
	await trigger.create();
	return plain(trigger.staticData);
}

describe('a key change while n8n runs (the process holds the secret)', () => {
	it('the first verified delivery after the change (even the same instant as one under the old key) runs and wraps the secret anew; after a restart, deliveries still run', async () => {
		const saved = await subscribedUnderOldKey();
		// A delivery under the old key: nothing to re-wrap, and the credential read once (for its key's fingerprint).
		const before = await deliver(plain(saved), { apiKey: OLD_KEY });
		expect(before.ran).toBe(true);
		expect(before.parts.credentialsHelper.getDecryptedCalls).toBe(1);
		expect(before.staticData.secretWrapped).toBe(saved.secretWrapped);
		// The credential now holds the new key (the old one is revoked at the CRM): the delivery runs.
		const delivered = await deliver(plain(saved));
		expect(delivered).toMatchObject({ ran: true, status: 200 });
		const rewrapped = delivered.staticData;
		expect(rewrapped.subscriptionId).toBe('whk_1');
		expect(unwrapped(rewrapped, NEW_KEY)).toBe(SECRET);
		expect(unwrapped(rewrapped, OLD_KEY)).toBeUndefined();
		expect(logged('info')).toContain(
			"the credential's API key changed; wrapped the signing secret of webhook subscription whk_1 anew under the new key",
		);
		// After a restart: a process with empty memories reads what n8n saved, with the new key. No request to the CRM.
		const afterRestart = await deliver(plain(rewrapped), { type: freshProcess() });
		expect(afterRestart).toMatchObject({ ran: true, status: 200 });
		// Without the re-wrap, a process with empty memories could not have read it with the new key.
		expect(unwrapped(saved, NEW_KEY)).toBeUndefined();
	});

	it("a retired subscription's secret is wrapped anew too: after a restart, its deliveries still get 410 (not a final 401)", async () => {
		const staticData = storedSubscription({
			secretWrapped: wrapAsStored(SECRET, 'whk_1', OLD_KEY),
			retiredSubscriptions: [retiredWhk0(OLD_KEY)],
		});
		// Under the old key this process reads both secrets (the key check holds the retired one too)…
		expect(await deliver(plain(staticData), { apiKey: OLD_KEY })).toMatchObject({ ran: true });
		// …so after the key changes, the next delivery wraps both anew.
		const rewrapped = (await deliver(plain(staticData))).staticData;
		const retired = (rewrapped.retiredSubscriptions as IDataObject[])[0];
		expect(
			unwrapped({ subscriptionId: 'whk_0', secretWrapped: retired.secretWrapped }, NEW_KEY),
		).toBe(OLD_SECRET);
		// After a restart, a delivery through the retired subscription (signed with its secret): 410, no question asked.
		const gone = await deliver(plain(rewrapped), { type: freshProcess(), secret: OLD_SECRET });
		expect(gone).toMatchObject({ ran: false, status: 410 });
	});

	it('activation (checkExists) wraps anew what this process holds, and keeps the subscription', async () => {
		const saved = await subscribedUnderOldKey();
		nock(API).get(ONE('whk_1')).reply(200, AT_CRM);
		const again = hooks(saved, NEW_KEY);
		await expect(again.checkExists()).resolves.toBe(true);
		expect(unwrapped(again.staticData, NEW_KEY)).toBe(SECRET);
	});
});

describe('a key change, then a restart before any delivery (nothing can read the stored secret)', () => {
	const unreadable = () =>
		storedSubscription({ secretWrapped: wrapAsStored(SECRET, 'whk_1', OLD_KEY) });

	it("the delivery that finds out is answered 503 and subscribes anew at the node's URL: old deleted, new stored, logged", async () => {
		const crm = renewalAtCrm();
		const delivered = await deliver(unreadable());
		expectNothingRun(delivered, 503, UNUSABLE_SECRET_REASON);
		crm.done();
		const secretWrapped = expect.stringMatching(/^aes256gcm\.v1:/);
		const renewed = { ...storedSubscription({ subscriptionId: 'whk_2' }), secretWrapped };
		expect(delivered.staticData).toEqual(renewed);
		expect(unwrapped(delivered.staticData, NEW_KEY)).toBe(NEW_SECRET);
		expect(logged('warn')).toContain(
			"the stored signing secret of webhook subscription whk_1 cannot be read with the credential's API key",
		);
		expect(logged('warn')).toContain(
			"Subscribed anew at this node's URL as webhook subscription whk_2",
		);
		// The CRM's next delivery, through the new subscription, runs.
		const next = await deliver(delivered.staticData, { secret: NEW_SECRET });
		expect(next).toMatchObject({ ran: true, status: 200 });
	});

	it.each(['0.1', '0.2'] as const)(
		'data of %s (its clear secret is not read): the first delivery subscribes anew the same way, deletes the old one, and no clear copy stays',
		async (version) => {
			// 0.2's subscription carries the owner tag; 0.1's carries none: deleted once the CRM shows it at this URL.
			const crm = nock(API).post(LIST).reply(200, { id: 'whk_2', secret: NEW_SECRET });
			if (version === '0.1')
				crm.get(ONE('whk_1')).reply(200, { id: 'whk_1', name: 'n8n: Leads', url: PRODUCTION_URL });
			crm.delete(ONE('whk_1')).reply(204);
			crm.get(LIST).query(true).reply(200, { items: [], hasMore: false });
			const delivered = await deliver(earlierSubscription(version));
			expect(delivered).toMatchObject({ status: 503, body: { error: UNUSABLE_SECRET_REASON } });
			crm.done();
			expect(delivered.staticData).toMatchObject({ subscriptionId: 'whk_2', ownerTag: tagFor() });
			const text = JSON.stringify(delivered.staticData);
			for (const part of secretParts(SECRET)) expect(text).not.toContain(part);
		},
	);

	it('a delivery that cannot be a genuine one (no signature headers, a stale timestamp, no v1 entry) is answered 401 and subscribes nothing anew', async () => {
		const raw = eventBody();
		const stale = signedHeaders([SECRET], nextMessageId(), nowSeconds() - 3_600, raw);
		const current = signedHeaders([SECRET], nextMessageId(), nowSeconds(), raw);
		for (const headers of [{}, stale, { ...current, 'webhook-signature': 'v2,abc' }]) {
			const delivered = await deliver(unreadable(), { rawBody: raw, headers });
			expect(delivered).toMatchObject({ ran: false, status: 401 });
		}
		// No request was sent (any would fail this file: expectNoUnansweredRequests), and nothing was logged as a renewal.
		expect(logged('warn')).not.toContain('Subscribed anew');
	});

	it('concurrent deliveries subscribe anew once: one POST, the others 503 at once; the old subscription is deleted after the new one is stored, and a failed delete keeps the new one and is logged', async () => {
		nock(API)
			.post(LIST)
			.reply(200, { id: 'whk_2', secret: NEW_SECRET })
			.delete(ONE('whk_1'))
			.reply(403, apiError('FORBIDDEN', 'not now'))
			.get(LIST)
			.query(true)
			.reply(200, { items: [], hasMore: false });
		const results = await Promise.all(
			Array.from({ length: 5 }, async () => await deliver(unreadable())),
		);
		expect(results.map((result) => result.status)).toEqual([503, 503, 503, 503, 503]);
		const renewed = results.filter((result) => result.staticData.subscriptionId === 'whk_2');
		expect(renewed).toHaveLength(1);
		expect(logged('warn')).toContain('could not delete the replaced webhook subscription whk_1');
		// And later deliveries that still read the old data (n8n had not saved the new one yet) within a minute: none.
		expect(await deliver(unreadable())).toMatchObject({ status: 503 });
	});

	it('a renewal whose POST meets a 503 deletes nothing and keeps the stored subscription; a delivery after a minute tries again', async () => {
		// Issue 29, defect 1: the new subscription is created first, so a failed POST cannot leave the trigger deaf.
		nock(API).post(LIST).reply(503, apiError('UNAVAILABLE', 'busy'));
		const stored = unreadable();
		const first = await deliver(plain(stored));
		expect(first).toMatchObject({ status: 503 });
		// No DELETE was sent (any would fail this file), and the old subscription is still the stored one.
		expect(first.staticData).toEqual(plain(stored));
		expect(logged('warn')).toContain('Subscribing anew failed');
		expect(logged('warn')).toContain('the stored subscription is kept');
		expect(logged('warn')).toContain('a delivery tries again in 60 s at the earliest');
		// Bounded: within the minute, no second attempt.
		expect(await deliver(unreadable())).toMatchObject({ status: 503 });
		jest.setSystemTime(Date.now() + RENEWAL_INTERVAL_MS);
		const crm = renewalAtCrm();
		expect((await deliver(unreadable())).staticData.subscriptionId).toBe('whk_2');
		crm.done();
	});

	it('a delivery to the test URL subscribes nothing anew', async () => {
		const staticData = storedSubscription({
			subscriptionUrl: TEST_URL,
			ownerTag: tagFor('manual'),
			secretWrapped: wrapAsStored(SECRET, 'whk_1', OLD_KEY),
		});
		expect(await deliver(staticData, { mode: 'manual' })).toMatchObject({ status: 503 });
	});

	it('on n8n versions that run checkExists at start-up, activation deletes nothing; create subscribes anew, then deletes the old one', async () => {
		nock(API).get(ONE('whk_1')).reply(200, AT_CRM);
		const trigger = hooks(unreadable(), NEW_KEY);
		await expect(trigger.checkExists()).resolves.toBe(false);
		// Nothing deleted yet (no DELETE is mocked): the stored subscription stays until a new one is stored.
		expect(trigger.staticData.subscriptionId).toBe('whk_1');
		expect(logged('warn')).toContain("cannot be read with this credential's API key");
		// create subscribes anew and deletes the old subscription after storing the new one.
		const crm = renewalAtCrm();
		await expect(trigger.create()).resolves.toBe(true);
		crm.done();
		expect(trigger.staticData.subscriptionId).toBe('whk_2');
		expect(unwrapped(trigger.staticData, NEW_KEY)).toBe(NEW_SECRET);
	});
});

// Issue 40 point 3: 0.3 and 0.4 wrapped the secret under the key as saved, spaces and all; 0.5 sends it trimmed.
describe('an upgrade with a key saved with spaces (0.3 and 0.4 wrapped under it untrimmed)', () => {
	const SPACED = `  ${OLD_KEY} `;
	const stateOf = {
		'0.3': () =>
			earlierSubscription('0.3', {
				webhookSecretWrapped: wrapAsStored(SECRET, 'whk_1', SPACED),
				webhookRetired: [
					{
						webhookId: 'whk_0',
						webhookUrl: RETIRED_URL,
						webhookSecretWrapped: wrapAsStored(OLD_SECRET, 'whk_0', SPACED),
					},
				],
			}),
		'0.4': () =>
			storedSubscription({
				secretWrapped: wrapAsStored(SECRET, 'whk_1', SPACED),
				retiredSubscriptions: [retiredWhk0(SPACED)],
			}),
	};

	it.each(['0.3', '0.4'] as const)(
		'%s: the first delivery runs (no new subscription), both secrets are wrapped anew under the trimmed key, and after a restart the retired one still gets 410',
		async (version) => {
			const spaced = () => ({ apiKey: SPACED, type: freshProcess() });
			const delivered = await deliver(stateOf[version](), spaced());
			expect(delivered).toMatchObject({ ran: true, status: 200 });
			const saved = delivered.staticData;
			expect(saved.subscriptionId).toBe('whk_1');
			expect(unwrapped(saved, OLD_KEY)).toBe(SECRET);
			const [retired] = saved.retiredSubscriptions as IDataObject[];
			expect(
				unwrapped({ subscriptionId: 'whk_0', secretWrapped: retired.secretWrapped }, OLD_KEY),
			).toBe(OLD_SECRET);
			expect(logged('info')).toContain('wrapped the signing secret of webhook subscription whk_1');

			// After a restart, with the key as saved: both read under the trimmed key; nothing is wrapped anew again.
			const again = await deliver(plain(saved), spaced());
			expect(again).toMatchObject({ ran: true, status: 200 });
			expect(again.staticData.secretWrapped).toBe(saved.secretWrapped);
			const gone = await deliver(plain(saved), { ...spaced(), secret: OLD_SECRET });
			expect(gone).toMatchObject({ ran: false, status: 410 });
		},
	);

	it('a key saved without spaces reads nothing wrapped under a spaced one: it is another key', async () => {
		const staticData = storedSubscription({ secretWrapped: wrapAsStored(SECRET, 'whk_1', SPACED) });
		const crm = renewalAtCrm();
		const delivered = await deliver(staticData, { apiKey: OLD_KEY, type: freshProcess() });
		expect(delivered).toMatchObject({ ran: false, status: 503 });
		crm.done();
	});
});

/** Issue 40, point 1: the CRM rotates the subscription's signing secret (spec §6.4), seen or missed, and the trigger
 * subscribes anew, at most once per node and process per hour. */
import nock from 'nock';

import {
	RENEWAL_TIME_LIMIT_MS,
	SIGNATURE_RENEWAL_INTERVAL_MS,
} from '../../../nodes/CrmInvoicing/trigger/renewal';
import {
	LOOKUP_INTERVAL_MS,
	RATIONED_REASON,
	ROTATED_REASON,
} from '../../../nodes/CrmInvoicing/trigger/webhook';
import { TEST_CREDENTIALS } from '../../helpers/harness';
import { useNock } from '../../helpers/nock';
import {
	API,
	apiError,
	AT_CRM,
	deliver as deliverTo,
	expectEveryMockUsed,
	expectNeverLogged,
	expectNoUnansweredRequests,
	LIST,
	logged,
	NEW_SECRET,
	ONE,
	plain,
	prepareDelivery,
	PRODUCTION_URL,
	renewalAtCrm,
	renewingCrm,
	SECRET,
	secretParts,
	unwrapped,
	useMovableClock,
	type DeliveryOptions,
} from '../../helpers/trigger';

/** The secret the CRM rotates to on the stored subscription whk_1 (the trigger never gets it). */
const ROTATED_SECRET =
	'whsec_' + Buffer.from('the-crm-rotated-to-this-secret!!').toString('base64');
const ROTATING = [ROTATED_SECRET, SECRET];
const FULL_RECORD = { events: ['lead.created'], options: { fullRecord: true } };

useNock();
useMovableClock();
expectNoUnansweredRequests();
expectEveryMockUsed();
beforeEach(() => {
	// Each test past the renewal interval of the tests before it (Date only).
	jest.setSystemTime(Date.now() + SIGNATURE_RENEWAL_INTERVAL_MS + LOOKUP_INTERVAL_MS);
});
expectNeverLogged([SECRET, ROTATED_SECRET, NEW_SECRET].flatMap(secretParts));

/** A delivery signed with `secrets` to the harness's production trigger, with what it stored as plain data. */
async function deliver(secrets: string[], options: DeliveryOptions = {}) {
	const delivered = await deliverTo({ secrets, ...options });
	return { ...delivered, staticData: plain(delivered.staticData) };
}

describe('a rotation seen: a verified delivery that also carries a signature by another secret', () => {
	it('runs, and the trigger subscribes anew once answered: POST, then DELETE of the old one; the next delivery verifies with the new secret; at most once per node and process per hour', async () => {
		const crm = renewalAtCrm();
		const delivered = await deliver(ROTATING);
		expect(delivered).toMatchObject({ ran: true, status: 200, body: { received: true } });
		crm.done();
		expect(delivered.staticData.subscriptionId).toBe('whk_2');
		expect(unwrapped(delivered.staticData)).toBe(NEW_SECRET);
		expect(logged()).toContain(
			'also carried a signature by another secret: the CRM is rotating the secret',
		);
		expect(logged()).toContain("Subscribed anew at this node's URL as webhook subscription whk_2");
		// The CRM drops the old secret (and the old subscription is gone): deliveries of the new one run.
		expect((await deliver([NEW_SECRET], { staticData: delivered.staticData })).ran).toBe(true);
		// At most once per node and process per hour: further rotating deliveries (another process still reads the old
		// data) only run; no further POST is mocked, any would fail this file.
		for (let index = 0; index < 3; index++)
			expect(await deliver(ROTATING)).toMatchObject({ ran: true, status: 200 });
		jest.setSystemTime(Date.now() + SIGNATURE_RENEWAL_INTERVAL_MS);
		const again = renewalAtCrm();
		expect(await deliver(ROTATING)).toMatchObject({ ran: true });
		again.done();
	});

	it('a delivery answered 503 (its lead could not be read) renews nothing: its retry comes through the old subscription', async () => {
		nock(API).get('/api/v1/leads/lead_1').reply(500, apiError('INTERNAL', 'boom'));
		const delivered = await deliver(ROTATING, { parameters: FULL_RECORD });
		expect(delivered).toMatchObject({ ran: false, status: 503 });
		// No POST was sent (any would fail this file); the retry, answered 200, renews.
		expect(delivered.staticData.subscriptionId).toBe('whk_1');
		nock(API).get('/api/v1/leads/lead_1').reply(200, { id: 'lead_1', name: 'Ada' });
		const crm = renewalAtCrm();
		const retried = await deliver(ROTATING, { parameters: FULL_RECORD });
		expect(retried).toMatchObject({ ran: true, status: 200 });
		crm.done();
	});

	it('is answered before the renewal, which ends within its time limit against a CRM that never answers (60 s, past the test timeout)', async () => {
		// docs/trigger.md: a renewal runs within 15 s. (A renewal for a secret the key cannot read is the same call.)
		expect(RENEWAL_TIME_LIMIT_MS).toBeLessThanOrEqual(15_000);
		const options = { secrets: ROTATING, renewalLimitMs: 1_000 };
		const parts = prepareDelivery(options);
		let answeredAtPost: unknown;
		nock(API)
			.post(LIST)
			.delay(60_000)
			.reply(200, () => {
				answeredAtPost = parts.response.sentBody;
				return { id: 'whk_2', secret: NEW_SECRET };
			});
		const delivered = await deliverTo(options, parts);
		// The CRM had its 200 before the POST was sent; the call ended at the renewal's time limit.
		expect(answeredAtPost).toEqual({ received: true });
		expect(delivered).toMatchObject({ ran: true, status: 200 });
		expect(delivered.staticData.subscriptionId).toBe('whk_1');
		expect(logged()).toContain('could not subscribe anew within 1 s');
	});
});

describe('a rotation missed: the CRM signs with a secret the trigger never had, the subscription still current', () => {
	it('is answered 503 (never a final 401) when the CRM shows it current at this URL (in its own form), and the trigger subscribes anew; later events run', async () => {
		const url = PRODUCTION_URL.replace('https://n8n.example.com/', 'https://N8N.example.com:443/');
		nock(API)
			.get(ONE('whk_1'))
			.matchHeader('x-api-key', TEST_CREDENTIALS.apiKey)
			.reply(200, { ...AT_CRM, url });
		const crm = renewalAtCrm();
		const delivered = await deliver([ROTATED_SECRET]);
		expect(delivered).toMatchObject({ ran: false, status: 503, body: { error: ROTATED_REASON } });
		crm.done();
		expect(delivered.staticData.subscriptionId).toBe('whk_2');
		expect(logged()).toContain('which the CRM shows current at this node');
		expect((await deliver([NEW_SECRET], { staticData: delivered.staticData })).ran).toBe(true);
	});

	it('a burst of forged deliveries over an hour, each asking the CRM, causes one POST /webhooks; the next hour one more', async () => {
		const crm = renewingCrm();
		const forger = [`whsec_${Buffer.from('a-forger-signs-with-this-key-000').toString('base64')}`];
		// A burst at once, then one every 30 s for an hour (each may ask the CRM).
		const burst = await Promise.all(Array.from({ length: 20 }, async () => await deliver(forger)));
		const statuses = burst.map((delivered) => delivered.status);
		for (let step = 1; step < SIGNATURE_RENEWAL_INTERVAL_MS / LOOKUP_INTERVAL_MS; step++) {
			jest.setSystemTime(Date.now() + LOOKUP_INTERVAL_MS);
			const delivered = await deliver(forger);
			expect(delivered).toMatchObject({ ran: false, body: { error: ROTATED_REASON } });
			statuses.push(delivered.status);
		}
		expect(new Set(statuses)).toEqual(new Set([503]));
		expect(crm.posts).toBe(1);
		jest.setSystemTime(Date.now() + LOOKUP_INTERVAL_MS);
		expect(await deliver(forger)).toMatchObject({ status: 503, body: { error: ROTATED_REASON } });
		expect(crm.posts).toBe(2);
		const rationed = await deliver(forger);
		expect(rationed).toMatchObject({ status: 503, body: { error: RATIONED_REASON } });
	}, 60_000);
});

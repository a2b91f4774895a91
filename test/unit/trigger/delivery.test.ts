import nock from 'nock';

import { NO_SECRET_REASON, ROTATED_REASON } from '../../../nodes/CrmInvoicing/trigger/webhook';
import { loggedMessages } from '../../helpers/harness';
import { useNock } from '../../helpers/nock';
import { signedHeaders } from '../../helpers/signing';
import {
	API,
	AT_CRM,
	deliver as deliverTo,
	eventBody as event,
	nextMessageId,
	nowSeconds,
	OLD_SECRET,
	passLookupInterval,
	SECRET,
	secretParts,
	storedSubscription,
	tagFor,
	useMovableClock,
	warnings,
	type Delivered,
	wrapAsStored,
	type DeliveryOptions,
} from '../../helpers/trigger';

/** Everything any delivery answered or emitted in this file, to check that the secret never shows. */
const everything: unknown[] = [];
const statuses: number[] = [];

/** A delivery with the output of 0.2 (version 1); Simplify (version 2) is tested in test/unit/output/triggerSimplify.test.ts. */
async function deliver(options: DeliveryOptions): Promise<Delivered> {
	const delivered = await deliverTo({ typeVersion: 1, ...options });
	statuses.push(delivered.status);
	everything.push(delivered.result, delivered.body);
	return delivered;
}

function expectRefused(delivered: Delivered, status: number, reason: string) {
	expect(delivered.result).toEqual({ noWebhookResponse: true });
	expect(delivered.status).toBe(status);
	expect(delivered.body).toEqual({ error: reason });
}

useNock();
useMovableClock();
beforeEach(() => {
	// A mismatch may ask the CRM (trust.test.ts) whether the subscription is current: it is (a forgery, 503).
	passLookupInterval();
	nock(API)
		.get(/^\/api\/v1\/webhooks\/[^/]+$/)
		.optionally()
		.times(50)
		.reply(200, (uri) => ({ ...AT_CRM, id: uri.split('/').pop() }));
});
afterEach(() => {
	// Only that question (and a renewal, which the POST unmocked here fails) is ever asked by a delivery without Output Full Record.
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});
afterAll(() => {
	nock.enableNetConnect();
	expect(statuses).not.toContain(410);
	const text = JSON.stringify({ everything, loggedMessages });
	for (const part of [...secretParts(SECRET), ...secretParts(OLD_SECRET)])
		expect(text).not.toContain(part);
});

describe('a verified delivery', () => {
	it('starts one execution with one item (event, timestamp, payload, webhookId), answered 200 first; the credential is read once', async () => {
		const body = event();
		const delivered = await deliver({ rawBody: body, id: 'msg_valid_1' });
		const json = {
			event: 'lead.created',
			timestamp: '2024-05-01T10:00:00.000Z',
			payload: { id: 'lead_1', name: 'Jane Doe', value: 1200 },
			webhookId: 'msg_valid_1',
		};
		expect(delivered.result).toEqual({ noWebhookResponse: true, workflowData: [[{ json }]] });
		// Answered before the execution starts (so that n8n saves the remembered id, see delivery.ts).
		expect(delivered.status).toBe(200);
		expect(delivered.body).toEqual({ received: true });
		// Once: to check that the stored secret is wrapped under its current API key.
		expect(delivered.parts.credentialsHelper.getDecryptedCalls).toBe(1);
	});

	it('is verified on the raw bytes, not on the parsed body', async () => {
		// Spaces and key order that JSON.stringify would not reproduce.
		const raw =
			'{ "payload" : {"id":"lead_9"},\n  "event": "lead.created", "timestamp": "2024-05-01T10:00:00Z" }';
		const delivered = await deliver({
			rawBody: raw,
			// What n8n parsed: irrelevant to the signature, and not what is emitted.
			body: { event: 'lead.created', payload: { id: 'tampered' } },
		});
		expect(delivered.items[0]).toMatchObject({ event: 'lead.created', payload: { id: 'lead_9' } });
	});

	it.each([
		[
			'a custom event name',
			event('invoice.overdue', { id: 'inv_1' }),
			{ events: ['lead.created'], options: { customEvents: 'invoice.overdue, client.created' } },
			expect.objectContaining({ event: 'invoice.overdue', payload: { id: 'inv_1' } }),
		],
		[
			'Payload Only: just the payload',
			event('lead.created', { id: 'lead_2', name: 'Ann' }),
			{ events: ['lead.created'], options: { payloadOnly: true } },
			{ id: 'lead_2', name: 'Ann' },
		],
		[
			'Payload Only: a payload that is not an object, wrapped',
			event('lead.created', [1, 2]),
			{ events: ['lead.created'], options: { payloadOnly: true } },
			{ payload: [1, 2] },
		],
	])('with %s', async (_case, rawBody, parameters, json) => {
		expect((await deliver({ rawBody, parameters })).items).toEqual([json]);
	});
});

// Which failure is which reason: signature.test's table. Here only how each kind is answered: a mismatch is 503
// ('a rejected delivery is not remembered' below), a header fault 401, an unusable signature 401.
describe('deliveries that fail verification start nothing: 401 for a header or signature fault', () => {
	const body = event();
	const headers = signedHeaders([SECRET], nextMessageId(), nowSeconds(), body);
	const v1a = {
		...headers,
		'webhook-signature': headers['webhook-signature'].replace(/^v1,/, 'v1a,'),
	};

	it.each([
		['no headers at all', {}, 'missing webhook-id header'],
		['only a v1a entry', v1a, 'no v1 signature in webhook-signature header'],
	])('%s: 401', async (_case, headers, reason) => {
		expectRefused(await deliver({ rawBody: body, headers }), 401, reason);
	});
});

describe('every refused delivery is logged as a warning, with the reason, never the secret or the body', () => {
	beforeEach(() => {
		loggedMessages.length = 0;
	});

	it.each([
		['no secret stored', 503, NO_SECRET_REASON, { staticData: {} }],
		['a forged signature', 503, ROTATED_REASON, { secrets: [OLD_SECRET] }],
		['a signed body that is not a delivery', 400, 'body is not JSON', { rawBody: 'SECRET-BODY' }],
	])('%s', async (_case, status, reason, options: DeliveryOptions) => {
		const id = `msg_logged_${status}`;
		const rawBody = event('lead.created', { id: 'lead_1', name: 'SECRET-BODY' });
		expect(await deliver({ rawBody, id, ...options })).toMatchObject({ status });
		// (A forged signature may also log the renewal it starts, at most once an hour: rotation.test.ts.)
		const refusals = warnings().filter((message) => message.includes('refused a delivery'));
		expect(refusals).toHaveLength(1);
		expect(refusals[0]).toContain(`refused a delivery with ${status}`);
		expect(refusals[0]).toContain(reason);
		expect(refusals[0]).toContain(id);
		expect(JSON.stringify(loggedMessages)).not.toContain('SECRET-BODY');
	});

	it('an accepted delivery logs no warning', async () => {
		await deliver({});
		expect(warnings()).toEqual([]);
	});
});

describe('verified deliveries that start nothing', () => {
	it('an event the user did not select is answered 200, ignored and not remembered', async () => {
		const staticData = storedSubscription();
		const delivered = await deliver({
			rawBody: event('invoice.paid', { id: 'inv_1' }),
			staticData,
			parameters: { events: ['lead.created'] },
		});
		expect(delivered).toMatchObject({ ran: false, status: 200 });
		expect(delivered.body).toEqual({
			received: true,
			ignored: 'event "invoice.paid" is not selected in this trigger',
		});
		expect(staticData.recentDeliveries).toBeUndefined();
	});

	it('a retry (same webhook-id, signed anew) of an accepted delivery is answered 200 and not emitted again; another id goes through', async () => {
		const [id, staticData] = [nextMessageId(), storedSubscription()];
		expect((await deliver({ id, staticData })).ran).toBe(true);
		const retry = await deliver({ id, timestamp: nowSeconds() + 5, staticData });
		expect(retry).toMatchObject({
			ran: false,
			status: 200,
			body: { received: true, duplicate: true },
		});
		expect((await deliver({ staticData })).ran).toBe(true);
	});

	it("two triggers whose CRMs number subscriptions and deliveries alike each run their delivery: the memory of accepted ids is each node's", async () => {
		const id = nextMessageId();
		const other = { workflowId: 'another-workflow' };
		expect((await deliver({ id, staticData: storedSubscription() })).ran).toBe(true);
		const elsewhere = await deliver({
			id,
			...other,
			staticData: storedSubscription({
				secretWrapped: wrapAsStored(SECRET, 'whk_1', undefined, other),
				ownerTag: tagFor('trigger', other),
			}),
		});
		expect(elsewhere).toMatchObject({ ran: true, status: 200, body: { received: true } });
	});

	it('a rejected delivery is not remembered: a correctly signed retry still goes through', async () => {
		const [id, staticData] = [nextMessageId(), storedSubscription()];
		const signed = signedHeaders([SECRET], id, nowSeconds(), event());
		const headers = { ...signed, 'webhook-signature': 'v1,AAAA' };
		const bad = await deliver({ id, staticData, headers });
		expectRefused(bad, 503, ROTATED_REASON);
		expect((await deliver({ id, staticData })).ran).toBe(true);
	});

	it.each([
		['', 'empty body'],
		['not JSON', 'body is not JSON'],
		['[1,2]', 'body is not a JSON object'],
		['{"payload":{}}', 'body has no event name'],
	])('a correctly signed body %p is answered 400', async (raw, reason) => {
		expectRefused(await deliver({ rawBody: raw }), 400, reason);
	});
});

import nock from 'nock';

import { FULL_RECORD_TIME_LIMIT_MS } from '../../../nodes/CrmInvoicing/trigger/item';
import { loggedMessages, TEST_CREDENTIALS } from '../../helpers/harness';
import { useNock } from '../../helpers/nock';
import { lead } from '../../helpers/records';
import {
	API,
	apiError,
	deliver as deliverTo,
	eventBody,
	expectNoUnansweredRequests,
	SECRET,
	type DeliveryOptions,
} from '../../helpers/trigger';

useNock();
expectNoUnansweredRequests();

/** The payload of spec §6 (not a Lead: stage and source as names, stageId and ownerId as numbers). */
const eventPayload = {
	id: 'lead_42',
	name: 'Jane Doe',
	email: 'jane@example.com',
	source: 'Website',
	stage: 'New',
	stageId: 7,
	ownerId: 1,
	ownerName: 'Ada Admin',
	archived: false,
};

/** The lead as GET /leads/{id} (and Lead → Get) gives it. */
const fullLead = lead('lead_42', {
	email: 'jane@example.com',
	website: 'https://doe.example',
	sourceId: 'src_web',
	stageId: 'lst_new',
});

const seen: unknown[] = [];
const FULL_RECORD = {
	events: ['lead.created', 'deal.stage_changed'],
	options: { fullRecord: true },
};
const LEAD = '/api/v1/leads/lead_42';

/** A delivery with the output of 0.2 (version 1); Simplify (version 2) is tested in test/unit/output/triggerSimplify.test.ts. */
async function deliver(options: DeliveryOptions & { event?: string; payload?: unknown } = {}) {
	const rawBody = eventBody(options.event, options.payload ?? eventPayload);
	const delivered = await deliverTo({
		parameters: FULL_RECORD,
		typeVersion: 1,
		...options,
		rawBody,
	});
	seen.push(delivered.result, delivered.body);
	return delivered;
}

const lastLog = () => loggedMessages.at(-1);

afterAll(() => {
	// Neither the API key nor the signing secret shows in any answer, output or log line.
	const text = JSON.stringify({ seen, loggedMessages });
	expect(text).not.toContain(TEST_CREDENTIALS.apiKey);
	expect(text).not.toContain(SECRET.slice('whsec_'.length));
});

it('Output Full Record outputs the lead as GET /leads/{id} gives it as the payload of a lead.created delivery; with Payload Only, the lead itself', async () => {
	const scope = nock(API)
		.matchHeader('x-api-key', TEST_CREDENTIALS.apiKey)
		.get(LEAD)
		.times(2)
		.reply(200, fullLead);
	const delivered = await deliver({ id: 'msg_full_1' });
	expect(delivered.status).toBe(200);
	expect(delivered.items).toEqual([
		{
			event: 'lead.created',
			timestamp: '2024-05-01T10:00:00.000Z',
			payload: fullLead,
			webhookId: 'msg_full_1',
		},
	]);
	const options = { fullRecord: true, payloadOnly: true };
	const payloadOnly = await deliver({ parameters: { events: ['lead.created'], options } });
	scope.done();
	expect(payloadOnly.items).toEqual([fullLead]);
});

it('reads nothing for events that are not lead events, nor when the option is off', async () => {
	// nock has no interceptor: any request would fail the delivery with a 503.
	const payload = { id: 'deal_1', stageId: 3 };
	const deal = await deliver({ event: 'deal.stage_changed', payload });
	expect(deal).toMatchObject({ status: 200, items: [{ payload }] });
	const off = await deliver({ parameters: { events: ['lead.created'], options: {} } });
	expect(off).toMatchObject({ status: 200, items: [{ payload: eventPayload }] });
});

it("answers 503 without remembering the delivery when the CRM fails (5xx), so the CRM's retry is emitted", async () => {
	nock(API).get(LEAD).reply(500, apiError('INTERNAL', 'boom'));
	const failed = await deliver({ id: 'msg_retry_1' });
	expect(failed).toMatchObject({ ran: false, status: 503 });
	expect(failed.body).toEqual({
		error: expect.stringMatching(/reading lead lead_42 failed: The CRM API answered 500/),
	});
	expect(failed.staticData.recentDeliveries ?? []).toEqual([]);
	expect(lastLog()?.level).toBe('warn');
	expect(lastLog()?.message).toMatch(
		/Output Full Record: reading lead lead_42 failed: .*500.*; the delivery is answered 503/,
	);
	// The CRM delivers the same message again (same webhook-id): now it is read and emitted, once.
	nock(API).get(LEAD).reply(200, fullLead);
	const retried = await deliver({ id: 'msg_retry_1', staticData: failed.staticData });
	expect(retried).toMatchObject({ status: 200, items: [{ payload: fullLead }] });
	expect(retried.items).toHaveLength(1);
	// A retry of an accepted delivery is a duplicate, answered without reading the lead (no GET is mocked).
	const again = await deliver({ id: 'msg_retry_1', staticData: retried.staticData });
	expect(again).toMatchObject({ ran: false, body: { received: true, duplicate: true } });
});

it('emits the payload as received with fullRecordError when the lead cannot be read (404): retrying would not help', async () => {
	nock(API).get(LEAD).reply(404, apiError('NOT_FOUND', 'Lead lead_42 was not found'));
	const delivered = await deliver();
	expect(delivered.status).toBe(200);
	expect(delivered.items).toEqual([
		expect.objectContaining({
			payload: eventPayload,
			fullRecordError: { message: expect.stringMatching(/404 NOT_FOUND/), httpCode: '404' },
		}),
	]);
	expect(lastLog()?.level).toBe('warn');
	expect(lastLog()?.message).toMatch(/output as received, with fullRecordError/);
});

it('emits the payload with fullRecordError when it has no lead id', async () => {
	const delivered = await deliver({ payload: { name: 'No id' } });
	expect(delivered.status).toBe(200);
	expect(delivered.items[0]).toMatchObject({
		payload: { name: 'No id' },
		fullRecordError: { message: expect.stringMatching(/no lead id/) },
	});
});

it(
	`answers 503 within ${FULL_RECORD_TIME_LIMIT_MS / 1000} s when the CRM does not answer (the CRM waits 20 s)`,
	async () => {
		// docs/trigger.md: the read gets at most 8 s of the CRM's 20 s. The lead would come 5 s past that.
		expect(FULL_RECORD_TIME_LIMIT_MS).toBeLessThanOrEqual(8_000);
		nock(API)
			.get(LEAD)
			.delay(FULL_RECORD_TIME_LIMIT_MS + 5_000)
			.reply(200, fullLead);
		expect((await deliver()).status).toBe(503);
		nock.abortPendingRequests();
	},
	FULL_RECORD_TIME_LIMIT_MS + 10_000,
);

// Last in the file: the 429 leaves the transport's pacer waiting for a minute (past the test's timeout).
it('does not wait out a long rate limit: 503 at once, and the next delivery sends no request at all', async () => {
	const scope = nock(API).get(LEAD).reply(429, {}, { 'Retry-After': '60' });
	const limited = await deliver();
	scope.done();
	expect(limited).toMatchObject({ status: 503, body: { error: expect.stringMatching(/429/) } });
	// The transport's pacing refusal (naming the key's rate limit): no request (expectNoUnansweredRequests).
	const next = await deliver();
	expect(next).toMatchObject({ status: 503, body: { error: expect.stringMatching(/rate limit/) } });
});

import nock from 'nock';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { FULL_RECORD_TIME_LIMIT_MS } from '../../../nodes/CrmInvoicing/trigger/webhook';
import { signedHeaders } from '../../helpers/signing';
import { createWebhookContext, loggedMessages, TEST_CREDENTIALS } from '../../helpers/harness';
import { useNock } from '../../helpers/nock';
import { API, nextMessageId, nodeType, nowSeconds, SECRET, storedSubscription } from './fixtures';

useNock();

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
const fullLead = {
	id: 'lead_42',
	number: 'L-00042',
	name: 'Jane Doe',
	email: 'jane@example.com',
	website: 'https://doe.example',
	sourceId: 'src_web',
	stageId: 'lst_new',
	archived: false,
	createdAt: '2026-01-02T03:04:05.000Z',
};

const seen: unknown[] = [];

async function deliver(options: {
	event?: string;
	payload?: unknown;
	parameters?: INodeParameters;
	id?: string;
	staticData?: IDataObject;
}) {
	const raw = JSON.stringify({
		event: options.event ?? 'lead.created',
		timestamp: '2026-11-23T01:00:00.000Z',
		payload: options.payload ?? eventPayload,
	});
	const rawBody = Buffer.from(raw, 'utf8');
	const parts = createWebhookContext({
		nodeType,
		parameters: options.parameters ?? {
			events: ['lead.created', 'deal.stage_changed'],
			options: { fullRecord: true },
		},
		staticData: options.staticData ?? storedSubscription(),
		headers: signedHeaders([SECRET], options.id ?? nextMessageId(), nowSeconds(), rawBody),
		rawBody,
		// The output of 0.2 (version 1); Simplify (version 2) has its tests in test/unit/output/triggerSimplify.test.ts.
		typeVersion: 1,
	});
	const result = await nodeType.webhook.call(parts.context);
	seen.push(result, parts.response.sentBody);
	return {
		result,
		status: parts.response.statusCode,
		body: parts.response.sentBody,
		items: (result.workflowData?.[0] ?? []).map((item) => item.json),
		staticData: parts.staticData,
	};
}

describe('trigger option "Output Full Record"', () => {
	afterAll(() => {
		// Neither the API key nor the signing secret shows in any answer, output or log line.
		const text = JSON.stringify({ seen, loggedMessages });
		expect(text).not.toContain(TEST_CREDENTIALS.apiKey);
		expect(text).not.toContain(SECRET.slice('whsec_'.length));
	});

	it('outputs the lead as GET /leads/{id} gives it as the payload of a lead.created delivery', async () => {
		const scope = nock(API)
			.matchHeader('x-api-key', TEST_CREDENTIALS.apiKey)
			.get('/api/v1/leads/lead_42')
			.reply(200, fullLead);

		const delivered = await deliver({ id: 'msg_full_1' });

		expect(scope.isDone()).toBe(true);
		expect(delivered.status).toBe(200);
		expect(delivered.items).toEqual([
			{
				event: 'lead.created',
				timestamp: '2026-11-23T01:00:00.000Z',
				payload: fullLead,
				webhookId: 'msg_full_1',
			},
		]);
	});

	it('outputs the lead itself with Payload Only', async () => {
		nock(API).get('/api/v1/leads/lead_42').reply(200, fullLead);
		const delivered = await deliver({
			parameters: { events: ['lead.created'], options: { fullRecord: true, payloadOnly: true } },
		});
		expect(delivered.items).toEqual([fullLead]);
	});

	it('reads nothing for events that are not lead events, nor when the option is off', async () => {
		// nock has no interceptor: any request would fail the delivery with a 503.
		const deal = await deliver({
			event: 'deal.stage_changed',
			payload: { id: 'deal_1', stageId: 3 },
		});
		expect(deal.status).toBe(200);
		expect(deal.items[0].payload).toEqual({ id: 'deal_1', stageId: 3 });

		const off = await deliver({ parameters: { events: ['lead.created'], options: {} } });
		expect(off.status).toBe(200);
		expect(off.items[0].payload).toEqual(eventPayload);
	});

	it("answers 503 without remembering the delivery when the CRM fails (5xx), so the CRM's retry is emitted", async () => {
		nock(API)
			.get('/api/v1/leads/lead_42')
			.reply(500, { error: { code: 'INTERNAL', message: 'boom' } });
		const failed = await deliver({ id: 'msg_retry_1' });
		expect(failed.status).toBe(503);
		expect(failed.body).toEqual({
			error: expect.stringMatching(/reading lead lead_42 failed: The CRM API answered 500/),
		});
		expect(failed.result.workflowData).toBeUndefined();
		expect(failed.staticData.recentDeliveries ?? []).toEqual([]);
		expect(loggedMessages.at(-1)).toMatchObject({
			level: 'warn',
			message: expect.stringMatching(
				/Output Full Record: reading lead lead_42 failed: .*500.*; the delivery is answered 503/,
			),
		});

		// The CRM delivers the same message again (same webhook-id): now it is read and emitted, once.
		nock(API).get('/api/v1/leads/lead_42').reply(200, fullLead);
		const retried = await deliver({ id: 'msg_retry_1', staticData: failed.staticData });
		expect(retried.status).toBe(200);
		expect(retried.items).toHaveLength(1);
		expect(retried.items[0].payload).toEqual(fullLead);
	});

	it('emits the payload as received with fullRecordError when the lead cannot be read (404): retrying would not help', async () => {
		nock(API)
			.get('/api/v1/leads/lead_42')
			.reply(404, { error: { code: 'NOT_FOUND', message: 'Lead lead_42 was not found' } });
		const delivered = await deliver({});
		expect(delivered.status).toBe(200);
		expect(delivered.items).toHaveLength(1);
		expect(delivered.items[0].payload).toEqual(eventPayload);
		expect(delivered.items[0].fullRecordError).toEqual({
			message: expect.stringMatching(/404 NOT_FOUND/),
			httpCode: '404',
		});
		expect(loggedMessages.at(-1)).toMatchObject({
			level: 'warn',
			message: expect.stringMatching(/output as received, with fullRecordError/),
		});
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
			nock(API)
				.get('/api/v1/leads/lead_42')
				.delay(FULL_RECORD_TIME_LIMIT_MS + 5_000)
				.reply(200, fullLead);
			const started = Date.now();
			const delivered = await deliver({});
			const took = Date.now() - started;
			expect(delivered.status).toBe(503);
			expect(took).toBeGreaterThanOrEqual(FULL_RECORD_TIME_LIMIT_MS - 200);
			expect(took).toBeLessThan(FULL_RECORD_TIME_LIMIT_MS + 2_000);
			nock.abortPendingRequests();
		},
		FULL_RECORD_TIME_LIMIT_MS + 10_000,
	);

	// Last in the file: the 429 leaves the transport's pacer waiting for a minute.
	it('does not wait out a long rate limit: 503 at once, and the next delivery sends no request at all', async () => {
		const scope = nock(API).get('/api/v1/leads/lead_42').reply(429, {}, { 'Retry-After': '60' });
		const started = Date.now();
		const limited = await deliver({});
		expect(scope.isDone()).toBe(true);
		expect(limited.status).toBe(503);
		expect(limited.body).toEqual({ error: expect.stringMatching(/429/) });

		const unmatched: string[] = [];
		const listener = (request: { path?: string }) => unmatched.push(request.path ?? '');
		nock.emitter.on('no match', listener);
		try {
			const next = await deliver({});
			expect(next.status).toBe(503);
			// The transport's pacing refusal (its text names the key's rate limit), not a request sent.
			expect(next.body).toEqual({ error: expect.stringMatching(/rate limit/) });
			expect(unmatched).toEqual([]);
		} finally {
			nock.emitter.removeListener('no match', listener);
		}
		expect(Date.now() - started).toBeLessThan(2_000);
	});
});

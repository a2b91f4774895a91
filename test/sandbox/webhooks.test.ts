/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
import { createHmac } from 'node:crypto';

import { Webhook } from 'standardwebhooks';

import { RETRY_SCHEDULE_MS, startSandbox } from './server';
import type { Sandbox, SandboxOptions } from './types';
import { call, type Receiver, startReceiver, waitFor } from './helpers';

jest.setTimeout(20_000);

const opened: Array<{ close(): Promise<void> }> = [];
async function sandboxWith(options: SandboxOptions = {}): Promise<Sandbox> {
	const sandbox = await startSandbox({ rateLimit: false, ...options });
	opened.push(sandbox);
	return sandbox;
}
async function receiverWith(respond?: Receiver['respond']): Promise<Receiver> {
	const receiver = await startReceiver(respond);
	opened.push(receiver);
	return receiver;
}
afterEach(async () => {
	await Promise.all(opened.splice(0).map((item) => item.close()));
});

async function subscribe(
	sandbox: Sandbox,
	url: string,
	events: string[],
): Promise<{ id: string; secret: string }> {
	const response = await call(sandbox, 'POST', '/api/v1/webhooks', {
		body: { name: 'Test hook', url, events },
	});
	expect(response.status).toBe(200);
	return response.body;
}

async function createLead(
	sandbox: Sandbox,
	body: Record<string, unknown> = { name: 'Webhook Lead' },
): Promise<{ id: string }> {
	const response = await call(sandbox, 'POST', '/api/v1/leads', { body });
	expect(response.status).toBe(200);
	return response.body;
}

describe('webhook subscriptions API', () => {
	it('creates a subscription with a whsec_ secret returned once, and warns about http URLs', async () => {
		const sandbox = await sandboxWith();
		const http = await call(sandbox, 'POST', '/api/v1/webhooks', {
			body: { name: 'Local', url: 'http://localhost:9/hook', events: ['lead.created'] },
		});
		expect(http.status).toBe(200);
		expect(http.body).toEqual({
			id: expect.stringMatching(/^whk_/),
			name: 'Local',
			url: 'http://localhost:9/hook',
			events: ['lead.created'],
			status: 'active',
			secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
			createdAt: expect.any(String),
			warnings: ['Webhook URL is not HTTPS; use HTTPS in production.'],
		});
		expect(Buffer.from(http.body.secret.slice(6), 'base64')).toHaveLength(24);

		const https = await call(sandbox, 'POST', '/api/v1/webhooks', {
			body: {
				name: 'Prod',
				url: 'https://example.com/hook',
				events: ['deal.updated', 'lead.created'],
			},
		});
		expect(https.body.warnings).toBeUndefined();
		expect(https.body.secret).not.toBe(http.body.secret);

		const one = await call(sandbox, 'GET', `/api/v1/webhooks/${http.body.id}`);
		expect(one.body).toEqual({
			id: http.body.id,
			name: 'Local',
			url: 'http://localhost:9/hook',
			events: ['lead.created'],
			status: 'active',
			createdAt: http.body.createdAt,
		});

		const list = await call(sandbox, 'GET', '/api/v1/webhooks?limit=1');
		expect(list.body.items).toEqual([one.body]);
		expect(list.body.hasMore).toBe(true);
		const next = await call(
			sandbox,
			'GET',
			`/api/v1/webhooks?limit=1&cursor=${list.body.nextCursor}`,
		);
		expect(next.body).toMatchObject({ hasMore: false, nextCursor: null });
		expect(next.body.items[0].id).toBe(https.body.id);
		expect(next.body.items[0].secret).toBeUndefined();

		const control = (await (await fetch(`${sandbox.url}/__sandbox/webhooks`)).json()) as Array<{
			id: string;
			secret: string;
		}>;
		expect(control.map((item) => [item.id, item.secret])).toEqual([
			[http.body.id, http.body.secret],
			[https.body.id, https.body.secret],
		]);

		const deleted = await call(sandbox, 'DELETE', `/api/v1/webhooks/${http.body.id}`);
		expect(deleted.status).toBe(204);
		expect(deleted.text).toBe('');
		expect((await call(sandbox, 'GET', `/api/v1/webhooks/${http.body.id}`)).status).toBe(404);
		expect((await call(sandbox, 'GET', '/api/v1/webhooks')).body.items).toHaveLength(1);
	});

	it.each([
		[{ url: 'https://x.test', events: ['lead.created'] }, 'name is required'],
		[{ name: 'n', events: ['lead.created'] }, 'url is required'],
		[
			{ name: 'n', url: 'ftp://x.test', events: ['lead.created'] },
			'url must be a valid http or https URL',
		],
		[
			{ name: 'n', url: 'not a url', events: ['lead.created'] },
			'url must be a valid http or https URL',
		],
		[{ name: 'n', url: 'https://x.test' }, 'events is required'],
		[{ name: 'n', url: 'https://x.test', events: [] }, 'events must contain at least 1 event'],
		[
			{ name: 'n', url: 'https://x.test', events: 'lead.created' },
			'events must be an array of event names',
		],
	])('rejects %j with "%s"', async (body, message) => {
		const sandbox = await sandboxWith();
		const response = await call(sandbox, 'POST', '/api/v1/webhooks', { body });
		expect(response.status).toBe(400);
		expect(response.body).toEqual({ error: { code: 'VALIDATION_ERROR', message } });
	});
});

describe('signed deliveries', () => {
	it('delivers lead.created with Standard Webhooks headers and a verifiable signature', async () => {
		const sandbox = await sandboxWith();
		const receiver = await receiverWith();
		const { id: subscriptionId, secret } = await subscribe(sandbox, receiver.url, ['lead.created']);
		const lead = await createLead(sandbox, {
			name: 'Signed Lead',
			email: 'signed@example.com',
			stageId: 'lst_contacted',
			sourceId: 'src_web',
			value: 42,
			customFields: { a: 1 },
		});

		const [request] = await waitFor(
			() => receiver.received.length > 0 && receiver.received,
			3_000,
			'a delivery',
		);
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/hook');
		expect(request.headers['content-type']).toBe('application/json');
		expect(request.headers['user-agent']).toBe('CRM-Sandbox-Webhooks/1.0');
		expect(request.headers['webhook-id']).toMatch(/^msg_/);
		expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(
			5,
		);
		expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);

		const verified = new Webhook(secret).verify(request.rawBody, request.headers) as {
			event: string;
			timestamp: string;
			payload: Record<string, unknown>;
		};
		expect(verified.event).toBe('lead.created');
		expect(Math.abs(Date.parse(verified.timestamp) - Date.now())).toBeLessThan(5_000);
		expect(verified.payload).toEqual({
			id: lead.id,
			name: 'Signed Lead',
			email: 'signed@example.com',
			mobile: null,
			title: null,
			value: 42,
			source: 'Website',
			stage: 'Contacted',
			stageId: 2,
			archived: false,
			createdAt: sandbox.state.leads.get(lead.id)?.createdAt,
			customFields: { a: 1 },
			ownerId: 1,
			ownerName: 'Ada Admin',
		});
		// A different secret does not verify.
		expect(() =>
			new Webhook('whsec_' + Buffer.alloc(24, 7).toString('base64')).verify(
				request.rawBody,
				request.headers,
			),
		).toThrow();

		await waitFor(() => sandbox.deliveries.length === 1, 2_000, 'the delivery log');
		expect(sandbox.deliveries[0]).toEqual({
			subscriptionId,
			webhookId: request.headers['webhook-id'],
			event: 'lead.created',
			attempt: 1,
			url: receiver.url,
			status: 200,
			outcome: 'delivered',
			at: expect.any(String),
		});
	});

	it('delivers only the selected events, for leads, deals and invoices', async () => {
		const sandbox = await sandboxWith();
		const receiver = await receiverWith();
		const events = [
			'lead.updated',
			'deal.created',
			'deal.updated',
			'deal.stage_changed',
			'invoice.created',
			'invoice.paid',
		];
		const { secret } = await subscribe(sandbox, receiver.url, events);
		const lead = await createLead(sandbox);
		await call(sandbox, 'PATCH', `/api/v1/leads/${lead.id}`, { body: { archived: true } });
		const clientId = sandbox.state.clients.values()[0].id;
		const deal = (
			await call(sandbox, 'POST', '/api/v1/deals', {
				body: { title: 'D', pipelineId: 'pip_sales', stageId: 'stg_new', clientId },
			})
		).body;
		await call(sandbox, 'PATCH', `/api/v1/deals/${deal.id}`, { body: { price: 10 } });
		await call(sandbox, 'PATCH', `/api/v1/deals/${deal.id}`, {
			body: { stageId: 'stg_qualified' },
		});
		const invoice = (
			await call(sandbox, 'POST', '/api/v1/invoices', {
				body: {
					clientId,
					date: '2024-01-01T00:00:00Z',
					dueDate: '2024-01-31T00:00:00Z',
					lineItems: [{ name: 'x', price: 10 }],
				},
			})
		).body;
		const paid = await fetch(`${sandbox.url}/__sandbox/invoices/${invoice.id}/pay`, {
			method: 'POST',
		});
		expect(paid.status).toBe(200);
		expect(await paid.json()).toMatchObject({
			id: invoice.id,
			status: 'PAID',
			paidTotal: 10,
			pendingTotal: 0,
		});

		await waitFor(
			() => receiver.received.length >= 7 && sandbox.deliveries.length >= 7,
			3_000,
			'7 deliveries',
		);
		const bodies = receiver.received.map(
			(request) =>
				new Webhook(secret).verify(request.rawBody, request.headers) as {
					event: string;
					payload: Record<string, any>;
				},
		);
		const byEvent = (event: string) => bodies.filter((body) => body.event === event);
		expect(bodies.map((body) => body.event).sort()).toEqual(
			[
				'deal.created',
				'deal.stage_changed',
				'deal.updated',
				'deal.updated',
				'invoice.created',
				'invoice.paid',
				'lead.updated',
			].sort(),
		);
		expect(byEvent('lead.updated')[0].payload).toMatchObject({ id: lead.id, archived: true });
		expect(byEvent('deal.created')[0].payload).toMatchObject({
			id: deal.id,
			title: 'D',
			status: 'ACTIVE',
		});
		expect(byEvent('deal.stage_changed')[0].payload).toMatchObject({
			id: deal.id,
			stageId: 'stg_qualified',
			previousStageId: 'stg_new',
		});
		expect(byEvent('invoice.created')[0].payload).toMatchObject({ id: invoice.id, total: 10 });
		expect(byEvent('invoice.paid')[0].payload).toMatchObject({ id: invoice.id, status: 'PAID' });
		expect(new Set(receiver.received.map((request) => request.headers['webhook-id'])).size).toBe(7);

		const again = await fetch(`${sandbox.url}/__sandbox/invoices/${invoice.id}/pay`, {
			method: 'POST',
		});
		expect(again.status).toBe(400);
		expect(
			(await fetch(`${sandbox.url}/__sandbox/invoices/inv_nope/pay`, { method: 'POST' })).status,
		).toBe(404);
	});

	it('does not hold the API response while the endpoint is slow', async () => {
		const sandbox = await sandboxWith({ deliveryTimeoutMs: 10_000 });
		const receiver = await receiverWith(() => 'hang');
		await subscribe(sandbox, receiver.url, ['lead.created']);
		const started = Date.now();
		await createLead(sandbox);
		expect(Date.now() - started).toBeLessThan(1_000);
		await waitFor(() => receiver.received.length === 1, 2_000, 'the hanging delivery');
		expect(sandbox.deliveries).toHaveLength(0);
	});

	it('emits arbitrary events through emit() and the control endpoint', async () => {
		const sandbox = await sandboxWith();
		const receiver = await receiverWith();
		const { secret } = await subscribe(sandbox, receiver.url, ['custom.event']);
		expect(sandbox.emit('other.event', {})).toEqual([]);
		const ids = sandbox.emit('custom.event', { n: 1 });
		expect(ids).toHaveLength(1);
		const response = await fetch(`${sandbox.url}/__sandbox/emit`, {
			method: 'POST',
			body: JSON.stringify({ event: 'custom.event', payload: { n: 2 } }),
		});
		expect(response.status).toBe(200);
		expect(((await response.json()) as { webhookIds: string[] }).webhookIds).toHaveLength(1);
		await waitFor(() => receiver.received.length === 2, 2_000, 'two deliveries');
		const payloads = receiver.received
			.map(
				(request) =>
					(
						new Webhook(secret).verify(request.rawBody, request.headers) as {
							payload: { n: number };
						}
					).payload.n,
			)
			.sort();
		expect(payloads).toEqual([1, 2]);
		expect(receiver.received.map((request) => request.headers['webhook-id'])).toContain(ids[0]);
	});
});

describe('retries', () => {
	it('retries 5xx on the §8 schedule (scaled) with the same webhook-id, then fails permanently after 10 attempts', async () => {
		const timeScale = 0.00001;
		const sandbox = await sandboxWith({ timeScale });
		const receiver = await receiverWith(() => 500);
		const { secret } = await subscribe(sandbox, receiver.url, ['lead.created']);
		await createLead(sandbox);

		await waitFor(() => sandbox.deliveries.length === 10, 10_000, '10 attempts');
		await sandbox.deliveriesSettled(1_000);
		expect(receiver.received).toHaveLength(10);
		expect(sandbox.deliveries.map((entry) => entry.attempt)).toEqual([
			1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
		]);
		expect(sandbox.deliveries.map((entry) => entry.status)).toEqual(Array(10).fill(500));
		expect(sandbox.deliveries.map((entry) => entry.outcome)).toEqual([
			...Array(9).fill('retrying'),
			'permanently_failed',
		]);
		expect(new Set(receiver.received.map((request) => request.headers['webhook-id'])).size).toBe(1);
		expect(new Set(receiver.received.map((request) => request.rawBody)).size).toBe(1);
		for (const request of receiver.received)
			expect(() => new Webhook(secret).verify(request.rawBody, request.headers)).not.toThrow();

		// Each attempt comes no earlier than the scheduled (scaled) delay after the previous one.
		const first = receiver.received[0].receivedAt;
		let cumulative = 0;
		receiver.received.forEach((request, index) => {
			cumulative += RETRY_SCHEDULE_MS[index] * timeScale;
			expect(request.receivedAt - first).toBeGreaterThanOrEqual(Math.floor(cumulative) - 2);
		});
		expect(receiver.received[9].receivedAt - first).toBeGreaterThanOrEqual(2_700);

		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(receiver.received).toHaveLength(10);
	});

	it('retries 429 and 502 until a 2xx', async () => {
		const sandbox = await sandboxWith({ timeScale: 0.0001 });
		const statuses = [429, 502, 504, 204];
		const receiver = await receiverWith((index) => statuses[index] ?? 200);
		await subscribe(sandbox, receiver.url, ['lead.created']);
		await createLead(sandbox);
		await waitFor(() => sandbox.deliveries.length === 4, 5_000, '4 attempts');
		await sandbox.deliveriesSettled(1_000);
		expect(sandbox.deliveries.map((entry) => [entry.attempt, entry.status, entry.outcome])).toEqual(
			[
				[1, 429, 'retrying'],
				[2, 502, 'retrying'],
				[3, 504, 'retrying'],
				[4, 204, 'delivered'],
			],
		);
	});

	it('does not retry other 4xx answers', async () => {
		const sandbox = await sandboxWith({ timeScale: 0.0001 });
		const receiver = await receiverWith(() => 400);
		await subscribe(sandbox, receiver.url, ['lead.created']);
		await createLead(sandbox);
		await waitFor(() => sandbox.deliveries.length === 1, 2_000, 'one attempt');
		await sandbox.deliveriesSettled(1_000);
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(sandbox.deliveries.map((entry) => [entry.status, entry.outcome])).toEqual([
			[400, 'failed'],
		]);
		expect(receiver.received).toHaveLength(1);
		expect(sandbox.state.webhooks.values()[0].status).toBe('active');
	});

	it('disables the subscription on 410 and sends it nothing more', async () => {
		const sandbox = await sandboxWith({ timeScale: 0.0001 });
		const receiver = await receiverWith(() => 410);
		const { id } = await subscribe(sandbox, receiver.url, ['lead.created']);
		await createLead(sandbox);
		await waitFor(() => sandbox.deliveries.length === 1, 2_000, 'one attempt');
		expect(sandbox.deliveries[0]).toMatchObject({ status: 410, outcome: 'disabled' });
		expect((await call(sandbox, 'GET', `/api/v1/webhooks/${id}`)).body.status).toBe('disabled');

		receiver.respond = () => 200;
		await createLead(sandbox);
		expect(sandbox.emit('lead.created', {})).toEqual([]);
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(receiver.received).toHaveLength(1);
		expect(sandbox.deliveries).toHaveLength(1);
	});

	it('drops pending retries once the subscription is disabled or deleted', async () => {
		const sandbox = await sandboxWith({ timeScale: 0.05 });
		const receiver = await receiverWith((index) => (index === 0 ? 500 : 200));
		const { id } = await subscribe(sandbox, receiver.url, ['lead.created']);
		await createLead(sandbox);
		// Attempt 1 fails (500); attempt 2 is due 250 ms later, after the subscription is gone.
		await waitFor(() => sandbox.deliveries.length === 1, 2_000, 'first attempt');
		expect((await call(sandbox, 'DELETE', `/api/v1/webhooks/${id}`)).status).toBe(204);
		await sandbox.deliveriesSettled(1_000);
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(receiver.received).toHaveLength(1);
	});

	it('counts a missing answer within deliveryTimeoutMs as a timeout and retries', async () => {
		const sandbox = await sandboxWith({ timeScale: 0.0001, deliveryTimeoutMs: 200 });
		const receiver = await receiverWith((index) => (index === 0 ? 'hang' : 200));
		await subscribe(sandbox, receiver.url, ['lead.created']);
		const started = Date.now();
		await createLead(sandbox);
		await waitFor(() => sandbox.deliveries.length === 2, 3_000, 'two attempts');
		expect(sandbox.deliveries.map((entry) => [entry.attempt, entry.status, entry.outcome])).toEqual(
			[
				[1, 'timeout', 'retrying'],
				[2, 200, 'delivered'],
			],
		);
		expect(Date.now() - started).toBeGreaterThanOrEqual(200);
		expect(receiver.received[0].headers['webhook-id']).toBe(
			receiver.received[1].headers['webhook-id'],
		);
	});

	it('retries connection errors', async () => {
		const sandbox = await sandboxWith({ timeScale: 0.0001 });
		const closed = await startReceiver();
		await closed.close();
		await subscribe(sandbox, closed.url, ['lead.created']);
		await createLead(sandbox);
		await waitFor(() => sandbox.deliveries.length >= 2, 3_000, 'two attempts');
		expect(sandbox.deliveries[0]).toMatchObject({
			attempt: 1,
			status: 'error',
			outcome: 'retrying',
			error: expect.any(String),
		});
		expect(sandbox.deliveries[1]).toMatchObject({ attempt: 2, status: 'error' });
	});

	it('cancels pending retries on close()', async () => {
		const sandbox = await sandboxWith({ timeScale: 1 });
		const receiver = await receiverWith(() => 503);
		await subscribe(sandbox, receiver.url, ['lead.created']);
		await createLead(sandbox);
		await waitFor(() => sandbox.deliveries.length === 1, 2_000, 'first attempt');
		await expect(sandbox.deliveriesSettled(50)).rejects.toThrow(/pending/);
		await sandbox.close();
		await expect(sandbox.deliveriesSettled(50)).resolves.toBeUndefined();
		expect(sandbox.emit('lead.created', {})).toEqual([]);
	});
});

describe('secret rotation', () => {
	it('signs with both the new and the old secret during the rotation window', async () => {
		const sandbox = await sandboxWith();
		const receiver = await receiverWith();
		const { id, secret: oldSecret } = await subscribe(sandbox, receiver.url, ['lead.created']);
		const response = await fetch(`${sandbox.url}/__sandbox/webhooks/${id}/rotate`, {
			method: 'POST',
		});
		expect(response.status).toBe(200);
		const rotated = (await response.json()) as {
			id: string;
			secret: string;
			previousSecretExpiresAt: string;
		};
		expect(rotated.id).toBe(id);
		expect(rotated.secret).toMatch(/^whsec_/);
		expect(rotated.secret).not.toBe(oldSecret);
		expect(Date.parse(rotated.previousSecretExpiresAt)).toBeGreaterThan(
			Date.now() + 23 * 3_600_000,
		);

		await createLead(sandbox);
		const [request] = await waitFor(
			() => receiver.received.length > 0 && receiver.received,
			2_000,
			'a delivery',
		);
		const entries = request.headers['webhook-signature'].split(' ');
		expect(entries).toHaveLength(2);
		expect(() =>
			new Webhook(rotated.secret).verify(request.rawBody, request.headers),
		).not.toThrow();
		expect(() => new Webhook(oldSecret).verify(request.rawBody, request.headers)).not.toThrow();
		// Each entry on its own matches one secret: new first, then old.
		const expected = (secret: string) =>
			'v1,' +
			createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
				.update(
					`${request.headers['webhook-id']}.${request.headers['webhook-timestamp']}.${request.rawBody}`,
				)
				.digest('base64');
		expect(entries).toEqual([expected(rotated.secret), expected(oldSecret)]);
	});

	it('drops the old signature once the window has passed', async () => {
		const sandbox = await sandboxWith();
		const receiver = await receiverWith();
		const { id, secret: oldSecret } = await subscribe(sandbox, receiver.url, ['lead.created']);
		const rotated = sandbox.rotateWebhookSecret(id, 1);
		await new Promise((resolve) => setTimeout(resolve, 10));
		await createLead(sandbox);
		const [request] = await waitFor(
			() => receiver.received.length > 0 && receiver.received,
			2_000,
			'a delivery',
		);
		expect(request.headers['webhook-signature'].split(' ')).toHaveLength(1);
		expect(() =>
			new Webhook(rotated.secret).verify(request.rawBody, request.headers),
		).not.toThrow();
		expect(() => new Webhook(oldSecret).verify(request.rawBody, request.headers)).toThrow();
		expect(
			(await fetch(`${sandbox.url}/__sandbox/webhooks/whk_nope/rotate`, { method: 'POST' })).status,
		).toBe(404);
	});
});

describe('the rotation switch (POST /__sandbox/config {"rotation": …})', () => {
	/** Which of `secrets` sign each delivery of a lead created now, per subscription URL. */
	async function signers(sandbox: Sandbox, receiver: Receiver, secrets: Record<string, string>) {
		receiver.received.length = 0;
		await createLead(sandbox);
		await sandbox.deliveriesSettled();
		return receiver.received.map((request) =>
			Object.keys(secrets).filter((name) => {
				try {
					new Webhook(secrets[name]).verify(request.rawBody, request.headers);
					return true;
				} catch {
					return false;
				}
			}),
		);
	}
	const rotation = async (sandbox: Sandbox, phase: string) =>
		await call(sandbox, 'POST', '/__sandbox/config', { body: { rotation: phase } });
	/** A subscription's current secret, as the control endpoint shows it. */
	const secretOf = async (sandbox: Sandbox, id: string): Promise<string> =>
		(await call(sandbox, 'GET', '/__sandbox/webhooks')).body.find(
			(subscription: { id: string }) => subscription.id === id,
		).secret;

	it('"both" signs existing subscriptions with old and new secret, "new" with the new one only; later ones keep their own', async () => {
		const sandbox = await sandboxWith();
		const receiver = await receiverWith();
		const { id, secret: old } = await subscribe(sandbox, receiver.url, ['lead.created']);
		const both = await rotation(sandbox, 'both');
		expect(both.body.rotated).toEqual([id]);
		const rotated = await secretOf(sandbox, id);
		expect((await signers(sandbox, receiver, { old, rotated }))[0]).toEqual(['old', 'rotated']);
		await call(sandbox, 'DELETE', `/api/v1/webhooks/${id}`);
		const later = await subscribe(sandbox, receiver.url, ['lead.created']);
		expect((await rotation(sandbox, 'new')).body.rotated).toEqual([id]);
		expect(await secretOf(sandbox, later.id)).toBe(later.secret);
		expect(await signers(sandbox, receiver, { old, later: later.secret })).toEqual([['later']]);
		expect((await rotation(sandbox, 'sideways')).status).toBe(400);
	});

	it('"new" without "both" rotates with no overlap (a rotation the receiver missed)', async () => {
		const sandbox = await sandboxWith();
		const receiver = await receiverWith();
		const { id, secret: old } = await subscribe(sandbox, receiver.url, ['lead.created']);
		await rotation(sandbox, 'new');
		const rotated = await secretOf(sandbox, id);
		expect(await signers(sandbox, receiver, { old, rotated })).toEqual([['rotated']]);
	});
});

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
import * as http from 'node:http';

import { startSandbox } from './server';
import type { RequestLogEntry, Sandbox } from './types';
import { call, startReceiver, waitFor } from './helpers';

jest.setTimeout(15_000);

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ rateLimit: false });
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => {
	sandbox.reset();
});

async function control<T = any>(
	method: string,
	path: string,
	body?: unknown,
): Promise<{ status: number; body: T }> {
	const response = await fetch(`${sandbox.url}/__sandbox${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
		signal: AbortSignal.timeout(5_000),
	});
	const text = await response.text();
	return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

describe('request log', () => {
	it('records every /api request with method, path, query, headers, body and status', async () => {
		await call(sandbox, 'POST', '/api/v1/leads?dryRun=1', {
			body: { name: 'Logged' },
			headers: { 'X-Trace': 'abc' },
		});
		await call(sandbox, 'POST', '/api/v1/leads', { rawBody: 'not json' });
		await call(sandbox, 'GET', '/api/v1/leads', { key: null });
		expect(sandbox.requests).toHaveLength(3);
		const [created, invalid, unauthorized] = sandbox.requests;
		expect(created).toEqual({
			seq: expect.any(Number),
			method: 'POST',
			path: '/api/v1/leads',
			query: { dryRun: '1' },
			headers: expect.objectContaining({
				'x-api-key': sandbox.keys.admin,
				'x-trace': 'abc',
				'content-type': 'application/json',
			}),
			body: { name: 'Logged' },
			status: 200,
			at: expect.any(String),
		});
		expect(Math.abs(Date.parse(created.at) - Date.now())).toBeLessThan(5_000);
		expect(invalid).toMatchObject({ body: 'not json', status: 400 });
		expect(unauthorized).toMatchObject({ method: 'GET', body: undefined, status: 401 });
		expect(unauthorized.headers['x-api-key']).toBeUndefined();
		expect(invalid.seq).toBe(created.seq + 1);
	});

	it('is readable and clearable over HTTP, with ?since', async () => {
		await call(sandbox, 'GET', '/api/v1/users');
		await call(sandbox, 'GET', '/api/v1/users?limit=1');
		const all = await control<RequestLogEntry[]>('GET', '/requests');
		expect(all.status).toBe(200);
		expect(all.body.map((entry) => entry.query)).toEqual([{}, { limit: '1' }]);
		const since = await control<RequestLogEntry[]>('GET', `/requests?since=${all.body[0].seq}`);
		expect(since.body).toHaveLength(1);
		expect(since.body[0].query).toEqual({ limit: '1' });

		expect((await control('DELETE', '/requests')).status).toBe(204);
		expect(sandbox.requests).toHaveLength(0);
		await call(sandbox, 'GET', '/api/v1/users');
		// Sequence numbers keep increasing after a clear, so ?since stays meaningful.
		expect(sandbox.requests[0].seq).toBeGreaterThan(all.body[1].seq);
		sandbox.clearRequests();
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('faults', () => {
	it('answers the next N matching requests with a JSON error, then recovers', async () => {
		sandbox.addFault({ status: 503, count: 2, method: 'get', pathPrefix: '/api/v1/users' });
		// Not matching: other path, other method.
		expect((await call(sandbox, 'GET', '/api/v1/leads')).status).toBe(200);
		const first = await call(sandbox, 'GET', '/api/v1/users');
		expect(first.status).toBe(503);
		expect(first.body).toEqual({
			error: { code: 'INTERNAL_ERROR', message: 'Sandbox fault: 503 Service Unavailable' },
		});
		expect((await call(sandbox, 'GET', '/api/v1/users?limit=1')).status).toBe(503);
		expect((await call(sandbox, 'GET', '/api/v1/users')).status).toBe(200);
		expect(sandbox.requests.map((entry) => entry.status)).toEqual([200, 503, 503, 200]);
	});

	it('applies before authentication and can serve an HTML proxy page with extra headers', async () => {
		const added = await control('POST', '/faults', {
			status: 502,
			count: 1,
			html: true,
			headers: { 'retry-after': '2' },
		});
		expect(added.status).toBe(201);
		expect((await control<unknown[]>('GET', '/faults')).body).toHaveLength(1);
		const response = await call(sandbox, 'POST', '/api/v1/leads', {
			key: null,
			body: { name: 'x' },
		});
		expect(response.status).toBe(502);
		expect(response.headers.get('content-type')).toBe('text/html');
		expect(response.headers.get('retry-after')).toBe('2');
		expect(response.text).toContain('<title>502 Bad Gateway</title>');
		expect(() => JSON.parse(response.text)).toThrow();
		expect(sandbox.state.leads.size).toBe(3);
		expect(sandbox.requests[0]).toMatchObject({ status: 502, body: { name: 'x' } });
		expect((await control<unknown[]>('GET', '/faults')).body).toHaveLength(0);
	});

	it('delays the answer by delayMs', async () => {
		sandbox.addFault({ status: 429, count: 1, delayMs: 300 });
		const started = Date.now();
		const response = await call(sandbox, 'GET', '/api/v2/contacts');
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		expect(response.status).toBe(429);
		expect(response.body.error.code).toBe('RATE_LIMITED');
	});

	it('can close the connection without an answer', async () => {
		sandbox.addFault({ status: 500, count: 1, closeConnection: true, pathPrefix: '/api/v1/leads' });
		await expect(call(sandbox, 'GET', '/api/v1/leads')).rejects.toThrow();
		await waitFor(() => sandbox.requests.length === 1, 1_000, 'the log entry');
		expect(sandbox.requests[0]).toMatchObject({ path: '/api/v1/leads', status: 0 });
		expect((await call(sandbox, 'GET', '/api/v1/leads')).status).toBe(200);
	});

	it('validates faults and clears them', async () => {
		expect((await control('POST', '/faults', { count: 1 })).status).toBe(400);
		expect((await control('POST', '/faults', { status: 99, count: 1 })).status).toBe(400);
		expect((await control('POST', '/faults', { status: 500, count: 0 })).status).toBe(400);
		expect(() => sandbox.addFault({ status: 500, count: -1 })).toThrow(
			'count must be a positive integer',
		);
		sandbox.addFault({ status: 500, count: 100 });
		expect((await control('DELETE', '/faults')).status).toBe(204);
		expect((await call(sandbox, 'GET', '/api/v1/users')).status).toBe(200);
	});
});

describe('control endpoints', () => {
	it('reports health without auth', async () => {
		const health = await control('GET', '/health');
		expect(health.status).toBe(200);
		expect(health.body).toMatchObject({ status: 'ok', url: sandbox.url, counts: { leads: 3 } });
	});

	it('seeds 10,000 leads and pages through all of them by cursor', async () => {
		// Speed is measured in bench/, not asserted here: timed assertions fail on a loaded machine.
		const seeded = await control('POST', '/seed', { leads: 10_000 });
		expect(seeded.body).toEqual({ added: 10_000, total: 10_003 });
		expect(new Set(sandbox.state.leads.values().map((lead) => lead.id)).size).toBe(10_003);
		expect(sandbox.state.leads.values()[10_002].number).toBe('L-10003');

		let cursor: string | null = null;
		let count = 0;
		do {
			const response: { body: { items: unknown[]; nextCursor: string | null } } = await call(
				sandbox,
				'GET',
				`/api/v1/leads?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
			);
			count += response.body.items.length;
			cursor = response.body.nextCursor;
		} while (cursor);
		expect(count).toBe(10_003);
		expect((await control('POST', '/seed', { leads: -1 })).status).toBe(400);
	});

	it('resets data, logs, subscriptions and faults but keeps the config', async () => {
		sandbox.setTimeScale(0.5);
		await call(sandbox, 'POST', '/api/v1/leads', { body: { name: 'Temp' } });
		await call(sandbox, 'POST', '/api/v1/webhooks', {
			body: { name: 'w', url: 'https://example.com', events: ['x'] },
		});
		sandbox.seedLeads(5);
		sandbox.addFault({ status: 500, count: 5, pathPrefix: '/api/v9' });
		expect((await control('POST', '/reset')).status).toBe(200);
		expect(sandbox.state.leads.size).toBe(3);
		expect(sandbox.state.webhooks.size).toBe(0);
		expect(sandbox.requests).toHaveLength(0);
		expect((await control<unknown[]>('GET', '/faults')).body).toHaveLength(0);
		expect(sandbox.config.timeScale).toBe(0.5);
		expect(
			(await call(sandbox, 'POST', '/api/v1/leads', { body: { name: 'After' } })).body.number,
		).toBe('L-00004');
		expect((await control('POST', '/config', { timeScale: 1 })).body).toMatchObject({
			timeScale: 1,
			rateLimit: false,
		});
		expect((await control('POST', '/config', { timeScale: -1 })).status).toBe(400);
	});

	it('restores the seedLeads option on reset', async () => {
		const seeded = await startSandbox({ rateLimit: false, seedLeads: 25 });
		try {
			expect(seeded.state.leads.size).toBe(28);
			seeded.seedLeads(10);
			seeded.reset();
			expect(seeded.state.leads.size).toBe(28);
		} finally {
			await seeded.close();
		}
	});

	it('lists delivery attempts', async () => {
		const receiver = await startReceiver();
		try {
			await call(sandbox, 'POST', '/api/v1/webhooks', {
				body: { name: 'w', url: receiver.url, events: ['lead.created'] },
			});
			await call(sandbox, 'POST', '/api/v1/leads', { body: { name: 'Hooked' } });
			await waitFor(() => sandbox.deliveries.length === 1, 2_000, 'a delivery');
			const deliveries = await control<unknown[]>('GET', '/deliveries');
			expect(deliveries.body).toEqual([
				expect.objectContaining({ event: 'lead.created', status: 200, attempt: 1 }),
			]);
			expect((await control('DELETE', '/deliveries')).status).toBe(204);
			expect(sandbox.deliveries).toHaveLength(0);
		} finally {
			await receiver.close();
		}
	});

	it('answers 404 for unknown control routes and 400 for bad JSON', async () => {
		expect((await control('GET', '/nothing')).status).toBe(404);
		const response = await fetch(`${sandbox.url}/__sandbox/seed`, { method: 'POST', body: '{' });
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({
			error: { code: 'VALIDATION_ERROR', message: 'The request body is not valid JSON' },
		});
	});

	it('closes cleanly while a client keeps a connection open', async () => {
		const other = await startSandbox({ rateLimit: false });
		const agent = new http.Agent({ keepAlive: true });
		await new Promise<void>((resolve, reject) => {
			http
				.get(`${other.url}/__sandbox/health`, { agent }, (res) => {
					res.resume();
					res.on('end', resolve);
				})
				.on('error', reject);
		});
		const started = Date.now();
		await other.close();
		expect(Date.now() - started).toBeLessThan(1_000);
		agent.destroy();
	});
});

describe('the key switch (a key rotation)', () => {
	const NEW_KEY = 'sk_sandbox_rotated_key_0001';

	it('adds a key of the workspace (POST /keys), which acts for its user, and revokes one (DELETE /keys/{key}): 401 from then on', async () => {
		expect((await call(sandbox, 'GET', '/api/v1/users', { key: NEW_KEY })).status).toBe(401);
		expect(await control('POST', '/keys', { key: NEW_KEY })).toEqual({
			status: 201,
			body: { key: NEW_KEY, role: 'admin' },
		});
		// The new key sees and changes the same workspace as the admin key: what one creates, the other reads.
		const created = await call(sandbox, 'POST', '/api/v1/webhooks', {
			key: NEW_KEY,
			body: { name: 'rotated', url: 'https://n8n.example.com/h', events: ['lead.created'] },
		});
		expect(created.status).toBe(200);
		expect((await call(sandbox, 'GET', `/api/v1/webhooks/${created.body.id}`)).status).toBe(200);

		// The old key is revoked: 401 for it, the new key goes on working.
		expect(
			(await control('DELETE', `/keys/${encodeURIComponent(sandbox.keys.admin)}`)).status,
		).toBe(204);
		const refused = await call(sandbox, 'GET', '/api/v1/users');
		expect(refused.status).toBe(401);
		expect(refused.body).toEqual({
			error: { code: 'UNAUTHORIZED', message: 'The API key in the x-api-key header is not valid.' },
		});
		expect(
			(await call(sandbox, 'GET', `/api/v1/webhooks/${created.body.id}`, { key: NEW_KEY })).status,
		).toBe(200);

		// Reset brings back the seeded keys and forgets the added one.
		sandbox.reset();
		expect((await call(sandbox, 'GET', '/api/v1/users')).status).toBe(200);
		expect((await call(sandbox, 'GET', '/api/v1/users', { key: NEW_KEY })).status).toBe(401);
	});

	it('an added read-only key is refused writes (403), as the seeded read-only key', async () => {
		await control('POST', '/keys', { key: NEW_KEY, role: 'readOnly' });
		expect((await call(sandbox, 'GET', '/api/v1/users', { key: NEW_KEY })).status).toBe(200);
		expect(
			(await call(sandbox, 'POST', '/api/v1/leads', { key: NEW_KEY, body: { name: 'No' } })).status,
		).toBe(403);
	});

	it('refuses a key that is too short or has spaces, and an unknown role', async () => {
		expect((await control('POST', '/keys', { key: 'short' })).status).toBe(400);
		expect((await control('POST', '/keys', { key: 'sk with spaces 123' })).status).toBe(400);
		expect((await control('POST', '/keys', { key: NEW_KEY, role: 'owner' })).status).toBe(400);
	});
});

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** The sandbox faults of issue 17: hang, trickle, endless body, a 401 that echoes the key, 200 HTML, 200 JSON without id. */
import * as http from 'node:http';

import { startSandbox } from './server';
import type { Sandbox } from './types';
import { call, waitFor } from './helpers';

jest.setTimeout(15_000);

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ rateLimit: false });
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => sandbox.reset());

async function addFault(fault: unknown): Promise<number> {
	const response = await fetch(`${sandbox.url}/__sandbox/faults`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(fault),
	});
	return response.status;
}

/** A raw GET that records when the headers and each chunk came; aborted after `abortAfterMs`. */
function rawGet(
	path: string,
	abortAfterMs: number,
): Promise<{ status?: number; chunks: number[]; bytes: number; ended: boolean }> {
	return new Promise((resolve) => {
		const started = Date.now();
		const result: { status?: number; chunks: number[]; bytes: number; ended: boolean } = {
			chunks: [],
			bytes: 0,
			ended: false,
		};
		const request = http.get(
			`${sandbox.url}${path}`,
			{ headers: { 'x-api-key': sandbox.keys.admin } },
			(response) => {
				result.status = response.statusCode;
				response.on('data', (chunk: Buffer) => {
					result.chunks.push(Date.now() - started);
					result.bytes += chunk.length;
				});
				response.on('end', () => {
					result.ended = true;
					resolve(result);
				});
			},
		);
		request.on('error', () => resolve(result));
		setTimeout(() => {
			request.destroy();
			resolve(result);
		}, abortAfterMs).unref();
	});
}

describe('hang', () => {
	it('accepts the request and never answers', async () => {
		expect(await addFault({ status: 200, hang: true, pathPrefix: '/api/v1/leads' })).toBe(201);
		const result = await rawGet('/api/v1/leads/lead_1', 800);
		expect(result.status).toBeUndefined();
		expect(sandbox.requests.map((entry) => [entry.path, entry.status])).toEqual([
			['/api/v1/leads/lead_1', 0],
		]);
	});
});

describe('trickle', () => {
	it('sends the headers at once, then one byte per interval of a JSON body padded with spaces', async () => {
		expect(await addFault({ status: 200, trickle: { intervalMs: 100, bytes: 1000 } })).toBe(201);
		const result = await rawGet('/api/v1/leads/lead_1', 750);
		expect(result.status).toBe(200);
		expect(result.ended).toBe(false);
		expect(result.bytes).toBeGreaterThanOrEqual(4);
		expect(result.bytes).toBeLessThanOrEqual(8);
		await waitFor(
			() => sandbox.streams[0]?.closedByClient,
			2_000,
			'the stream to see the client close',
		);
		expect(sandbox.streams[0]).toMatchObject({
			kind: 'trickle',
			path: '/api/v1/leads/lead_1',
			done: false,
		});
	});

	it('ends with the given body, so a patient client reads valid JSON', async () => {
		expect(
			await addFault({
				status: 200,
				trickle: { intervalMs: 1, bytes: 30 },
				body: { id: 'lead_9' },
			}),
		).toBe(201);
		const response = await call(sandbox, 'GET', '/api/v1/leads/lead_1');
		expect(response.status).toBe(200);
		expect(response.text).toHaveLength(30);
		expect(JSON.parse(response.text)).toEqual({ id: 'lead_9' });
	});

	it('refuses a trickle without a positive interval', async () => {
		expect(await addFault({ status: 200, trickle: { intervalMs: 0 } })).toBe(400);
	});
});

describe('endless', () => {
	it('streams a JSON array for as long as the client reads, and logs what it sent when the client closes', async () => {
		expect(await addFault({ status: 200, endless: true })).toBe(201);
		const result = await rawGet('/api/v1/leads', 400);
		expect(result.status).toBe(200);
		expect(result.ended).toBe(false);
		expect(result.bytes).toBeGreaterThan(1024 * 1024);
		await waitFor(
			() => sandbox.streams[0]?.closedByClient,
			2_000,
			'the stream to see the client close',
		);
		expect(sandbox.streams[0].bytes).toBeGreaterThanOrEqual(result.bytes);
		const streams = (await (await fetch(`${sandbox.url}/__sandbox/streams`)).json()) as Array<
			Record<string, unknown>
		>;
		expect(streams[0]).toMatchObject({ kind: 'endless', closedByClient: true, done: false });
	});

	it('stops at endlessBytes with a closed array', async () => {
		expect(await addFault({ status: 200, endless: true, endlessBytes: 200_000 })).toBe(201);
		const response = await call(sandbox, 'GET', '/api/v1/leads');
		const records = JSON.parse(response.text) as unknown[];
		expect(records.length).toBeGreaterThan(1000);
		expect(records[0]).toEqual({ id: 'x' });
		expect(sandbox.streams[0]).toMatchObject({ done: true, closedByClient: false });
	});
});

describe('a 401 that echoes the key', () => {
	it('puts the x-api-key it got into its error message', async () => {
		expect(await addFault({ status: 401, echoKey: true })).toBe(201);
		const response = await call(sandbox, 'GET', '/api/v1/leads/lead_1');
		expect(response.status).toBe(401);
		expect(response.body.error.message).toContain(sandbox.keys.admin);
	});
});

describe('2xx answers that are not what they claim', () => {
	it('a 200 text/html page (a login page or a proxy)', async () => {
		expect(
			await addFault({ status: 200, html: true, method: 'POST', pathPrefix: '/api/v1/leads' }),
		).toBe(201);
		const response = await call(sandbox, 'POST', '/api/v1/leads', { body: { name: 'Jane' } });
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe('text/html');
		expect(response.text).toMatch(/^<html>/);
		expect(sandbox.requests.map((entry) => entry.status)).toEqual([200]);
	});

	it('a 200 JSON without id', async () => {
		expect(await addFault({ status: 200, body: { ok: true }, method: 'POST' })).toBe(201);
		const response = await call(sandbox, 'POST', '/api/v1/leads', { body: { name: 'Jane' } });
		expect(response.status).toBe(200);
		expect(response.body).toEqual({ ok: true });
	});
});

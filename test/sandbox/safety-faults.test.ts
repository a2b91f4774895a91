/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** The sandbox faults of issue 11: cross-origin redirects to a recording second listener, a huge HTML page, a fixed body. */
import { startSandbox } from './server';
import type { Sandbox } from './types';
import { call } from './helpers';

jest.setTimeout(15_000);

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ rateLimit: false });
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => sandbox.reset());

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

describe('the second listener ("catcher")', () => {
	it('a redirect fault to it needs it started first', async () => {
		const fresh = await startSandbox({ rateLimit: false });
		try {
			const response = await fetch(`${fresh.url}/__sandbox/faults`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ status: 302, redirectTo: 'catcher' }),
			});
			expect(response.status).toBe(400);
		} finally {
			await fresh.close();
		}
	});

	it("runs on another port of the same host, and records what reaches it without the key's value", async () => {
		const { body } = await control<{ url: string }>('POST', '/catcher');
		const catcher = new URL(body.url);
		expect(catcher.hostname).toBe(new URL(sandbox.url).hostname);
		expect(catcher.port).not.toBe(new URL(sandbox.url).port);

		const answer = await fetch(`${body.url}/api/v1/leads?x=1`, {
			method: 'POST',
			headers: { 'x-api-key': sandbox.keys.admin, 'content-type': 'application/json' },
			body: '{"name":"Jane"}',
		});
		expect(answer.status).toBe(200);

		const { body: log } = await control<{ caught: any[] }>('GET', '/catcher');
		expect(log.caught).toEqual([
			expect.objectContaining({
				method: 'POST',
				path: '/api/v1/leads?x=1',
				apiKeyReceived: true,
				body: '{"name":"Jane"}',
			}),
		]);
		expect(JSON.stringify(log)).not.toContain(sandbox.keys.admin);

		expect((await control('DELETE', '/catcher')).status).toBe(204);
		expect((await control<{ caught: any[] }>('GET', '/catcher')).body.caught).toEqual([]);
	});

	it.each([302, 307])(
		'a %i fault points Location at the catcher with the same path and query',
		async (status) => {
			const { body } = await control<{ url: string }>('POST', '/catcher');
			await control('POST', '/faults', {
				status,
				redirectTo: 'catcher',
				pathPrefix: '/api/v1/clients',
			});

			const response = await fetch(`${sandbox.url}/api/v1/clients/cl_1?a=b`, {
				headers: { 'x-api-key': sandbox.keys.admin },
				redirect: 'manual',
			});

			expect(response.status).toBe(status);
			expect(response.headers.get('location')).toBe(`${body.url}/api/v1/clients/cl_1?a=b`);
			expect(sandbox.requests.at(-1)).toMatchObject({ path: '/api/v1/clients/cl_1', status });
		},
	);
});

describe('other faults', () => {
	it('a 2 MB HTML error page', async () => {
		await control('POST', '/faults', { status: 502, html: true, htmlBytes: 2_000_000 });

		const result = await call(sandbox, 'GET', '/api/v1/leads');

		expect(result.status).toBe(502);
		expect(result.headers.get('content-type')).toBe('text/html');
		expect(result.text.length).toBeGreaterThanOrEqual(2_000_000);
		expect(result.text).toContain('<title>502 Bad Gateway</title>');
	});

	it('a fixed JSON body: a list page whose cursor repeats, as often as asked', async () => {
		const page = { items: [{ id: 'lead_x', name: 'X' }], hasMore: true, nextCursor: 'same' };
		await control('POST', '/faults', {
			status: 200,
			pathPrefix: '/api/v1/leads',
			method: 'GET',
			body: page,
			count: 3,
		});

		for (let n = 0; n < 3; n++)
			expect((await call(sandbox, 'GET', `/api/v1/leads?cursor=${n ? 'same' : ''}`)).body).toEqual(
				page,
			);
		expect((await call(sandbox, 'GET', '/api/v1/leads')).body).not.toEqual(page);
	});

	it('429 with Retry-After: 3600', async () => {
		await control('POST', '/faults', { status: 429, headers: { 'retry-after': '3600' } });

		const result = await call(sandbox, 'GET', '/api/v1/leads');

		expect(result.status).toBe(429);
		expect(result.headers.get('retry-after')).toBe('3600');
	});

	it('refuses a htmlBytes that is not a positive size', async () => {
		expect(
			(await control('POST', '/faults', { status: 502, html: true, htmlBytes: -1 })).status,
		).toBe(400);
	});
});

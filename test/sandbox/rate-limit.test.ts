/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
import { startSandbox } from './server';
import type { Sandbox } from './types';
import { call } from './helpers';

jest.setTimeout(15_000);

const sandboxes: Sandbox[] = [];
async function start(options: Parameters<typeof startSandbox>[0]): Promise<Sandbox> {
	const sandbox = await startSandbox(options);
	sandboxes.push(sandbox);
	return sandbox;
}

afterEach(async () => {
	await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
});

describe('rate limit', () => {
	it('defaults to 60 requests per minute per key with RateLimit-* headers', async () => {
		const sandbox = await start({});
		expect(sandbox.config.rateLimit).toEqual({ limit: 60, windowMs: 60_000 });
		const response = await call(sandbox, 'GET', '/api/v1/users');
		expect(response.headers.get('ratelimit-limit')).toBe('60');
		expect(response.headers.get('ratelimit-remaining')).toBe('59');
		expect(Number(response.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(59);
		expect(Number(response.headers.get('ratelimit-reset'))).toBeLessThanOrEqual(60);
	});

	it('counts every authenticated request, answers 429 with Retry-After over the limit, and resets after the window', async () => {
		const sandbox = await start({ rateLimit: { limit: 3, windowMs: 1_000 } });
		const remaining: string[] = [];
		for (let i = 0; i < 3; i++) {
			// A 404 and a 400 count too.
			const path = ['/api/v1/users', '/api/v1/nothing', '/api/v1/leads?limit=0'][i];
			const response = await call(sandbox, 'GET', path);
			expect(response.headers.get('ratelimit-reset')).toBe('1');
			remaining.push(response.headers.get('ratelimit-remaining') ?? '');
		}
		expect(remaining).toEqual(['2', '1', '0']);

		const limited = await call(sandbox, 'GET', '/api/v1/users');
		expect(limited.status).toBe(429);
		expect(limited.body).toEqual({
			error: {
				code: 'RATE_LIMITED',
				message: 'Rate limit exceeded: 3 requests per second per API key.',
			},
		});
		expect(limited.headers.get('retry-after')).toBe('1');
		expect(limited.headers.get('ratelimit-limit')).toBe('3');
		expect(limited.headers.get('ratelimit-remaining')).toBe('0');
		expect(limited.headers.get('ratelimit-reset')).toBe('1');
		// v2 shares the limit.
		expect((await call(sandbox, 'GET', '/api/v2/contacts')).status).toBe(429);

		// The window is per key: the read-only key still has its own budget.
		const other = await call(sandbox, 'GET', '/api/v1/users', { key: sandbox.keys.readOnly });
		expect(other.status).toBe(200);
		expect(other.headers.get('ratelimit-remaining')).toBe('2');

		await new Promise((resolve) => setTimeout(resolve, 1_050));
		const after = await call(sandbox, 'GET', '/api/v1/users');
		expect(after.status).toBe(200);
		expect(after.headers.get('ratelimit-remaining')).toBe('2');
	});

	it('the burst switch: another client spends part of every window first (spentByOthers)', async () => {
		const sandbox = await start({ rateLimit: { limit: 5, windowMs: 1_000, spentByOthers: 3 } });
		const first = await call(sandbox, 'GET', '/api/v1/users');
		expect(first.headers.get('ratelimit-remaining')).toBe('1');
		expect((await call(sandbox, 'GET', '/api/v1/users')).status).toBe(200);
		expect((await call(sandbox, 'GET', '/api/v1/users')).status).toBe(429);
		await new Promise((resolve) => setTimeout(resolve, 1_050));
		expect((await call(sandbox, 'GET', '/api/v1/users')).headers.get('ratelimit-remaining')).toBe(
			'1',
		);
		expect(() => sandbox.setRateLimit({ limit: 2, windowMs: 1_000, spentByOthers: 3 })).toThrow(
			/spentByOthers at most limit/,
		);
	});

	it('uses the spec wording for the default window', async () => {
		const sandbox = await start({ rateLimit: { limit: 1, windowMs: 60_000 } });
		await call(sandbox, 'GET', '/api/v1/users');
		const limited = await call(sandbox, 'GET', '/api/v1/users');
		expect(limited.body.error.message).toBe(
			'Rate limit exceeded: 1 requests per minute per API key.',
		);
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
	});

	it('checks the key before the limit: 401 answers are not counted and carry no RateLimit headers', async () => {
		const sandbox = await start({ rateLimit: { limit: 1, windowMs: 60_000 } });
		for (let i = 0; i < 3; i++) {
			const response = await call(sandbox, 'GET', '/api/v1/users', { key: 'bad' });
			expect(response.status).toBe(401);
			expect(response.headers.get('ratelimit-limit')).toBeNull();
		}
		expect((await call(sandbox, 'GET', '/api/v1/users')).status).toBe(200);
		expect((await call(sandbox, 'GET', '/api/v1/users')).status).toBe(429);
		expect((await call(sandbox, 'GET', '/api/v1/users', { key: null })).status).toBe(401);
	});

	it('sends no RateLimit headers when unlimited, and can be changed at run time', async () => {
		const sandbox = await start({ rateLimit: false });
		for (let i = 0; i < 70; i++)
			expect((await call(sandbox, 'GET', '/api/v1/users?limit=1')).status).toBe(200);
		const response = await call(sandbox, 'GET', '/api/v1/users');
		expect(response.headers.get('ratelimit-limit')).toBeNull();
		expect(response.headers.get('ratelimit-remaining')).toBeNull();

		sandbox.setRateLimit(2);
		expect(sandbox.config.rateLimit).toEqual({ limit: 2, windowMs: 60_000 });
		await call(sandbox, 'GET', '/api/v1/users');
		await call(sandbox, 'GET', '/api/v1/users');
		expect((await call(sandbox, 'GET', '/api/v1/users')).status).toBe(429);

		sandbox.setRateLimit({ limit: 5, windowMs: 500 });
		const fresh = await call(sandbox, 'GET', '/api/v1/users');
		expect(fresh.status).toBe(200);
		expect(fresh.headers.get('ratelimit-limit')).toBe('5');

		const control = await fetch(`${sandbox.url}/__sandbox/config`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ rateLimit: false }),
		});
		expect(control.status).toBe(200);
		expect(await control.json()).toMatchObject({ rateLimit: false });
		expect((await call(sandbox, 'GET', '/api/v1/users')).headers.get('ratelimit-limit')).toBeNull();
		const invalid = await fetch(`${sandbox.url}/__sandbox/config`, {
			method: 'POST',
			body: JSON.stringify({ rateLimit: { limit: 0 } }),
		});
		expect(invalid.status).toBe(400);
	});

	it('does not rate limit or log control endpoints', async () => {
		const sandbox = await start({ rateLimit: { limit: 1, windowMs: 60_000 } });
		for (let i = 0; i < 5; i++)
			expect((await fetch(`${sandbox.url}/__sandbox/health`)).status).toBe(200);
		expect(sandbox.requests).toHaveLength(0);
		expect((await call(sandbox, 'GET', '/api/v1/users')).status).toBe(200);
	});
});

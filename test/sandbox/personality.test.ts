/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * The 'alternate' personality resolves each "not shown" of the spec the other plausible way;
 * 'standard' (the default) keeps the package's reading. Each point is checked under both.
 */
import { startSandbox } from './server';
import type { Sandbox, SandboxPersonality } from './types';
import { call } from './helpers';

jest.setTimeout(15_000);

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ rateLimit: { limit: 1_000, windowMs: 60_000 } });
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => {
	sandbox.reset();
	sandbox.setPersonality('standard');
});

async function postConfig(body: unknown): Promise<{ status: number; body: any }> {
	const response = await fetch(`${sandbox.url}/__sandbox/config`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(5_000),
	});
	return { status: response.status, body: await response.json() };
}

describe('selecting the personality', () => {
	it('defaults to standard, is set by startSandbox, POST /__sandbox/config and setPersonality, and survives reset', async () => {
		expect(sandbox.config.personality).toBe('standard');
		const alternate = await startSandbox({ personality: 'alternate', rateLimit: false });
		try {
			expect(alternate.config.personality).toBe('alternate');
		} finally {
			await alternate.close();
		}
		await expect(startSandbox({ personality: 'strict' as SandboxPersonality })).rejects.toThrow(
			'personality must be one of standard, alternate',
		);

		const changed = await postConfig({ personality: 'alternate' });
		expect(changed.status).toBe(200);
		expect(changed.body).toMatchObject({ personality: 'alternate' });
		expect(sandbox.config.personality).toBe('alternate');
		sandbox.reset();
		expect(sandbox.config.personality).toBe('alternate');
		const read = await fetch(`${sandbox.url}/__sandbox/config`);
		expect(await read.json()).toMatchObject({ personality: 'alternate' });

		const invalid = await postConfig({ personality: 'strict' });
		expect(invalid.status).toBe(400);
		expect(invalid.body.error.message).toBe('personality must be one of standard, alternate');
		expect(sandbox.config.personality).toBe('alternate');

		sandbox.setPersonality('standard');
		expect(sandbox.config.personality).toBe('standard');
	});
});

describe('POST /webhooks event names', () => {
	const body = (events: string[]) => ({
		body: { name: 'hook', url: 'https://example.com/hook', events },
	});

	it('standard: accepts any event name', async () => {
		const response = await call(
			sandbox,
			'POST',
			'/api/v1/webhooks',
			body(['lead.created', 'invoice.paid', 'custom.thing']),
		);
		expect(response.status).toBe(200);
		expect(response.body.events).toEqual(['lead.created', 'invoice.paid', 'custom.thing']);
	});

	it('alternate: accepts only lead.created and answers 400 naming the others, creating nothing', async () => {
		sandbox.setPersonality('alternate');
		const refused = await call(
			sandbox,
			'POST',
			'/api/v1/webhooks',
			body(['lead.created', 'invoice.paid', 'deal.stage_changed']),
		);
		expect(refused.status).toBe(400);
		expect(refused.text).toBe(
			'Unknown event names: invoice.paid, deal.stage_changed. Supported events: lead.created',
		);
		expect(sandbox.state.webhooks.size).toBe(0);

		const accepted = await call(sandbox, 'POST', '/api/v1/webhooks', body(['lead.created']));
		expect(accepted.status).toBe(200);
		expect(accepted.body).toMatchObject({
			events: ['lead.created'],
			secret: expect.stringMatching(/^whsec_/),
		});
		expect(sandbox.state.webhooks.size).toBe(1);
	});
});

describe('PATCH /leads/{id}', () => {
	let leadId: string;
	beforeEach(() => {
		leadId = sandbox.state.leads.values()[0].id;
	});

	it('standard: applies archived and other keys, answers 200 with the lead', async () => {
		const response = await call(sandbox, 'PATCH', `/api/v1/leads/${leadId}`, {
			body: { archived: true, title: 'CTO', extra: 'x' },
		});
		expect(response.status).toBe(200);
		expect(response.body).toMatchObject({ id: leadId, archived: true, title: 'CTO', extra: 'x' });
		expect(sandbox.state.leads.get(leadId)?.archived).toBe(true);
	});

	it('alternate: ignores keys the POST /leads body does not list (archived, customFields, others) and answers 204 with no body', async () => {
		sandbox.setPersonality('alternate');
		const response = await call(sandbox, 'PATCH', `/api/v1/leads/${leadId}`, {
			body: { archived: true, title: 'CTO', customFields: { a: 1 }, extra: 'x' },
		});
		expect(response.status).toBe(204);
		expect(response.text).toBe('');
		const lead = sandbox.state.leads.get(leadId);
		expect(lead).toMatchObject({ archived: false, title: 'CTO' });
		expect(lead?.extra).toBeUndefined();
		expect(lead?.customFields).not.toEqual({ a: 1 });

		// Listed keys are still validated.
		const invalid = await call(sandbox, 'PATCH', `/api/v1/leads/${leadId}`, {
			body: { email: 'not an email' },
		});
		expect(invalid.status).toBe(400);
		expect(invalid.text).toBe('email must be a valid email address');
		// And unknown ids still answer 404.
		expect(
			(await call(sandbox, 'PATCH', '/api/v1/leads/led_nope', { body: { title: 'x' } })).status,
		).toBe(404);
	});
});

describe('GET /webhooks', () => {
	beforeEach(async () => {
		for (let i = 0; i < 3; i++) {
			await call(sandbox, 'POST', '/api/v1/webhooks', {
				body: { name: `h${i}`, url: 'https://example.com/hook', events: ['lead.created'] },
			});
		}
	});

	it('standard: a page object { items, hasMore, nextCursor }', async () => {
		const response = await call(sandbox, 'GET', '/api/v1/webhooks?limit=2');
		expect(response.body).toMatchObject({
			items: [{ name: 'h0' }, { name: 'h1' }],
			hasMore: true,
			nextCursor: expect.any(String),
		});
	});

	it('alternate: a bare array of every subscription, without secrets', async () => {
		sandbox.setPersonality('alternate');
		const response = await call(sandbox, 'GET', '/api/v1/webhooks?limit=2');
		expect(response.status).toBe(200);
		expect(Array.isArray(response.body)).toBe(true);
		expect(response.body.map((hook: any) => hook.name)).toEqual(['h0', 'h1', 'h2']);
		expect(response.body[0].secret).toBeUndefined();
	});
});

describe('RateLimit-* headers', () => {
	it('standard: on every answer after the key check', async () => {
		const ok = await call(sandbox, 'GET', '/api/v1/users');
		expect(ok.headers.get('ratelimit-limit')).toBe('1000');
		const notFound = await call(sandbox, 'GET', '/api/v1/leads/led_nope');
		expect(notFound.headers.get('ratelimit-remaining')).not.toBeNull();
	});

	it('alternate: none on 2xx (or other answers), still on 429 with Retry-After; the limit is still enforced', async () => {
		sandbox.setPersonality('alternate');
		sandbox.setRateLimit({ limit: 2, windowMs: 60_000 });
		try {
			const first = await call(sandbox, 'GET', '/api/v1/users');
			expect(first.status).toBe(200);
			for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'])
				expect(first.headers.get(name)).toBeNull();
			const notFound = await call(sandbox, 'GET', '/api/v1/leads/led_nope');
			expect(notFound.status).toBe(404);
			expect(notFound.headers.get('ratelimit-limit')).toBeNull();

			const limited = await call(sandbox, 'GET', '/api/v1/users');
			expect(limited.status).toBe(429);
			expect(limited.headers.get('ratelimit-limit')).toBe('2');
			expect(limited.headers.get('ratelimit-remaining')).toBe('0');
			expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
			expect(limited.body).toEqual({
				error: {
					code: 'RATE_LIMITED',
					message: 'Rate limit exceeded: 2 requests per minute per API key.',
				},
			});
		} finally {
			sandbox.setRateLimit({ limit: 1_000, windowMs: 60_000 });
		}
	});
});

describe('error bodies', () => {
	it('standard: { error: { code, message } } for 400 and 404', async () => {
		const invalid = await call(sandbox, 'POST', '/api/v1/leads', { body: {} });
		expect(invalid.status).toBe(400);
		expect(invalid.body).toEqual({
			error: { code: 'VALIDATION_ERROR', message: 'name is required' },
		});
		const missing = await call(sandbox, 'GET', '/api/v1/leads/led_nope');
		expect(missing.body).toEqual({
			error: { code: 'NOT_FOUND', message: 'Lead led_nope was not found' },
		});
	});

	it('alternate: plain text for 400, { message } for 404 (routes too); 401 and 403 keep the spec shape', async () => {
		sandbox.setPersonality('alternate');
		const invalid = await call(sandbox, 'POST', '/api/v1/leads', { body: {} });
		expect(invalid.status).toBe(400);
		expect(invalid.headers.get('content-type')).toBe('text/plain; charset=utf-8');
		expect(invalid.text).toBe('name is required');

		const missing = await call(sandbox, 'GET', '/api/v1/leads/led_nope');
		expect(missing.status).toBe(404);
		expect(missing.headers.get('content-type')).toContain('application/json');
		expect(missing.body).toEqual({ message: 'Lead led_nope was not found' });
		expect((await call(sandbox, 'GET', '/api/v1/nothing')).body).toEqual({
			message: 'Route GET /api/v1/nothing was not found',
		});
		expect((await call(sandbox, 'DELETE', '/api/v1/webhooks/whk_nope')).body).toEqual({
			message: 'Webhook whk_nope was not found',
		});

		expect((await call(sandbox, 'GET', '/api/v1/users', { key: 'bad' })).body).toEqual({
			error: { code: 'UNAUTHORIZED', message: 'The API key in the x-api-key header is not valid.' },
		});
		const forbidden = await call(sandbox, 'POST', '/api/v1/leads', {
			key: sandbox.keys.readOnly,
			body: { name: 'x' },
		});
		expect(forbidden.status).toBe(403);
		expect(forbidden.body.error.code).toBe('FORBIDDEN');
	});
});

describe('GET /users search parameter', () => {
	it('standard: search filters by first name, last name or email', async () => {
		const all = await call(sandbox, 'GET', '/api/v1/users?limit=100');
		const first = all.body.items[0];
		const response = await call(
			sandbox,
			'GET',
			`/api/v1/users?limit=100&search=${encodeURIComponent(first.email)}`,
		);
		expect(response.body.items.map((user: any) => user.id)).toEqual([first.id]);
		expect(all.body.items.length).toBeGreaterThan(1);
	});

	it('alternate: search is ignored (other filters still apply)', async () => {
		sandbox.setPersonality('alternate');
		const all = await call(sandbox, 'GET', '/api/v1/users?limit=100');
		const searched = await call(
			sandbox,
			'GET',
			`/api/v1/users?limit=100&search=${encodeURIComponent(all.body.items[0].email)}`,
		);
		expect(searched.body.items).toEqual(all.body.items);
		expect(all.body.items.length).toBeGreaterThan(1);
		const active = await call(sandbox, 'GET', '/api/v1/users?limit=100&active=false&search=zzz');
		expect(active.body.items.every((user: any) => user.active === false)).toBe(true);
		expect(active.body.items.length).toBeLessThan(all.body.items.length);
	});
});

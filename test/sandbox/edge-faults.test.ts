/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * The sandbox switches of issue 23: the key echoed JSON-escaped, a Location of the sandbox's own origin outside the
 * API (and the log of what reaches it), a fault that lasts a time, a skewed clock on a 429, a lead nested deeper than
 * JSON.stringify can write, and leads imported with their own createdAt, listed newest first by it.
 */
import { call } from './helpers';
import { escapedKey } from './edgeFaults';
import { jsonText } from './jsonText';
import { startSandbox } from './server';
import type { Sandbox } from './types';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({
		rateLimit: false,
		apiKeys: { admin: 'sk_live_R3dact/Me9+Pl3ase==' },
	});
});
afterAll(async () => {
	await sandbox.close();
});
beforeEach(() => {
	sandbox.reset();
	sandbox.setListOrder('oldest');
});

const fault = async (body: Record<string, unknown>) =>
	await call(sandbox, 'POST', '/__sandbox/faults', { body: { count: 1, ...body }, key: null });

describe('echoKey: "escaped"', () => {
	it('a 401 writes the key with \\/, \\u002b and \\u003d, which JSON.parse turns back into the key', async () => {
		expect((await fault({ status: 401, echoKey: 'escaped' })).status).toBe(201);
		const answer = await call(sandbox, 'GET', '/api/v1/leads/lead_x');
		expect(answer.status).toBe(401);
		expect(answer.text).toContain('sk_live_R3dact\\/Me9\\u002bPl3ase\\u003d\\u003d');
		expect(answer.body.error.message).toBe(
			`The API key ${sandbox.keys.admin} is not valid for this workspace.`,
		);
	});

	it('a 200 echoes it in a lead record', async () => {
		await fault({ status: 200, echoKey: 'escaped', pathPrefix: '/api/v1/leads/' });
		const answer = await call(sandbox, 'GET', '/api/v1/leads/lead_x');
		expect(answer.status).toBe(200);
		expect(answer.body).toMatchObject({
			id: 'lead_echo',
			title: `Key ${sandbox.keys.admin}`,
			customFields: { apiKey: sandbox.keys.admin },
		});
		expect(answer.text).not.toContain(sandbox.keys.admin);
	});

	it('a 200 to the lead list is a page with one lead without an id, named with the key', async () => {
		await fault({ status: 200, echoKey: 'escaped', pathPrefix: '/api/v1/leads' });
		const answer = await call(sandbox, 'GET', '/api/v1/leads');
		expect(answer.body).toEqual({
			items: [
				{
					name: `Key ${sandbox.keys.admin}`,
					archived: false,
					createdAt: '2026-01-01T00:00:00.000Z',
				},
			],
			hasMore: false,
			nextCursor: null,
		});
		expect(answer.text).toContain('\\u002b');
	});

	it('a bad value is refused', async () => {
		expect((await fault({ status: 401, echoKey: 'loud' })).status).toBe(400);
		expect(escapedKey('a/b+c=')).toBe('a\\/b\\u002bc\\u003d');
	});
});

describe('location, and the log of pages outside the API', () => {
	it('answers the Location as given; a request to that page is logged with whether a key came', async () => {
		await fault({ status: 302, location: '/admin/export-all' });
		const answer = await fetch(`${sandbox.url}/api/v1/leads/lead_x`, {
			headers: { 'x-api-key': sandbox.keys.admin },
			redirect: 'manual',
		});
		expect(answer.status).toBe(302);
		expect(answer.headers.get('location')).toBe('/admin/export-all');
		await call(sandbox, 'GET', '/admin/export-all', { key: null });
		expect(sandbox.requests.filter((request) => request.path === '/admin/export-all')).toEqual([
			expect.objectContaining({
				method: 'GET',
				status: 404,
				headers: expect.not.objectContaining({ 'x-api-key': expect.anything() }),
			}),
		]);
	});
});

describe('forMs and skewedClock', () => {
	it('answers 429 for the time given, with Date and a Retry-After date 30 s behind; then normally', async () => {
		await fault({
			status: 429,
			forMs: 400,
			skewedClock: { skewMs: -30_000 },
			pathPrefix: '/api/v1/leads',
		});
		const started = Date.now();
		const first = await call(sandbox, 'GET', '/api/v1/leads');
		const second = await call(sandbox, 'GET', '/api/v1/leads');
		expect([first.status, second.status]).toEqual([429, 429]);
		const date = Date.parse(first.headers.get('date') ?? '');
		const retryAfter = Date.parse(first.headers.get('retry-after') ?? '');
		expect(Math.abs(date - (started - 30_000))).toBeLessThan(2_000);
		// The fault's end, by the skewed clock: 400 ms after the first answer, written in whole seconds.
		expect(Math.abs(retryAfter - (started + 400 - 30_000))).toBeLessThan(2_000);
		await new Promise((resolve) => setTimeout(resolve, 450));
		expect((await call(sandbox, 'GET', '/api/v1/leads')).status).toBe(200);
	});

	it('sendDate: false leaves the Date header out', async () => {
		await fault({ status: 429, skewedClock: { skewMs: -30_000, sendDate: false } });
		const answer = await call(sandbox, 'GET', '/api/v1/leads');
		expect(answer.headers.get('date')).toBeNull();
		expect(answer.headers.get('retry-after')).toMatch(/GMT$/);
	});

	it('refuses bad values', async () => {
		expect((await fault({ status: 429, forMs: 0 })).status).toBe(400);
		expect((await fault({ status: 429, skewedClock: { skewMs: 'late' } })).status).toBe(400);
	});
});

describe('a lead nested deeper than JSON.stringify can write', () => {
	it('is created, listed and read back (jsonText), as JSON.parse reads it', async () => {
		const depth = 10_000;
		const raw = `{"name":"Deep","customFields":{"x":${'['.repeat(depth)}"bottom"${']'.repeat(depth)}}}`;
		const created = await call(sandbox, 'POST', '/api/v1/leads', { rawBody: raw });
		expect(created.status).toBe(200);
		const listed = await call(sandbox, 'GET', '/api/v1/leads?limit=100');
		const lead = listed.body.items.find((item: { name: string }) => item.name === 'Deep');
		let inner: unknown = lead.customFields.x;
		for (let level = 0; level < depth; level++) inner = (inner as unknown[])[0];
		expect(inner).toBe('bottom');
	});

	it('jsonText writes what JSON.stringify writes, when it can', () => {
		const value = { a: [1, 'two', null, { b: true, c: undefined }], d: { e: [] }, f: 'x"y' };
		const deep = JSON.parse(`{"v":${'['.repeat(6_000)}${']'.repeat(6_000)}}`);
		expect(jsonText(value)).toBe(JSON.stringify(value));
		expect(JSON.parse(jsonText(deep))).toEqual(expect.objectContaining({ v: expect.any(Array) }));
		expect(jsonText(deep)).toBe(`{"v":${'['.repeat(6_000)}${']'.repeat(6_000)}}`);
	});
});

describe('POST /__sandbox/import and the newestCreated order', () => {
	it('adds leads with their own createdAt; newestCreated lists them among the leads of their date, pages consistent', async () => {
		sandbox.seedLeads(5); // 8 leads, stamped now
		const imported = await call(sandbox, 'POST', '/__sandbox/import', {
			key: null,
			body: {
				leads: [
					{ name: 'Imported 2020', createdAt: '2020-01-01T00:00:00Z', email: 'old@leads.example' },
				],
			},
		});
		expect(imported.status).toBe(200);
		expect(imported.body).toEqual([
			expect.objectContaining({
				name: 'Imported 2020',
				createdAt: '2020-01-01T00:00:00.000Z',
				email: 'old@leads.example',
			}),
		]);
		await call(sandbox, 'POST', '/api/v1/leads', { body: { name: 'Newest' } });

		sandbox.setListOrder('newestCreated');
		const names: string[] = [];
		let cursor: string | null = null;
		do {
			const page: {
				body: { items: Array<{ name: string; createdAt: string }>; nextCursor: string | null };
			} = await call(sandbox, 'GET', `/api/v1/leads?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
			names.push(...page.body.items.map((lead) => lead.name));
			cursor = page.body.nextCursor;
		} while (cursor);
		expect(names).toHaveLength(10);
		expect(names[0]).toBe('Newest');
		expect(names.at(-1)).toBe('Imported 2020');
		// By the same listing newest first by creation (the `newest` order) it is at the head.
		sandbox.setListOrder('newest');
		expect(
			(await call(sandbox, 'GET', '/api/v1/leads?limit=2')).body.items.map(
				(lead: { name: string }) => lead.name,
			),
		).toEqual(['Newest', 'Imported 2020']);
	});

	it('refuses a lead without a date, and a cursor that is not one', async () => {
		expect(
			(
				await call(sandbox, 'POST', '/__sandbox/import', {
					key: null,
					body: { leads: [{ name: 'x' }] },
				})
			).status,
		).toBe(400);
		sandbox.setListOrder('newestCreated');
		expect(
			(
				await call(
					sandbox,
					'GET',
					`/api/v1/leads?cursor=${Buffer.from('leadsdate:x').toString('base64url')}`,
				)
			).status,
		).toBe(400);
	});
});

describe('cycle: a list that cycles (issue 40)', () => {
	it('answers pages alternating two leads, each under a fresh next cursor', async () => {
		await fault({ status: 200, cycle: true, count: 3, pathPrefix: '/api/v1/leads' });
		const pages = [];
		for (let n = 0; n < 3; n++) pages.push((await call(sandbox, 'GET', '/api/v1/leads')).body);
		expect(
			pages.map((page) => [page.items.map((lead: { id: string }) => lead.id), page.nextCursor]),
		).toEqual([
			[['lead_cycle_a'], 'cycle_1'],
			[['lead_cycle_b'], 'cycle_2'],
			[['lead_cycle_a'], 'cycle_3'],
		]);
		expect((await fault({ status: 200, cycle: 'yes' })).status).toBe(400);
	});
});

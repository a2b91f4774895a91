/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** The sandbox switches of issue 17's list tests: a server that ignores the page size, and leads that mention a text. */
import { startSandbox } from './server';
import type { Sandbox } from './types';
import { call } from './helpers';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ rateLimit: false });
});

afterAll(async () => {
	await sandbox.close();
});

async function control(
	method: string,
	path: string,
	body?: unknown,
): Promise<{ status: number; body: any }> {
	const response = await fetch(`${sandbox.url}/__sandbox${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
		signal: AbortSignal.timeout(5_000),
	});
	const text = await response.text();
	return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

describe('ignoreLimit', () => {
	afterEach(async () => {
		await control('POST', '/config', { ignoreLimit: false });
		sandbox.reset();
	});

	it('is off by default: limit=100 gives at most 100', async () => {
		sandbox.seedLeads(250);
		expect((await call(sandbox, 'GET', '/api/v1/leads?limit=100')).body.items).toHaveLength(100);
	});

	it('answers pages of its size whatever limit or pageSize asks, and still pages with a cursor', async () => {
		sandbox.seedLeads(250);
		expect((await control('POST', '/config', { ignoreLimit: 200 })).body.ignoreLimit).toBe(200);
		const first = await call(sandbox, 'GET', '/api/v1/leads?limit=5');
		expect(first.body.items).toHaveLength(200);
		expect(first.body.hasMore).toBe(true);
		const second = await call(
			sandbox,
			'GET',
			`/api/v1/leads?limit=5&cursor=${first.body.nextCursor}`,
		);
		expect(second.body.items).toHaveLength(253 - 200);
		expect(second.body.hasMore).toBe(false);
		expect(
			(await call(sandbox, 'GET', '/api/v2/contacts?pageSize=1')).body.data.length,
		).toBeGreaterThan(1);
	});

	it('refuses a value that is not false or a page size', async () => {
		expect((await control('POST', '/config', { ignoreLimit: 0 })).status).toBe(400);
		expect((await control('POST', '/config', { ignoreLimit: 'all' })).status).toBe(400);
	});
});

describe('seed with a mention', () => {
	afterEach(() => sandbox.reset());

	it('generated leads carry the text in their name, so the search finds them by name, not by email', async () => {
		expect(
			(await control('POST', '/seed', { leads: 120, mention: 'victim@example.com' })).body.added,
		).toBe(120);
		const found = await call(sandbox, 'GET', '/api/v1/leads?search=victim%40example.com&limit=100');
		expect(found.body.items).toHaveLength(100);
		expect(found.body.hasMore).toBe(true);
		expect(
			found.body.items.every(
				(lead: { name: string; email: string }) =>
					lead.name.startsWith('victim@example.com ') && lead.email !== 'victim@example.com',
			),
		).toBe(true);
	});

	it('refuses an empty mention', async () => {
		expect((await control('POST', '/seed', { leads: 1, mention: '' })).status).toBe(400);
	});
});

describe('patchCustomFields: what PATCH does with customFields (the spec does not show it)', () => {
	afterEach(async () => {
		await control('POST', '/config', { patchCustomFields: 'replace' });
		sandbox.reset();
	});

	async function patchedLead(): Promise<unknown> {
		const created = await call(sandbox, 'POST', '/api/v1/leads', {
			body: { name: 'Ann', customFields: { industry: 'Retail', seats: 3 } },
		});
		await call(sandbox, 'PATCH', `/api/v1/leads/${created.body.id}`, {
			body: { customFields: { seats: 5 } },
		});
		return (await call(sandbox, 'GET', `/api/v1/leads/${created.body.id}`)).body.customFields;
	}

	it('replaces the object whole by default', async () => {
		expect(await patchedLead()).toEqual({ seats: 5 });
	});

	it('with "merge", sets only the keys sent, and refuses another value', async () => {
		expect((await control('POST', '/config', { patchCustomFields: 'merge' })).status).toBe(200);
		expect(await patchedLead()).toEqual({ industry: 'Retail', seats: 5 });
		expect((await control('POST', '/config', { patchCustomFields: 'sometimes' })).status).toBe(400);
	});
});

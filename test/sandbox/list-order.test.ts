/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * The list-order switch (GET /leads newest or oldest first, consistent across cursor pages) under both personalities,
 * and the activity switch (a lead created, changed and archived at an interval) that `npm run dev` turns on.
 */
import { call, waitFor } from './helpers';
import { startSandbox } from './server';
import type { ListOrder, Sandbox, SandboxPersonality } from './types';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ rateLimit: false });
});
afterAll(async () => {
	await sandbox.close();
});
beforeEach(() => {
	sandbox.reset();
	sandbox.setPersonality('standard');
	sandbox.setListOrder('oldest');
	sandbox.setActivity(false);
});

/** Every lead's name, page by page (pages of `limit`), creating a lead after the first page when `createBetween`. */
async function listAll(limit: number, createBetween = false): Promise<string[][]> {
	const pages: string[][] = [];
	let cursor: string | null = null;
	do {
		const query: string = `/api/v1/leads?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
		const page: {
			status: number;
			body: { items: Array<{ name: string }>; nextCursor: string | null; hasMore: boolean };
		} = await call(sandbox, 'GET', query);
		expect(page.status).toBe(200);
		pages.push(page.body.items.map((lead) => lead.name));
		cursor = page.body.nextCursor;
		if (createBetween && pages.length === 1)
			await call(sandbox, 'POST', '/api/v1/leads', { body: { name: 'Created Between Pages' } });
	} while (cursor);
	return pages;
}

describe.each(['standard', 'alternate'] as SandboxPersonality[])(
	'personality %s',
	(personality) => {
		beforeEach(() => {
			sandbox.setPersonality(personality);
			sandbox.seedLeads(7); // 10 leads
		});

		it.each(['oldest', 'newest'] as ListOrder[])(
			'lists %s first, every lead once across pages',
			async (order) => {
				sandbox.setListOrder(order);
				const created = sandbox.state.leads.values().map((lead) => lead.name);
				const expected = order === 'oldest' ? created : created.slice().reverse();
				const pages = await listAll(3);
				expect(pages.map((page) => page.length)).toEqual([3, 3, 3, 1]);
				expect(pages.flat()).toEqual(expected);
			},
		);

		it.each(['oldest', 'newest'] as ListOrder[])(
			'%s first: a lead created between pages does not shift the pages (no lead twice or missed)',
			async (order) => {
				sandbox.setListOrder(order);
				const before = sandbox.state.leads.values().map((lead) => lead.name);
				const listed = (await listAll(3, true)).flat();
				// Newest first, the new lead is above the first page (seen next time); oldest first, it is at the end.
				expect(listed).toEqual(
					order === 'oldest' ? [...before, 'Created Between Pages'] : before.slice().reverse(),
				);
			},
		);

		it('newest first: createdAt never increases down the list', async () => {
			sandbox.setListOrder('newest');
			const times = (await listAll(100))
				.flat()
				.map((name) =>
					Date.parse(sandbox.state.leads.values().find((lead) => lead.name === name)!.createdAt),
				);
			for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThanOrEqual(times[i - 1]);
		});
	},
);

describe('switching', () => {
	it('POST /__sandbox/config {listOrder} sets it, reset keeps it, a bad value is refused', async () => {
		expect(sandbox.config.listOrder).toBe('oldest');
		const set = await call(sandbox, 'POST', '/__sandbox/config', {
			body: { listOrder: 'newest' },
			key: null,
		});
		expect(set.status).toBe(200);
		expect(set.body).toMatchObject({ listOrder: 'newest' });
		sandbox.reset();
		expect(sandbox.config.listOrder).toBe('newest');
		const bad = await call(sandbox, 'POST', '/__sandbox/config', {
			body: { listOrder: 'random' },
			key: null,
		});
		expect(bad.status).toBe(400);
		expect(bad.body.error.message).toBe('listOrder must be one of oldest, newest, newestCreated');
	});

	it('a cursor keeps its order after the switch changes', async () => {
		sandbox.seedLeads(7);
		sandbox.setListOrder('newest');
		const first = await call(sandbox, 'GET', '/api/v1/leads?limit=3');
		sandbox.setListOrder('oldest');
		const second = await call(
			sandbox,
			'GET',
			`/api/v1/leads?limit=3&cursor=${first.body.nextCursor}`,
		);
		const all = sandbox.state.leads
			.values()
			.map((lead) => lead.name)
			.reverse();
		expect(
			[...first.body.items, ...second.body.items].map((lead: { name: string }) => lead.name),
		).toEqual(all.slice(0, 6));
	});
});

describe('the activity switch', () => {
	it('POST /__sandbox/activity steps through create, change, archive', async () => {
		const steps = [];
		for (let i = 0; i < 3; i++)
			steps.push((await call(sandbox, 'POST', '/__sandbox/activity', { key: null })).body);
		expect(steps.map((step) => step.action)).toEqual(['created', 'changed', 'archived']);
		expect(steps[0].lead.name).toMatch(/^Activity Lead/);
		expect(steps[1].changedFields).toEqual(['value', 'stageId']);
		expect(sandbox.state.leads.get(steps[2].lead.id)!.archived).toBe(true);
	});

	it('runs at the interval set in the config, and stops when turned off', async () => {
		const before = sandbox.state.leads.size;
		const set = await call(sandbox, 'POST', '/__sandbox/config', {
			body: { activity: { everyMs: 100 } },
			key: null,
		});
		expect(set.body).toMatchObject({ activity: { everyMs: 100 } });
		await waitFor(
			() =>
				sandbox.state.leads.size > before &&
				sandbox.state.leads.values().some((lead) => lead.archived && lead.name !== 'Old Prospect'),
			3_000,
			'activity',
		);
		await call(sandbox, 'POST', '/__sandbox/config', { body: { activity: false }, key: null });
		const size = sandbox.state.leads.size;
		await new Promise((resolve) => setTimeout(resolve, 350));
		expect(sandbox.state.leads.size).toBe(size);
		const bad = await call(sandbox, 'POST', '/__sandbox/config', {
			body: { activity: { everyMs: 5 } },
			key: null,
		});
		expect(bad.status).toBe(400);
	});
});

/**
 * Issue 17 in real n8n against the sandbox, under both sandbox personalities: every list goes through the one list
 * reader. Return All against a server that ignores `limit` (the `ignoreLimit` switch) reads the whole list, and past
 * the reader's record cap fails with the narrowing message; list entries that are not objects are an error; Create or
 * Update finds the exact email among more than 1,000 name matches; a date given as Unix seconds is that date. A list
 * that cycles (the sandbox's `cycle` fault) stops on its third page (issue 40).
 */
import { randomUUID } from 'node:crypto';

import type { SandboxPersonality } from '../sandbox/types';
import { seededId } from '../sandbox/store';
import { e2eEnv, nodeError, runAction, sandbox } from './lib';

jest.setTimeout(180_000);

const env = e2eEnv();
const crm = sandbox(env);
const ACME = seededId('cli_', 'client:1');
/** LIST.maxRecords of nodes/CrmInvoicing/shared/transport/limits.ts, as the error message writes it. */
const CAP = '100,000';

afterAll(async () => {
	await crm.config({ personality: 'standard', ignoreLimit: false });
	await crm.reset();
});

describe.each<SandboxPersonality>(['standard', 'alternate'])(
	`lists in real n8n ${env.n8nVersion} (sandbox %s)`,
	(personality) => {
		beforeAll(async () => {
			await crm.config({ personality, ignoreLimit: false });
		});

		beforeEach(async () => {
			await crm.reset();
			await crm.clearRequests();
		});

		afterEach(async () => {
			await crm.config({ ignoreLimit: false });
		});

		it('Return All against a server that ignores limit=100 reads the whole list, page by page', async () => {
			const total = (await crm.control('POST', '/seed', { leads: 2_497 })).total as number;
			await crm.config({ ignoreLimit: 1_000 });

			const run = await runAction({
				parameters: { resource: 'lead', operation: 'getMany', returnAll: true },
			});

			expect(run.execution.status).toBe('success');
			expect(run.items).toHaveLength(total);
			expect(new Set(run.items.map((lead) => lead.id)).size).toBe(total);
			const pages = await crm.n8nRequests();
			expect(pages.map((request) => request.query.limit)).toEqual(['100', '100', '100']);
			expect(pages).toHaveLength(Math.ceil(total / 1_000));
		});

		it(`past ${CAP} records, Return All fails with the cap and how to narrow the list, and outputs no lead`, async () => {
			await crm.control('POST', '/seed', { leads: 100_010 });
			await crm.config({ ignoreLimit: 20_000 });

			const run = await runAction({
				parameters: { resource: 'lead', operation: 'getMany', returnAll: true },
			});

			expect(run.execution.status).toBe('error');
			const error = nodeError(run.execution);
			expect(error?.message).toBe(
				`The list /api/v1/leads holds more than ${CAP} records, the most the node reads of this list; nothing of it was output`,
			);
			expect(error?.description).toMatch(
				/Narrow the list with the operation's filters, or set "Limit" instead of "Return All"/,
			);
			// It stopped at the page that passed the cap.
			expect(await crm.n8nRequests()).toHaveLength(6);
			expect(JSON.stringify(run.items)).not.toContain('lead_');
		});

		it('list entries that are not objects are an error naming the entry, not output items', async () => {
			await crm.fault({
				method: 'GET',
				pathPrefix: '/api/v1/leads',
				status: 200,
				count: 1,
				body: {
					items: [
						{
							id: 'lead_ok',
							name: 'Fine',
							number: 'L-1',
							archived: false,
							createdAt: '2026-01-01T00:00:00Z',
						},
						null,
						7,
						'x',
					],
					hasMore: false,
					nextCursor: null,
				},
			});

			const run = await runAction({
				parameters: { resource: 'lead', operation: 'getMany', returnAll: true },
			});

			expect(run.execution.status).toBe('error');
			expect(nodeError(run.execution)?.message).toBe(
				"The CRM API's list /api/v1/leads held null at position 2 of page 1, where a record (a JSON object) was expected",
			);
		});

		it('a webhook list (shape not shown by the spec) holding a text is an error too', async () => {
			const entries = [
				{ id: 'whk_1', name: 'one', url: 'https://hooks.example.com/1', events: ['lead.created'] },
				'whk_2',
			];
			await crm.fault({
				method: 'GET',
				pathPrefix: '/api/v1/webhooks',
				status: 200,
				count: 1,
				// Each personality's own list shape: a v1 page, or a bare array.
				body:
					personality === 'standard'
						? { items: entries, hasMore: false, nextCursor: null }
						: entries,
			});

			const run = await runAction({
				parameters: { resource: 'webhook', operation: 'getMany', returnAll: true },
			});

			expect(run.execution.status).toBe('error');
			expect(nodeError(run.execution)?.message).toBe(
				'The CRM API\'s list /api/v1/webhooks held the text "whk_2" at position 2 of page 1, where a record (a JSON object) was expected',
			);
		});

		it('Create or Update finds the exact email among more than 1,000 leads that mention it in their name', async () => {
			const email = `victim.${randomUUID().slice(0, 8)}@example.com`;
			await crm.control('POST', '/seed', { leads: 1_500, mention: email });
			const victim = await crm.api('POST', '/leads', { name: 'The Real One', email });
			// What the search finds (archived=false), counted as a client would.
			let hits = 0;
			for (let cursor: string | null = null, first = true; first || cursor; first = false) {
				const page: { items: unknown[]; nextCursor: string | null } = await crm.api(
					'GET',
					`/leads?search=${encodeURIComponent(email)}&archived=false&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
				);
				hits += page.items.length;
				cursor = page.nextCursor;
			}
			expect(hits).toBeGreaterThan(1_000);
			await crm.clearRequests();

			const run = await runAction({
				parameters: {
					resource: 'lead',
					operation: 'upsert',
					email: email.toUpperCase(),
					name: 'The Real One, Updated',
				},
			});

			expect(run.execution.status).toBe('success');
			expect(run.items[0]).toMatchObject({ id: victim.id, name: 'The Real One, Updated' });
			const requests = await crm.n8nRequests();
			const searches = requests.filter(
				(request) => request.method === 'GET' && request.path === '/api/v1/leads',
			);
			expect(searches).toHaveLength(Math.ceil(hits / 100));
			expect(requests.filter((request) => request.method === 'POST')).toEqual([]);
			expect(
				requests.filter((request) => request.method === 'PATCH').map((request) => request.path),
			).toEqual([`/api/v1/leads/${victim.id}`]);
		});

		it('an invoice date given as Unix seconds is that day, not 1970-01-21', async () => {
			const run = await runAction({
				parameters: {
					resource: 'invoice',
					operation: 'create',
					clientId: ACME,
					date: '={{ 1767225600 }}',
					dueDate: '={{ 1769904000000 }}',
					lineItemsSource: 'json',
					lineItemsJson: '[{"name": "Consulting", "quantity": 1, "price": 100}]',
				},
			});

			expect(run.execution.status).toBe('success');
			const [post] = (await crm.n8nRequests()).filter((request) => request.method === 'POST');
			expect(post.body).toMatchObject({
				date: '2026-01-01T00:00:00.000Z',
				dueDate: '2026-02-01T00:00:00.000Z',
			});
			expect(run.items[0]).toMatchObject({ date: '2026-01-01T00:00:00.000Z' });
		});
	},
);

describe(`a list that cycles, in real n8n ${env.n8nVersion}`, () => {
	afterEach(async () => {
		await crm.control('DELETE', '/faults');
	});

	// Issue 40: pages alternating two leads under fresh cursors ran to the 100,000-record cap (about 28 h).
	it('Return All stops on the third page with an error that names the list, not at the record cap', async () => {
		await crm.reset();
		await crm.clearRequests();
		await crm.fault({
			status: 200,
			cycle: true,
			count: 50,
			method: 'GET',
			pathPrefix: '/api/v1/leads',
		});

		const run = await runAction({
			parameters: { resource: 'lead', operation: 'getMany', returnAll: true },
		});

		expect(run.execution.status).toBe('error');
		expect(nodeError(run.execution)?.message).toBe(
			'The CRM API\'s list /api/v1/leads did not advance: page 3 brought no new records but still named a next cursor ("cycle_3"). The node stopped reading it',
		);
		expect((await crm.n8nRequests()).map((request) => request.query.cursor)).toEqual([
			undefined,
			'cycle_1',
			'cycle_2',
		]);
	});
});

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Every resource and operation of the CRM Invoicing node, run in the real n8n (Webhook → CRM Invoicing) against the
 * sandbox CRM. Each test reads both sides: what the sandbox received (method, path, query, body, x-api-key) and what
 * the node put out.
 */
import { seededId } from '../sandbox/store';
import { e2eEnv, nodeError, runAction, sandbox, type SandboxRequest } from './lib';

const env = e2eEnv();
const crm = sandbox(env);

const ACME = seededId('cli_', 'client:1');
const CONSULTING_HOUR = seededId('prd_', 'product:1');
const SOFTWARE_LICENCE = seededId('prd_', 'product:2');
const JOHN_SMITH = seededId('lead_', 'seed-lead:1');
const SAM_SELLER = seededId('usr_', 'user:3');

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** The API requests the sandbox received since the last clearRequests() (not its control calls). */
async function apiRequests(): Promise<SandboxRequest[]> {
	return (await crm.requests()).filter((request) => request.path.startsWith('/api/'));
}

/** The API requests, each with the admin credential's key, as "METHOD path status". */
async function calls(): Promise<string[]> {
	const requests = await apiRequests();
	for (const request of requests) expect(request.headers['x-api-key']).toBe(env.sandboxKeys.admin);
	return requests.map((request) => `${request.method} ${request.path} ${request.status}`);
}

/** The only API request was a plain read: no query parameters and no body. */
async function expectPlainRead(): Promise<void> {
	const requests = await apiRequests();
	expect(requests).toHaveLength(1);
	expect(requests[0].query).toEqual({});
	expect(requests[0].body).toBeUndefined();
}

/** A v2 list page read straight from the sandbox (to compare the node's cursors with the API's). */
async function v2Page(path: string, query: Record<string, string>): Promise<any> {
	const response = await fetch(`${env.sandboxUrl}/api/v2${path}?${new URLSearchParams(query)}`, {
		headers: { 'x-api-key': env.sandboxKeys.admin },
	});
	return await response.json();
}

async function v1Page(path: string, query: Record<string, string>): Promise<any> {
	return await crm.api('GET', `${path}?${new URLSearchParams(query)}`);
}

function expectSucceeded(run: { status: number; execution: any }): void {
	expect(run.execution.status).toBe('success');
	expect(run.status).toBe(200);
}

describe(`Every resource in real n8n ${env.n8nVersion}`, () => {
	beforeAll(async () => {
		await crm.reset();
	});

	beforeEach(async () => {
		await crm.clearRequests();
	});

	afterAll(async () => {
		await crm.reset();
	});

	describe('Lead', () => {
		let leadId: string;

		it('creates a lead with additional and custom fields', async () => {
			const run = await runAction(
				{
					parameters: {
						resource: 'lead',
						operation: 'create',
						name: '={{ $json.body.name }}',
						additionalFields: {
							email: 'linus@example.com',
							title: ' Chief Engineer ',
							value: '={{ $json.body.value }}',
							sourceId: 'src_web',
							customFields: { field: [{ key: 'seats', value: '12' }] },
						},
					},
				},
				{ name: 'Linus Torvalds', value: 4200 },
			);
			expectSucceeded(run);
			expect(await calls()).toEqual(['POST /api/v1/leads 200']);
			const [request] = await apiRequests();
			expect(request.body).toEqual({
				name: 'Linus Torvalds',
				email: 'linus@example.com',
				title: 'Chief Engineer',
				value: 4200,
				sourceId: 'src_web',
				customFields: { seats: '12' },
			});
			expect(run.items).toHaveLength(1);
			expect(run.items[0]).toMatchObject({
				name: 'Linus Torvalds',
				email: 'linus@example.com',
				title: 'Chief Engineer',
				value: 4200,
				archived: false,
				customFields: { seats: '12' },
			});
			leadId = run.items[0].id;
			expect(leadId).toMatch(/^lead_/);
		});

		it('gets a lead by ID', async () => {
			const run = await runAction({
				parameters: { resource: 'lead', operation: 'get', leadId: byId(leadId) },
			});
			expectSucceeded(run);
			expect(await calls()).toEqual([`GET /api/v1/leads/${leadId} 200`]);
			await expectPlainRead();
			expect(run.items).toEqual([
				expect.objectContaining({ id: leadId, name: 'Linus Torvalds', value: 4200 }),
			]);
		});

		it('updates only the given fields', async () => {
			const run = await runAction({
				parameters: {
					resource: 'lead',
					operation: 'update',
					leadId: byId(leadId),
					updateFields: { name: 'Linus B. Torvalds', value: 9000, mobile: '+358401234567' },
				},
			});
			expectSucceeded(run);
			expect(await calls()).toEqual([`PATCH /api/v1/leads/${leadId} 200`]);
			const [request] = await apiRequests();
			expect(request.body).toEqual({
				name: 'Linus B. Torvalds',
				value: 9000,
				mobile: '+358401234567',
			});
			expect(run.items).toEqual([
				expect.objectContaining({
					id: leadId,
					name: 'Linus B. Torvalds',
					value: 9000,
					mobile: '+358401234567',
					email: 'linus@example.com',
				}),
			]);
		});

		it('archives and unarchives a lead', async () => {
			const archived = await runAction({
				parameters: { resource: 'lead', operation: 'archive', leadId: byId(leadId) },
			});
			expectSucceeded(archived);
			expect(archived.items).toEqual([expect.objectContaining({ id: leadId, archived: true })]);
			expect((await crm.api('GET', `/leads/${leadId}`)).archived).toBe(true);

			const unarchived = await runAction({
				parameters: { resource: 'lead', operation: 'unarchive', leadId: byId(leadId) },
			});
			expectSucceeded(unarchived);
			expect(unarchived.items).toEqual([expect.objectContaining({ id: leadId, archived: false })]);

			const patches = (await apiRequests()).filter((request) => request.method === 'PATCH');
			expect(patches.map((request) => [request.path, request.body])).toEqual([
				[`/api/v1/leads/${leadId}`, { archived: true }],
				[`/api/v1/leads/${leadId}`, { archived: false }],
			]);
			for (const request of patches)
				expect(request.headers['x-api-key']).toBe(env.sandboxKeys.admin);
			expect((await crm.api('GET', `/leads/${leadId}`)).archived).toBe(false);
		});

		describe('Get Many over more than 100 leads', () => {
			let total: number;

			beforeAll(async () => {
				await crm.reset();
				const seeded = await crm.control<{ total: number }>('POST', '/seed', { leads: 230 });
				total = seeded.total;
				expect(total).toBe(233);
			});

			it('Return All asks for pages of 100 and follows nextCursor to the end', async () => {
				const run = await runAction({
					parameters: { resource: 'lead', operation: 'getMany', returnAll: true, filters: {} },
				});
				expectSucceeded(run);
				expect(await calls()).toEqual([
					'GET /api/v1/leads 200',
					'GET /api/v1/leads 200',
					'GET /api/v1/leads 200',
				]);
				const requests = await apiRequests();
				for (const request of requests) expect(request.query.limit).toBe('100');
				// The cursors are the API's own nextCursor of the page before.
				const first = await v1Page('/leads', { limit: '100' });
				const second = await v1Page('/leads', { limit: '100', cursor: first.nextCursor });
				expect(requests.map((request) => request.query.cursor)).toEqual([
					undefined,
					first.nextCursor,
					second.nextCursor,
				]);
				expect(run.items).toHaveLength(total);
				expect(new Set(run.items.map((lead) => lead.id)).size).toBe(total);
				expect(run.items[0].id).toBe(JOHN_SMITH);
			});

			it('a Limit of 150 asks for exactly 100, then 50, with the filters on every page', async () => {
				const run = await runAction({
					parameters: {
						resource: 'lead',
						operation: 'getMany',
						returnAll: false,
						limit: 150,
						filters: { archived: false },
					},
				});
				expectSucceeded(run);
				expect(await calls()).toEqual(['GET /api/v1/leads 200', 'GET /api/v1/leads 200']);
				const requests = await apiRequests();
				expect(requests.map((request) => request.query)).toEqual([
					{ limit: '100', archived: 'false' },
					{ limit: '50', archived: 'false', cursor: expect.any(String) },
				]);
				expect(run.items).toHaveLength(150);
				expect(run.items.every((lead) => lead.archived === false)).toBe(true);
			});
		});
	});

	describe('Deal', () => {
		let dealId: string;

		beforeAll(async () => {
			await crm.reset();
		});

		it('creates a deal with a Luxon expression for the expected close date', async () => {
			const before = Date.now();
			const run = await runAction({
				parameters: {
					resource: 'deal',
					operation: 'create',
					title: 'Website redesign',
					pipelineId: 'pip_sales',
					stageId: 'stg_new',
					clientId: ACME,
					additionalFields: {
						expectedCloseDate: '={{ $now.plus({ days: 30 }) }}',
						leadId: byId(JOHN_SMITH),
						price: 15000,
						priority: 'HIGH',
						sourceId: 'src_referral',
					},
				},
			});
			const after = Date.now();
			expectSucceeded(run);
			expect(await calls()).toEqual(['POST /api/v1/deals 200']);
			const [request] = await apiRequests();
			const body = request.body as Record<string, unknown>;
			expect(body).toEqual({
				title: 'Website redesign',
				pipelineId: 'pip_sales',
				stageId: 'stg_new',
				clientId: ACME,
				leadId: JOHN_SMITH,
				price: 15000,
				priority: 'HIGH',
				sourceId: 'src_referral',
				expectedCloseDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
			});
			// 30 calendar days in the workflow's time zone: 30 × 24 h, one hour more or less across a daylight-saving change.
			const thirtyDays = 30 * 24 * 3_600_000;
			const close = Date.parse(body.expectedCloseDate as string);
			expect(close).toBeGreaterThanOrEqual(before + thirtyDays - 3_600_000 - 1_000);
			expect(close).toBeLessThanOrEqual(after + thirtyDays + 3_600_000 + 1_000);
			expect(run.items).toEqual([
				expect.objectContaining({
					title: 'Website redesign',
					status: 'ACTIVE',
					clientId: ACME,
					leadId: JOHN_SMITH,
					price: 15000,
					expectedCloseDate: body.expectedCloseDate,
				}),
			]);
			dealId = run.items[0].id;
			expect(dealId).toMatch(/^deal_/);
		});

		it("updates the given fields of a deal, reading a date without zone in the workflow's time zone", async () => {
			const run = await runAction(
				{
					workflowSettings: { timezone: 'Europe/Berlin' },
					parameters: {
						resource: 'deal',
						operation: 'update',
						dealId: '={{ $json.body.dealId }}',
						// What n8n's date picker stores: a wall-clock time without zone (09:00 in Berlin is 07:00 UTC in summer).
						updateFields: {
							title: 'Website redesign, phase 2',
							price: 18000.5,
							priority: 'MEDIUM',
							expectedCloseDate: '2026-06-30T09:00:00',
						},
					},
				},
				{ dealId },
			);
			expectSucceeded(run);
			expect(await calls()).toEqual([`PATCH /api/v1/deals/${dealId} 200`]);
			expect((await apiRequests())[0].body).toEqual({
				title: 'Website redesign, phase 2',
				price: 18000.5,
				priority: 'MEDIUM',
				expectedCloseDate: '2026-06-30T07:00:00.000Z',
			});
			expect(run.items).toEqual([
				expect.objectContaining({
					id: dealId,
					title: 'Website redesign, phase 2',
					price: 18000.5,
					priority: 'MEDIUM',
					stageId: 'stg_new',
					expectedCloseDate: '2026-06-30T07:00:00.000Z',
				}),
			]);
		});

		it('moves a deal to a stage, marks it won and lost', async () => {
			const moved = await runAction({
				parameters: { resource: 'deal', operation: 'moveToStage', dealId, stageId: 'stg_proposal' },
			});
			expectSucceeded(moved);
			expect(moved.items).toEqual([
				expect.objectContaining({ id: dealId, stageId: 'stg_proposal', status: 'ACTIVE' }),
			]);

			const won = await runAction({
				parameters: { resource: 'deal', operation: 'markWon', dealId },
			});
			expectSucceeded(won);
			expect(won.items).toEqual([
				expect.objectContaining({ id: dealId, status: 'WON', stageId: 'stg_proposal' }),
			]);

			const lost = await runAction({
				parameters: { resource: 'deal', operation: 'markLost', dealId },
			});
			expectSucceeded(lost);
			expect(lost.items).toEqual([expect.objectContaining({ id: dealId, status: 'LOST' })]);

			expect(await calls()).toEqual([
				`PATCH /api/v1/deals/${dealId} 200`,
				`PATCH /api/v1/deals/${dealId} 200`,
				`PATCH /api/v1/deals/${dealId} 200`,
			]);
			expect((await apiRequests()).map((request) => request.body)).toEqual([
				{ stageId: 'stg_proposal' },
				{ status: 'WON' },
				{ status: 'LOST' },
			]);
			expect(await crm.api('GET', `/deals/${dealId}`)).toMatchObject({
				status: 'LOST',
				stageId: 'stg_proposal',
			});
		});
	});

	describe('Invoice', () => {
		it('creates an invoice from line items entered in the form, with tax and a product', async () => {
			const run = await runAction({
				parameters: {
					resource: 'invoice',
					operation: 'create',
					clientId: ACME,
					date: '2026-03-01T09:00:00.000Z',
					dueDate: '2026-03-31T09:00:00.000Z',
					lineItemsSource: 'fields',
					lineItems: {
						items: [
							// Every field of the form, as shown after filling it in ...
							{
								name: 'Consulting',
								quantity: 2,
								price: 150,
								taxRateId: 'tax_vat20',
								description: 'Workshop',
								discount: 0,
								buyPrice: 0,
								discountType: '',
								productId: '',
							},
							// ... and only the fields that differ from their defaults (quantity 1 is n8n's to fill in).
							{ productId: SOFTWARE_LICENCE, price: 1200 },
						],
					},
					additionalFields: {
						subject: 'Spring project',
						status: 'SENT',
						salesPersonId: {
							__rl: true,
							mode: 'list',
							value: SAM_SELLER,
							cachedResultName: 'Sam Seller',
						},
						tags: '3, 7',
					},
				},
			});
			expectSucceeded(run);
			expect(await calls()).toEqual(['POST /api/v1/invoices 200']);
			expect((await apiRequests())[0].body).toEqual({
				clientId: ACME,
				date: '2026-03-01T09:00:00.000Z',
				dueDate: '2026-03-31T09:00:00.000Z',
				subject: 'Spring project',
				status: 'SENT',
				salesPersonId: SAM_SELLER,
				tags: [3, 7],
				lineItems: [
					{
						name: 'Consulting',
						quantity: 2,
						price: 150,
						taxRateId: 'tax_vat20',
						description: 'Workshop',
					},
					{ productId: SOFTWARE_LICENCE, quantity: 1, price: 1200 },
				],
			});
			expect(run.items).toHaveLength(1);
			const invoice = run.items[0];
			// salesPersonId goes out as the user's public ID and comes back as the API's number for that user.
			expect(invoice).toMatchObject({
				clientId: ACME,
				status: 'SENT',
				salesPersonId: 3,
				tags: [3, 7],
				subTotal: 1500,
				taxTotal: 60,
				discountTotal: 0,
				total: 1560,
				pendingTotal: 1560,
			});
			expect(invoice.lineItems).toEqual([
				expect.objectContaining({
					name: 'Consulting',
					quantity: 2,
					price: 150,
					tax: 20,
					amount: 300,
					taxAmount: 60,
					productId: null,
				}),
				// The API answers with the product's numeric ID; the node passes it on as it is.
				expect.objectContaining({
					name: 'Software licence',
					quantity: 1,
					price: 1200,
					amount: 1200,
					productId: 102,
				}),
			]);
		});

		it('creates an invoice from an expression giving an array of line items', async () => {
			const lines = [
				{ name: 'Setup', quantity: 1, price: 500, discount: 50, discountType: 'fixed' },
				{ productId: CONSULTING_HOUR, quantity: '3', price: 150 },
			];
			const run = await runAction(
				{
					parameters: {
						resource: 'invoice',
						operation: 'create',
						clientId: '={{ $json.body.clientId }}',
						date: '={{ $now }}',
						dueDate: '={{ $now.plus({ days: 14 }) }}',
						lineItemsSource: 'json',
						lineItemsJson: '={{ $json.body.lines }}',
						additionalFields: {},
					},
				},
				{ clientId: ACME, lines },
			);
			expectSucceeded(run);
			expect(await calls()).toEqual(['POST /api/v1/invoices 200']);
			const body = (await apiRequests())[0].body as any;
			expect(body.lineItems).toEqual([
				{ name: 'Setup', quantity: 1, price: 500, discount: 50, discountType: 'fixed' },
				{ productId: CONSULTING_HOUR, quantity: 3, price: 150 },
			]);
			expect(Date.parse(body.dueDate) - Date.parse(body.date)).toBeGreaterThan(13 * 24 * 3_600_000);
			expect(Date.parse(body.dueDate) - Date.parse(body.date)).toBeLessThan(15 * 24 * 3_600_000);
			const invoice = run.items[0];
			expect(invoice).toMatchObject({
				clientId: ACME,
				status: 'DRAFT',
				subTotal: 950,
				discountTotal: 50,
				taxTotal: 0,
				total: 900,
			});
			expect(invoice.lineItems).toEqual([
				expect.objectContaining({
					name: 'Setup',
					amount: 500,
					discountAmount: 50,
					productId: null,
				}),
				expect.objectContaining({
					name: 'Consulting hour',
					quantity: 3,
					amount: 450,
					productId: 101,
				}),
			]);
		});

		it('surfaces a 400 validation error naming the rejected field, and sends the POST once', async () => {
			const run = await runAction({
				parameters: {
					resource: 'invoice',
					operation: 'create',
					clientId: ACME,
					date: '2026-03-01',
					dueDate: '2026-03-31',
					lineItemsSource: 'json',
					lineItemsJson:
						'[{"name": "Consulting", "quantity": 1, "price": 100, "taxRateId": "tax_does_not_exist"}]',
					additionalFields: {},
				},
			});
			expect(run.execution.status).toBe('error');
			const error = nodeError(run.execution);
			expect(error?.message).toMatch(/400 VALIDATION_ERROR/);
			expect(error?.message).toContain('lineItems[0].taxRateId');
			expect(error?.description).toContain('lineItems[0].taxRateId');
			expect(await calls()).toEqual(['POST /api/v1/invoices 400']);
		});
	});

	describe('Client, product and user', () => {
		it('gets a client by ID', async () => {
			const run = await runAction({
				parameters: { resource: 'client', operation: 'get', clientId: ACME },
			});
			expectSucceeded(run);
			expect(await calls()).toEqual([`GET /api/v1/clients/${ACME} 200`]);
			await expectPlainRead();
			expect(run.items).toEqual([
				expect.objectContaining({
					id: ACME,
					name: 'Acme Corporation',
					type: 'company',
					email: 'billing@acme.example',
				}),
			]);
		});

		it('fails with a 404 on an unknown client', async () => {
			const run = await runAction({
				parameters: { resource: 'client', operation: 'get', clientId: 'cli_does_not_exist' },
			});
			expect(run.execution.status).toBe('error');
			const error = nodeError(run.execution);
			expect(error?.message).toMatch(/404 NOT_FOUND/);
			expect(error?.message).toContain('cli_does_not_exist');
			expect(error?.description).toMatch(/ID is right/);
			expect(await calls()).toEqual(['GET /api/v1/clients/cli_does_not_exist 404']);
		});

		it('gets a product by ID', async () => {
			const run = await runAction({
				parameters: { resource: 'product', operation: 'get', productId: SOFTWARE_LICENCE },
			});
			expectSucceeded(run);
			expect(await calls()).toEqual([`GET /api/v1/products/${SOFTWARE_LICENCE} 200`]);
			await expectPlainRead();
			expect(run.items).toEqual([
				{
					id: SOFTWARE_LICENCE,
					name: 'Software licence',
					price: 1200,
					type: 'PRODUCT',
					isActive: true,
					description: 'Annual licence, one seat',
					sku: 'LIC-ANNUAL',
				},
			]);
		});

		it('searches users with the "search" query parameter', async () => {
			const run = await runAction({
				parameters: {
					resource: 'user',
					operation: 'getMany',
					returnAll: false,
					limit: 10,
					filters: { search: 'seller', active: true },
				},
			});
			expectSucceeded(run);
			expect(await calls()).toEqual(['GET /api/v1/users 200']);
			expect((await apiRequests())[0].query).toEqual({
				search: 'seller',
				active: 'true',
				limit: '10',
			});
			expect(run.items).toEqual([
				expect.objectContaining({
					firstName: 'Sam',
					lastName: 'Seller',
					email: 'sam.seller@example.com',
				}),
			]);
		});
	});

	describe('Contact (API v2)', () => {
		it('Return All reads the 250 contacts in 3 pages of pageSize 100, following meta.nextCursor', async () => {
			const run = await runAction({
				parameters: { resource: 'contact', operation: 'getMany', returnAll: true, filters: {} },
			});
			expectSucceeded(run);
			expect(await calls()).toEqual([
				'GET /api/v2/contacts 200',
				'GET /api/v2/contacts 200',
				'GET /api/v2/contacts 200',
			]);
			const requests = await apiRequests();
			const first = await v2Page('/contacts', { pageSize: '100' });
			const second = await v2Page('/contacts', { pageSize: '100', cursor: first.meta.nextCursor });
			expect(requests.map((request) => request.query)).toEqual([
				{ pageSize: '100' },
				{ pageSize: '100', cursor: first.meta.nextCursor },
				{ pageSize: '100', cursor: second.meta.nextCursor },
			]);
			expect(run.items).toHaveLength(250);
			expect(new Set(run.items.map((contact) => contact.id)).size).toBe(250);
			expect(run.items[0]).toMatchObject({ id: seededId('con_', 'contact:1'), number: 'CT-00001' });
			expect(run.items[249]).toMatchObject({
				id: seededId('con_', 'contact:250'),
				number: 'CT-00250',
			});
		});
	});

	describe('Webhook subscription', () => {
		let subscriptionId: string;
		const url = 'https://hooks.example.com/crm';

		beforeAll(async () => {
			await crm.reset();
		});

		afterAll(async () => {
			await crm.reset();
		});

		it('creates a subscription; only its output holds the secret', async () => {
			const run = await runAction({
				parameters: {
					resource: 'webhook',
					operation: 'create',
					name: 'E2E orders',
					url,
					events: ['lead.created', 'invoice.paid'],
					customEvents: 'invoice.overdue',
				},
			});
			expectSucceeded(run);
			expect(await calls()).toEqual(['POST /api/v1/webhooks 200']);
			expect((await apiRequests())[0].body).toEqual({
				name: 'E2E orders',
				url,
				events: ['lead.created', 'invoice.paid', 'invoice.overdue'],
			});
			expect(run.items).toEqual([
				expect.objectContaining({
					name: 'E2E orders',
					url,
					events: ['lead.created', 'invoice.paid', 'invoice.overdue'],
					status: 'active',
					secret: expect.stringMatching(/^whsec_/),
				}),
			]);
			subscriptionId = run.items[0].id;
			const [stored] = await crm.webhooks();
			expect(stored.secret).toBe(run.items[0].secret);
		});

		it('gets it, and lists it, without any secret', async () => {
			const got = await runAction({
				parameters: { resource: 'webhook', operation: 'get', webhookId: subscriptionId },
			});
			expectSucceeded(got);
			expect(got.items).toEqual([
				expect.objectContaining({ id: subscriptionId, name: 'E2E orders', url }),
			]);
			expect(JSON.stringify(got.items)).not.toMatch(/secret|whsec_/i);

			const listed = await runAction({
				parameters: { resource: 'webhook', operation: 'getMany', returnAll: true },
			});
			expectSucceeded(listed);
			expect(listed.items).toEqual([
				expect.objectContaining({
					id: subscriptionId,
					name: 'E2E orders',
					url,
					events: ['lead.created', 'invoice.paid', 'invoice.overdue'],
				}),
			]);
			expect(JSON.stringify(listed.items)).not.toMatch(/secret|whsec_/i);

			expect(await calls()).toEqual([
				`GET /api/v1/webhooks/${subscriptionId} 200`,
				'GET /api/v1/webhooks 200',
			]);
			expect((await apiRequests())[1].query).toEqual({ limit: '100' });
		});

		it('deletes it', async () => {
			const run = await runAction({
				parameters: { resource: 'webhook', operation: 'delete', webhookId: subscriptionId },
			});
			expectSucceeded(run);
			expect(await calls()).toEqual([`DELETE /api/v1/webhooks/${subscriptionId} 204`]);
			expect(run.items).toEqual([{ deleted: true, id: subscriptionId }]);
			expect(await crm.webhooks()).toEqual([]);
		});
	});

	describe('Custom API request', () => {
		it('GET with pagination follows the v2 cursor and stops at the limit', async () => {
			const run = await runAction({
				parameters: {
					resource: 'customApiRequest',
					operation: 'request',
					method: 'GET',
					apiVersion: 'v2',
					path: '/contacts',
					queryParameters: { parameters: [{ name: 'search', value: 'example.com' }] },
					paginate: true,
					returnAll: false,
					limit: 120,
				},
			});
			expectSucceeded(run);
			expect(await calls()).toEqual(['GET /api/v2/contacts 200', 'GET /api/v2/contacts 200']);
			const requests = await apiRequests();
			const first = await v2Page('/contacts', { search: 'example.com', pageSize: '100' });
			expect(requests.map((request) => request.query)).toEqual([
				{ search: 'example.com', pageSize: '100' },
				{ search: 'example.com', pageSize: '20', cursor: first.meta.nextCursor },
			]);
			expect(run.items).toHaveLength(120);
			expect(run.items[119]).toMatchObject({ id: seededId('con_', 'contact:120') });
		});

		it('POST sends the JSON body and outputs the response', async () => {
			const run = await runAction(
				{
					parameters: {
						resource: 'customApiRequest',
						operation: 'request',
						method: 'POST',
						apiVersion: 'v1',
						path: '/leads',
						queryParameters: {},
						jsonBody:
							'={{ JSON.stringify({ name: $json.body.name, email: "custom@example.com", priorityScore: 7 }) }}',
					},
				},
				{ name: 'Custom Request Lead' },
			);
			expectSucceeded(run);
			expect(await calls()).toEqual(['POST /api/v1/leads 200']);
			expect((await apiRequests())[0].body).toEqual({
				name: 'Custom Request Lead',
				email: 'custom@example.com',
				priorityScore: 7,
			});
			expect(run.items).toEqual([
				expect.objectContaining({
					name: 'Custom Request Lead',
					email: 'custom@example.com',
					priorityScore: 7,
					archived: false,
				}),
			]);
			expect(run.items[0].id).toMatch(/^lead_/);
		});

		it('DELETE sends no body for an empty JSON body and outputs success for the empty 204 answer', async () => {
			const subscription = await crm.api('POST', '/webhooks', {
				name: 'to delete',
				url: 'https://hooks.example.com/delete-me',
				events: ['lead.created'],
			});
			await crm.clearRequests();
			const run = await runAction({
				parameters: {
					resource: 'customApiRequest',
					operation: 'request',
					method: 'DELETE',
					apiVersion: 'v1',
					path: `/webhooks/${subscription.id}`,
					queryParameters: {},
					jsonBody: '{}',
				},
			});
			expectSucceeded(run);
			expect(await calls()).toEqual([`DELETE /api/v1/webhooks/${subscription.id} 204`]);
			expect((await apiRequests())[0].body).toBeUndefined();
			expect(run.items).toEqual([{ success: true }]);
			expect(await crm.webhooks()).toEqual([]);
		});
	});
});

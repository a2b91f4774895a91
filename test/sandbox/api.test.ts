import { DEFAULT_ADMIN_KEY, DEFAULT_READ_ONLY_KEY, startSandbox } from './server';
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

beforeEach(() => {
	sandbox.reset();
});

const firstClientId = (): string => sandbox.state.clients.values()[0].id;
const product = (index: number) => sandbox.state.products.values()[index];

describe('sandbox object', () => {
	it('listens on a random port of 127.0.0.1 and exposes the default keys', () => {
		expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(sandbox.keys).toEqual({ admin: DEFAULT_ADMIN_KEY, readOnly: DEFAULT_READ_ONLY_KEY });
		expect(DEFAULT_ADMIN_KEY).toBe('sk_sandbox_admin_0123456789abcdef');
		expect(DEFAULT_READ_ONLY_KEY).toBe('sk_sandbox_readonly_0123456789abcdef');
	});

	it('has the deterministic seed data', async () => {
		const { state } = sandbox;
		expect(state.clients.values().map((client) => client.type)).toEqual(
			expect.arrayContaining(['company', 'contact']),
		);
		expect(state.products.size).toBe(4);
		expect(state.users.size).toBe(5);
		expect(state.contacts.size).toBe(250);
		expect(state.leads.size).toBe(3);
		expect(state.taxRates.get('tax_vat20')?.rate).toBe(20);
		expect(state.taxRates.get('tax_zero')?.rate).toBe(0);
		expect(state.pipelines.get('pip_sales')?.stages.map((stage) => stage.id)).toEqual([
			'stg_new',
			'stg_qualified',
			'stg_proposal',
			'stg_won',
		]);
		expect([...state.leadStages.keys()]).toEqual(['lst_new', 'lst_contacted']);
		expect([...state.sources.keys()]).toEqual(['src_web', 'src_referral']);
		const ids = state.leads.values().map((lead) => lead.id);
		const other = await startSandbox({ rateLimit: false });
		try {
			expect(other.state.leads.values().map((lead) => lead.id)).toEqual(ids);
		} finally {
			await other.close();
		}
	});

	it('accepts custom API keys', async () => {
		const custom = await startSandbox({
			apiKeys: { admin: 'my-admin', readOnly: 'my-reader' },
			rateLimit: false,
		});
		try {
			expect((await call(custom, 'GET', '/api/v1/users', { key: 'my-reader' })).status).toBe(200);
			expect((await call(custom, 'GET', '/api/v1/users', { key: DEFAULT_ADMIN_KEY })).status).toBe(
				401,
			);
		} finally {
			await custom.close();
		}
	});
});

describe('authentication and permissions', () => {
	it('answers 401 without a key', async () => {
		const response = await call(sandbox, 'GET', '/api/v1/leads', { key: null });
		expect(response.status).toBe(401);
		expect(response.body).toEqual({
			error: { code: 'UNAUTHORIZED', message: 'An API key is required in the x-api-key header.' },
		});
	});

	it('answers 401 with an unknown key, on v1 and v2', async () => {
		for (const path of ['/api/v1/leads', '/api/v2/contacts']) {
			const response = await call(sandbox, 'GET', path, { key: 'sk_wrong' });
			expect(response.status).toBe(401);
			expect(response.body).toEqual({
				error: {
					code: 'UNAUTHORIZED',
					message: 'The API key in the x-api-key header is not valid.',
				},
			});
		}
	});

	it('lets the read-only key read but answers 403 to every write', async () => {
		const key = sandbox.keys.readOnly;
		expect((await call(sandbox, 'GET', '/api/v1/leads', { key })).status).toBe(200);
		const leadId = sandbox.state.leads.values()[0].id;
		const writes: Array<[string, string, string]> = [
			['POST', '/api/v1/leads', 'create leads'],
			['PATCH', `/api/v1/leads/${leadId}`, 'update leads'],
			['POST', '/api/v1/deals', 'create deals'],
			['PATCH', '/api/v1/deals/deal_x', 'update deals'],
			['POST', '/api/v1/invoices', 'create invoices'],
			['POST', '/api/v1/webhooks', 'create webhooks'],
			['DELETE', '/api/v1/webhooks/whk_x', 'delete webhooks'],
		];
		for (const [method, path, action] of writes) {
			const response = await call(sandbox, method, path, { key, body: { name: 'Blocked' } });
			expect({ method, path, status: response.status, body: response.body }).toEqual({
				method,
				path,
				status: 403,
				body: {
					error: {
						code: 'FORBIDDEN',
						message: `The user who owns this API key does not have permission to ${action}.`,
					},
				},
			});
		}
		expect(sandbox.state.leads.size).toBe(3);
	});
});

describe('routing and error shapes', () => {
	it('answers 404 NOT_FOUND for unknown routes and other v2 paths', async () => {
		for (const [method, path] of [
			['GET', '/api/v1/nothing'],
			['GET', '/api/v2/leads'],
			['DELETE', '/api/v1/leads/lead_x'],
			['GET', '/api/v3/contacts'],
		]) {
			const response = await call(sandbox, method, path);
			expect(response.status).toBe(404);
			expect(response.body.error.code).toBe('NOT_FOUND');
		}
	});

	it('answers 404 naming the id for unknown records', async () => {
		const cases: Array<[string, string]> = [
			['/api/v1/leads/lead_missing', 'Lead lead_missing was not found'],
			['/api/v1/deals/deal_missing', 'Deal deal_missing was not found'],
			['/api/v1/clients/cli_missing', 'Client cli_missing was not found'],
			['/api/v1/products/prd_missing', 'Product prd_missing was not found'],
			['/api/v1/webhooks/whk_missing', 'Webhook whk_missing was not found'],
			['/api/v1/invoices/inv_missing', 'Invoice inv_missing was not found'],
		];
		for (const [path, message] of cases) {
			const response = await call(sandbox, 'GET', path);
			expect(response.status).toBe(404);
			expect(response.body).toEqual({ error: { code: 'NOT_FOUND', message } });
		}
		expect(
			(await call(sandbox, 'PATCH', '/api/v1/leads/lead_missing', { body: { name: 'x' } })).body
				.error.message,
		).toBe('Lead lead_missing was not found');
		expect((await call(sandbox, 'DELETE', '/api/v1/webhooks/whk_missing')).status).toBe(404);
	});

	it('answers 400 for a body that is not JSON', async () => {
		const response = await call(sandbox, 'POST', '/api/v1/leads', { rawBody: '{"name": ' });
		expect(response.status).toBe(400);
		expect(response.body).toEqual({
			error: { code: 'VALIDATION_ERROR', message: 'The request body is not valid JSON' },
		});
		expect((await call(sandbox, 'POST', '/api/v1/leads', { body: ['a'] })).body.error.message).toBe(
			'The request body must be a JSON object',
		);
	});
});

describe('leads', () => {
	it('creates a lead with defaults, extra keys and custom fields', async () => {
		const response = await call(sandbox, 'POST', '/api/v1/leads', {
			body: {
				name: 'Grace Hopper',
				email: 'grace@example.com',
				mobile: '+15550001',
				value: 2500,
				stageId: 'lst_new',
				customFields: { tier: 'gold' },
				favouriteColour: 'blue',
				id: 'lead_forged',
			},
		});
		expect(response.status).toBe(200);
		const lead = response.body;
		expect(lead).toMatchObject({
			name: 'Grace Hopper',
			email: 'grace@example.com',
			mobile: '+15550001',
			value: 2500,
			stageId: 'lst_new',
			archived: false,
			customFields: { tier: 'gold' },
			favouriteColour: 'blue',
			title: null,
		});
		expect(lead.id).toMatch(/^lead_[0-9a-f]+$/);
		expect(lead.id).not.toBe('lead_forged');
		expect(lead.number).toBe('L-00004');
		expect(Math.abs(Date.parse(lead.createdAt) - Date.now())).toBeLessThan(5_000);
		expect(sandbox.state.leads.get(lead.id)).toEqual(lead);
		expect((await call(sandbox, 'GET', `/api/v1/leads/${lead.id}`)).body).toEqual(lead);
	});

	it('accepts a null email and any website', async () => {
		const response = await call(sandbox, 'POST', '/api/v1/leads', {
			body: { name: 'N', email: null, website: { url: 'x' } },
		});
		expect(response.status).toBe(200);
		expect(response.body).toMatchObject({ email: null, website: { url: 'x' } });
	});

	it.each([
		[{}, 'name is required'],
		[{ name: '' }, 'name must be at least 1 character'],
		[{ name: 5 }, 'name must be a string'],
		[{ name: 'A', email: 'not-an-email' }, 'email must be a valid email address'],
		[{ name: 'A', value: 'big' }, 'value must be a number'],
		[{ name: 'A', customFields: [1] }, 'customFields must be an object'],
		[{ name: 'A', archived: 'yes' }, 'archived must be a boolean'],
		[{ name: 'A', stageId: 3 }, 'stageId must be a string'],
	])('rejects %j with "%s"', async (body, message) => {
		const response = await call(sandbox, 'POST', '/api/v1/leads', { body });
		expect(response.status).toBe(400);
		expect(response.body).toEqual({ error: { code: 'VALIDATION_ERROR', message } });
		expect(sandbox.state.leads.size).toBe(3);
	});

	it('updates only the provided fields', async () => {
		const lead = sandbox.state.leads.values()[0];
		const before = { ...lead };
		const response = await call(sandbox, 'PATCH', `/api/v1/leads/${lead.id}`, {
			body: { archived: true, title: 'CEO', extra: 1 },
		});
		expect(response.status).toBe(200);
		expect(response.body).toEqual({ ...before, archived: true, title: 'CEO', extra: 1 });
		expect((await call(sandbox, 'PATCH', `/api/v1/leads/${lead.id}`)).body).toEqual(response.body);
		const invalid = await call(sandbox, 'PATCH', `/api/v1/leads/${lead.id}`, {
			body: { email: 'nope' },
		});
		expect(invalid.body.error.message).toBe('email must be a valid email address');
		expect(
			(await call(sandbox, 'PATCH', `/api/v1/leads/${lead.id}`, { body: { name: '' } })).body.error
				.message,
		).toBe('name must be at least 1 character');
	});

	it('pages through leads in creation order with an opaque cursor', async () => {
		sandbox.seedLeads(47);
		const seen: string[] = [];
		let cursor: string | null = null;
		let pages = 0;
		do {
			const query: string = cursor ? `limit=20&cursor=${encodeURIComponent(cursor)}` : 'limit=20';
			const response = await call(sandbox, 'GET', `/api/v1/leads?${query}`);
			expect(response.status).toBe(200);
			pages++;
			seen.push(...response.body.items.map((lead: { id: string }) => lead.id));
			expect(response.body.hasMore).toBe(response.body.nextCursor !== null);
			cursor = response.body.nextCursor;
		} while (cursor);
		expect(pages).toBe(3);
		expect(seen).toEqual(sandbox.state.leads.values().map((lead) => lead.id));
	});

	it('defaults to 20 per page and validates limit and cursor', async () => {
		sandbox.seedLeads(30);
		const first = await call(sandbox, 'GET', '/api/v1/leads');
		expect(first.body.items).toHaveLength(20);
		expect(first.body.hasMore).toBe(true);
		expect((await call(sandbox, 'GET', '/api/v1/leads?limit=100')).body).toMatchObject({
			hasMore: false,
			nextCursor: null,
		});
		for (const limit of ['0', '101', 'abc', '2.5', '-1']) {
			const response = await call(sandbox, 'GET', `/api/v1/leads?limit=${limit}`);
			expect(response.status).toBe(400);
			expect(response.body.error).toEqual({
				code: 'VALIDATION_ERROR',
				message: 'limit must be between 1 and 100',
			});
		}
		const bad = await call(sandbox, 'GET', '/api/v1/leads?cursor=garbage');
		expect(bad.status).toBe(400);
		expect(bad.body.error.message).toBe('cursor is not valid');
		const usersCursor = (await call(sandbox, 'GET', '/api/v1/users?limit=1')).body.nextCursor;
		expect((await call(sandbox, 'GET', `/api/v1/leads?cursor=${usersCursor}`)).status).toBe(400);
	});

	it('filters by search, archived and stageId, across pages', async () => {
		sandbox.seedLeads(100);
		const search = await call(sandbox, 'GET', '/api/v1/leads?search=SMITH&limit=100');
		expect(search.body.items.map((lead: { name: string }) => lead.name)).toEqual(['John Smith']);
		expect(
			(await call(sandbox, 'GET', '/api/v1/leads?search=%2B34600&limit=100')).body.items.map(
				(lead: { name: string }) => lead.name,
			),
		).toEqual(['Maria Garcia']);
		expect(
			(await call(sandbox, 'GET', '/api/v1/leads?search=smith.example')).body.items,
		).toHaveLength(1);

		const archived = sandbox.state.leads
			.values()
			.filter((lead) => lead.archived)
			.map((lead) => lead.id);
		const collected: string[] = [];
		let cursor: string | null = null;
		do {
			const response: {
				body: { items: Array<{ id: string; archived: boolean }>; nextCursor: string | null };
			} = await call(
				sandbox,
				'GET',
				`/api/v1/leads?archived=true&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
			);
			collected.push(...response.body.items.map((lead) => lead.id));
			cursor = response.body.nextCursor;
		} while (cursor);
		expect(archived.length).toBeGreaterThan(3);
		expect(collected).toEqual(archived);

		const contacted = await call(sandbox, 'GET', '/api/v1/leads?stageId=lst_contacted&limit=100');
		expect(contacted.body.items.length).toBeGreaterThan(0);
		expect(
			contacted.body.items.every((lead: { stageId: string }) => lead.stageId === 'lst_contacted'),
		).toBe(true);
		expect((await call(sandbox, 'GET', '/api/v1/leads?archived=maybe')).body.error.message).toBe(
			'archived must be true or false',
		);
	});
});

describe('deals', () => {
	const validDeal = () => ({
		title: 'Big deal',
		pipelineId: 'pip_sales',
		stageId: 'stg_new',
		clientId: firstClientId(),
	});

	it('creates a deal with status ACTIVE and extra keys, and reads it back', async () => {
		const response = await call(sandbox, 'POST', '/api/v1/deals', {
			body: {
				...validDeal(),
				price: 9000,
				priority: 'HIGH',
				expectedCloseDate: '2025-03-01T12:00:00Z',
				note: 'x',
			},
		});
		expect(response.status).toBe(200);
		expect(response.body).toMatchObject({
			...validDeal(),
			price: 9000,
			priority: 'HIGH',
			status: 'ACTIVE',
			expectedCloseDate: '2025-03-01T12:00:00Z',
			note: 'x',
			number: 'D-00001',
		});
		expect(response.body.id).toMatch(/^deal_/);
		expect((await call(sandbox, 'GET', `/api/v1/deals/${response.body.id}`)).body).toEqual(
			response.body,
		);
	});

	it.each([
		[{ title: undefined }, 'title is required'],
		[{ title: '' }, 'title must be at least 1 character'],
		[{ pipelineId: undefined }, 'pipelineId is required'],
		[{ stageId: undefined }, 'stageId is required'],
		[{ clientId: undefined }, 'clientId is required'],
		[{ clientId: 'cli_nope' }, 'clientId cli_nope does not refer to an existing client'],
		[{ priority: 'URGENT' }, 'priority must be one of LOW, MEDIUM, HIGH'],
		[{ price: '10' }, 'price must be a number'],
		[{ expectedCloseDate: 'next week' }, 'expectedCloseDate must be an ISO 8601 date-time'],
		[{ expectedCloseDate: '2025-03-01' }, 'expectedCloseDate must be an ISO 8601 date-time'],
	])('rejects %j with "%s"', async (override, message) => {
		const response = await call(sandbox, 'POST', '/api/v1/deals', {
			body: { ...validDeal(), ...override },
		});
		expect(response.status).toBe(400);
		expect(response.body).toEqual({ error: { code: 'VALIDATION_ERROR', message } });
	});

	it('updates status, stage and other fields', async () => {
		const created = (await call(sandbox, 'POST', '/api/v1/deals', { body: validDeal() })).body;
		const response = await call(sandbox, 'PATCH', `/api/v1/deals/${created.id}`, {
			body: { status: 'WON', stageId: 'stg_won', price: 1, sourceId: 'src_web', custom: true },
		});
		expect(response.status).toBe(200);
		expect(response.body).toEqual({
			...created,
			status: 'WON',
			stageId: 'stg_won',
			price: 1,
			sourceId: 'src_web',
			custom: true,
		});
		expect(
			(await call(sandbox, 'PATCH', `/api/v1/deals/${created.id}`, { body: { status: 'PAUSED' } }))
				.body.error.message,
		).toBe('status must be one of ACTIVE, WON, LOST');
		expect(
			(await call(sandbox, 'PATCH', `/api/v1/deals/${created.id}`, { body: { title: '' } })).body
				.error.message,
		).toBe('title must be at least 1 character');
		expect((await call(sandbox, 'PATCH', '/api/v1/deals/deal_nope', { body: {} })).status).toBe(
			404,
		);
	});
});

describe('invoices', () => {
	const base = () => ({
		clientId: firstClientId(),
		date: '2024-05-01T00:00:00Z',
		dueDate: '2024-05-31T00:00:00Z',
	});

	it('computes line and invoice totals with tax and both discount types', async () => {
		const users = sandbox.state.users.values();
		const response = await call(sandbox, 'POST', '/api/v1/invoices', {
			body: {
				...base(),
				salesPersonId: users[2].id,
				subject: 'May work',
				tags: [],
				poNumber: 'PO-1',
				lineItems: [
					{
						productId: product(0).id,
						quantity: 2,
						taxRateId: 'tax_vat20',
						discount: 10,
						discountType: 'percentage',
					},
					{
						name: 'Custom work',
						quantity: 3,
						price: 100,
						discount: 50,
						discountType: 'fixed',
						taxRateId: 'tax_zero',
						description: 'ad hoc',
						buyPrice: 20,
					},
				],
			},
		});
		expect(response.status).toBe(200);
		const invoice = response.body;
		expect(invoice.id).toMatch(/^inv_/);
		expect(invoice).toMatchObject({
			number: 'INV-00001',
			status: 'DRAFT',
			currency: 'USD',
			isInclusiveTax: false,
			subTotal: 600,
			discountTotal: 80,
			taxTotal: 54,
			total: 574,
			pendingTotal: 574,
			paidTotal: 0,
			salesPersonId: sandbox.state.userInternalIds.get(users[2].id),
			subject: 'May work',
			tags: [],
			poNumber: 'PO-1',
			clientId: firstClientId(),
		});
		expect(typeof invoice.salesPersonId).toBe('number');
		expect(invoice.lineItems).toEqual([
			{
				name: product(0).name,
				quantity: 2,
				price: 150,
				tax: 20,
				discount: 10,
				discountType: 'percentage',
				buyPrice: 0,
				viewType: 'LINE_ITEM',
				amount: 300,
				discountAmount: 30,
				taxAmount: 54,
				description: product(0).description,
				productId: sandbox.state.productInternalIds.get(product(0).id),
			},
			{
				name: 'Custom work',
				quantity: 3,
				price: 100,
				tax: 0,
				discount: 50,
				discountType: 'fixed',
				buyPrice: 20,
				viewType: 'LINE_ITEM',
				amount: 300,
				discountAmount: 50,
				taxAmount: 0,
				description: 'ad hoc',
				productId: null,
			},
		]);
		expect((await call(sandbox, 'GET', `/api/v1/invoices/${invoice.id}`)).body).toEqual(invoice);
	});

	it('extracts tax from inclusive prices and accepts status SENT', async () => {
		const response = await call(sandbox, 'POST', '/api/v1/invoices', {
			body: {
				...base(),
				isInclusiveTax: true,
				status: 'SENT',
				lineItems: [{ name: 'Gross', quantity: 1, price: 120, taxRateId: 'tax_vat20' }],
			},
		});
		expect(response.status).toBe(200);
		expect(response.body).toMatchObject({
			status: 'SENT',
			isInclusiveTax: true,
			subTotal: 100,
			taxTotal: 20,
			discountTotal: 0,
			total: 120,
		});
		expect(response.body.lineItems[0]).toMatchObject({ amount: 120, taxAmount: 20 });
	});

	it.each([
		[{ clientId: undefined }, 'clientId is required'],
		[{ clientId: 'cli_nope' }, 'clientId cli_nope does not refer to an existing client'],
		[{ date: undefined }, 'date is required'],
		[{ dueDate: 'tomorrow' }, 'dueDate must be an ISO 8601 date-time'],
		[{ lineItems: undefined }, 'lineItems is required'],
		[{ lineItems: [] }, 'lineItems must contain at least 1 item'],
		[{ status: 'PAID' }, 'status must be one of DRAFT, SENT'],
		[{ isInclusiveTax: 'no' }, 'isInclusiveTax must be a boolean'],
		[{ tags: ['a'] }, 'tags must be an array of numbers'],
		[{ salesPersonId: 'usr_nope' }, 'salesPersonId usr_nope does not refer to an existing user'],
		[
			{ lineItems: [{ productId: 'prd_nope', quantity: 1 }] },
			'lineItems[0].productId prd_nope does not refer to an existing product',
		],
		[
			{ lineItems: [{ name: 'A', price: 1, taxRateId: 'tax_nope' }] },
			'lineItems[0].taxRateId tax_nope does not refer to an existing tax rate',
		],
		[{ lineItems: [{ name: 'A' }] }, 'lineItems[0].price is required'],
		[
			{ lineItems: [{ name: 'A', price: 1, discountType: 'bogus' }] },
			'lineItems[0].discountType must be one of fixed, percentage',
		],
		[{ lineItems: [{ name: 'A', price: 1 }, 'x'] }, 'lineItems[1] must be an object'],
	])('rejects %j with "%s"', async (override, message) => {
		const body: Record<string, unknown> = {
			...base(),
			lineItems: [{ name: 'A', price: 1, quantity: 1 }],
			...override,
		};
		const response = await call(sandbox, 'POST', '/api/v1/invoices', { body });
		expect(response.status).toBe(400);
		expect(response.body).toEqual({ error: { code: 'VALIDATION_ERROR', message } });
		expect(sandbox.state.invoices.size).toBe(0);
	});
});

describe('clients, products, users', () => {
	it('returns clients and products by id', async () => {
		for (const client of sandbox.state.clients.values()) {
			const response = await call(sandbox, 'GET', `/api/v1/clients/${client.id}`);
			expect(response.status).toBe(200);
			expect(response.body).toEqual(client);
			expect(response.body.id).toMatch(/^cli_/);
			expect(response.body.number).toMatch(/^C-\d{5}$/);
		}
		const response = await call(sandbox, 'GET', `/api/v1/products/${product(1).id}`);
		expect(response.body).toEqual(product(1));
		expect(Object.keys(response.body).sort()).toEqual([
			'description',
			'id',
			'isActive',
			'name',
			'price',
			'sku',
			'type',
		]);
	});

	it('lists users with search, active filter and pagination', async () => {
		const all = await call(sandbox, 'GET', '/api/v1/users');
		expect(all.body.items).toHaveLength(5);
		expect(all.body).toMatchObject({ hasMore: false, nextCursor: null });
		expect(all.body.items[0]).toEqual(
			expect.objectContaining({
				id: expect.stringMatching(/^usr_/),
				firstName: expect.any(String),
				email: expect.any(String),
				role: expect.any(String),
				createdAt: expect.any(String),
			}),
		);

		const inactive = await call(sandbox, 'GET', '/api/v1/users?active=false');
		expect(inactive.body.items.map((user: { lastName: string }) => user.lastName)).toEqual([
			'Former',
		]);
		expect((await call(sandbox, 'GET', '/api/v1/users?active=true')).body.items).toHaveLength(4);
		expect(
			(await call(sandbox, 'GET', '/api/v1/users?search=READER')).body.items.map(
				(user: { firstName: string }) => user.firstName,
			),
		).toEqual(['Rita']);
		expect(
			(await call(sandbox, 'GET', '/api/v1/users?search=maya.manager@')).body.items,
		).toHaveLength(1);

		const first = await call(sandbox, 'GET', '/api/v1/users?limit=2');
		expect(first.body.items).toHaveLength(2);
		const second = await call(
			sandbox,
			'GET',
			`/api/v1/users?limit=2&cursor=${first.body.nextCursor}`,
		);
		const third = await call(
			sandbox,
			'GET',
			`/api/v1/users?limit=2&cursor=${second.body.nextCursor}`,
		);
		expect(third.body).toMatchObject({ hasMore: false, nextCursor: null });
		expect([...first.body.items, ...second.body.items, ...third.body.items]).toEqual(
			all.body.items,
		);
		expect((await call(sandbox, 'GET', '/api/v1/users?limit=101')).status).toBe(400);
	});
});

describe('v2 contacts', () => {
	it('pages 250 contacts with pageSize 30 by default and meta.nextCursor', async () => {
		const ids: string[] = [];
		let cursor: string | null = null;
		let pages = 0;
		do {
			const response: {
				status: number;
				body: {
					data: Array<{ id: string }>;
					meta: { nextCursor: string | null; hasMore: boolean };
				};
			} = await call(sandbox, 'GET', `/api/v2/contacts${cursor ? `?cursor=${cursor}` : ''}`);
			expect(response.status).toBe(200);
			expect(Object.keys(response.body).sort()).toEqual(['data', 'meta']);
			expect(response.body.meta.hasMore).toBe(response.body.meta.nextCursor !== null);
			pages++;
			if (pages < 9) expect(response.body.data).toHaveLength(30);
			ids.push(...response.body.data.map((contact) => contact.id));
			cursor = response.body.meta.nextCursor;
		} while (cursor);
		expect(pages).toBe(9);
		expect(new Set(ids).size).toBe(250);
		expect(ids).toEqual(sandbox.state.contacts.values().map((contact) => contact.id));
		const contact = sandbox.state.contacts.values()[0];
		expect(contact).toEqual(
			expect.objectContaining({
				id: expect.stringMatching(/^con_/),
				number: expect.any(String),
				firstName: expect.any(String),
				lastName: expect.any(String),
				email: expect.any(String),
			}),
		);
	});

	it('validates pageSize and supports search', async () => {
		expect((await call(sandbox, 'GET', '/api/v2/contacts?pageSize=100')).body.data).toHaveLength(
			100,
		);
		for (const pageSize of ['0', '101']) {
			const response = await call(sandbox, 'GET', `/api/v2/contacts?pageSize=${pageSize}`);
			expect(response.status).toBe(400);
			expect(response.body).toEqual({
				error: { code: 'VALIDATION_ERROR', message: 'pageSize must be between 1 and 100' },
			});
		}
		const search = await call(sandbox, 'GET', '/api/v2/contacts?search=ALICE&pageSize=100');
		expect(search.body.data.length).toBeGreaterThan(0);
		expect(
			search.body.data.every((contact: { firstName: string }) => contact.firstName === 'Alice'),
		).toBe(true);
		expect((await call(sandbox, 'GET', '/api/v2/contacts?cursor=!!')).status).toBe(400);
	});
});

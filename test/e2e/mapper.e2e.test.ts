/**
 * Issue 30: the resource mapper of node version 3 in real n8n: the fields through n8n's own endpoint, then leads and
 * deals created and updated in both mapping modes, under both readings of PATCH's customFields (sandbox
 * `patchCustomFields`), n8n checking the mapped values' types. Cache, notice and requests: test/unit/actions/mapper*.
 */
import { randomUUID } from 'node:crypto';

import {
	e2eEnv,
	mapperColumns as columns,
	mapperFields as fields,
	runAction,
	runWorkflow,
	sandbox,
	splitOutActionWorkflow,
} from './lib';

const env = e2eEnv();
const crm = sandbox(env);
const V3 = 3;
const CLIENT = 'cli_c98c6bc22dc8b8de';

const apiRequests = async () =>
	(await crm.requests())
		.filter((request) => request.path.startsWith('/api/'))
		.map((request) => `${request.method} ${request.path.replace(/\?.*$/, '')}`);

describe(`the resource mapper (node version 3) in real n8n ${env.n8nVersion}`, () => {
	beforeAll(async () => {
		// Leads of other files would fill the first page the mapper reads.
		await crm.reset();
	});

	afterAll(async () => {
		await crm.config({ patchCustomFields: 'replace' });
	});

	it('lists the lead fields and the custom fields of recent leads, typed, through n8n’s endpoint, reading one page', async () => {
		const tag = randomUUID().slice(0, 8);
		await crm.api('POST', '/leads', {
			name: `Seed ${tag}`,
			customFields: {
				industry: 'Retail',
				seats: 12,
				vip: true,
				renewal: '2026-12-01T00:00:00.000Z',
			},
		});
		await crm.clearRequests();

		const { fields: listed } = await fields({ resource: 'lead', operation: 'create' });
		const byId = Object.fromEntries(listed.map((field) => [field.id, field]));

		expect(byId.name).toMatchObject({ required: true, type: 'string' });
		expect(byId.value).toMatchObject({ required: false, type: 'number' });
		expect(byId['customFields.industry']).toMatchObject({
			displayName: 'industry (custom field)',
			type: 'string',
		});
		expect(byId['customFields.seats'].type).toBe('number');
		expect(byId['customFields.vip'].type).toBe('boolean');
		expect(byId['customFields.renewal'].type).toBe('dateTime');
		expect(await apiRequests()).toEqual(['GET /api/v1/leads']);
	});

	it('creates leads with Map Automatically, custom values typed, and updates one field under both PATCH readings', async () => {
		const { fields: schema } = await fields({ resource: 'lead', operation: 'create' });
		const path = `e2e-${randomUUID()}`;
		const workflow = splitOutActionWorkflow(
			path,
			'rows',
			{ resource: 'lead', operation: 'create', columns: columns(schema, null, 'autoMapInputData') },
			V3,
		);
		const rows = [
			{ name: 'Auto One', email: 'one@example.com', industry: 'Banking', seats: 7 },
			{ name: 'Auto Two', vip: false, unknownColumn: 'left out' },
		];
		const created = await runWorkflow(workflow, path, { rows });
		expect(created.status).toBe(200);
		expect(created.items.map((item) => item.customFields)).toEqual([
			{ industry: 'Banking', seats: 7 },
			{ vip: false },
		]);
		expect(created.items[1]).not.toHaveProperty('unknownColumn');

		const { fields: updateSchema } = await fields({ resource: 'lead', operation: 'update' });
		for (const reading of ['replace', 'merge']) {
			await crm.config({ patchCustomFields: reading });
			const lead = created.items[0];
			const run = await runAction({
				typeVersion: V3,
				parameters: {
					resource: 'lead',
					operation: 'update',
					leadId: { __rl: true, mode: 'id', value: lead.id },
					columns: columns(updateSchema, {
						'customFields.seats': `={{ ${reading === 'merge' ? 9 : 8} }}`,
					}),
				},
			});
			expect(run.status).toBe(200);
			const seats = reading === 'merge' ? 9 : 8;
			expect(run.items[0].customFields).toEqual({ industry: 'Banking', seats });
			expect(run.items[0]._update).toEqual({ changed: ['customFields.seats'] });
			expect(run.items[0].email).toBe('one@example.com');
			const stored = await crm.api('GET', `/leads/${lead.id}`);
			expect(stored.customFields).toEqual({ industry: 'Banking', seats });
		}
	});

	it('creates a deal field by field and updates its custom field, keeping the other, under both readings', async () => {
		const { fields: schema } = await fields({ resource: 'deal', operation: 'create' });
		await crm.clearRequests();
		const created = await runAction({
			typeVersion: V3,
			parameters: {
				resource: 'deal',
				operation: 'create',
				columns: columns(schema, {
					title: 'Mapped deal',
					pipelineId: 'pip_sales',
					stageId: '={{ "stg_new" }}',
					clientId: CLIENT,
					price: 2500,
					priority: 'HIGH',
					expectedCloseDate: '2026-06-30',
				}),
				additionalFields: {
					customFields: {
						field: [
							{ key: 'region', value: 'EMEA' },
							{ key: 'tier', value: 'gold' },
						],
					},
				},
			},
		});
		expect(created.status).toBe(200);
		const deal = created.items[0];
		expect(deal).toMatchObject({
			title: 'Mapped deal',
			price: 2500,
			priority: 'HIGH',
			expectedCloseDate: '2026-06-30T00:00:00.000Z',
			customFields: { region: 'EMEA', tier: 'gold' },
		});
		expect(await apiRequests()).toEqual(['POST /api/v1/deals']);

		const updateFields = await fields({ resource: 'deal', operation: 'update', dealId: deal.id });
		const ids = updateFields.fields.map((field) => field.id);
		expect(ids).toEqual(
			expect.arrayContaining(['status', 'customFields.region', 'customFields.tier']),
		);
		for (const reading of ['replace', 'merge']) {
			await crm.config({ patchCustomFields: reading });
			const region = `APAC-${reading}`;
			const run = await runAction({
				typeVersion: V3,
				parameters: {
					resource: 'deal',
					operation: 'update',
					dealId: deal.id,
					columns: columns(updateFields.fields, { status: 'WON', 'customFields.region': region }),
				},
			});
			expect(run.status).toBe(200);
			expect(run.items[0]).toMatchObject({
				status: 'WON',
				customFields: { region, tier: 'gold' },
				_update: { changed: ['status', 'customFields.region'] },
			});
		}
	});

	it('a wrong type fails the item with an error naming the field and the item', async () => {
		const { fields: schema } = await fields({ resource: 'lead', operation: 'create' });
		await crm.clearRequests();
		const run = await runAction({
			typeVersion: V3,
			continueOnFail: true,
			parameters: {
				resource: 'lead',
				operation: 'create',
				columns: columns(schema, { name: 'Typed', 'customFields.seats': '={{ "twelve" }}' }),
			},
		});
		expect(run.items[0].error).toBe(
			'"seats (custom field)" must be a number but is the text "twelve" in item 0',
		);
		expect(await apiRequests()).toEqual([]);
	});
});

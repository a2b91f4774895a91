/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Output control (issue 18) in the real n8n, against the sandbox: Simplify on and off on a Get and a Get Many, a
 * version-1 node (as saved with 0.2) unchanged, Create or Update's `_upsert` marker and its hint, the hint of a
 * multi-page Return All and of a run that waited for the rate limit (as n8n stores hints: in the execution's run data,
 * `runData[node][run].hints`), the trigger's Simplify, and each output's pairing with the input item it came from
 * (the outputs of one input item share one pairedItem object, as n8n's constructExecutionMetaData builds them).
 */
import { randomUUID } from 'node:crypto';

import { SIMPLIFIED_FIELDS } from '../../nodes/CrmInvoicing/shared/simplify';
import { OWNER, webhookNode } from '../../scripts/lib/n8n';
import {
	ACTION_NODE_TYPE,
	callWebhook,
	e2eEnv,
	finishedExecutions,
	n8nClient,
	runAction,
	sandbox,
	triggerWorkflow,
	waitFor,
	waitForExecution,
	withActiveWorkflow,
} from './lib';

const env = e2eEnv();
const crm = sandbox(env);
const n8n = n8nClient(env);

/** The hints n8n stored with the CRM node's run. */
function hintsOf(execution: any): Array<{ message: string; type?: string; location?: string }> {
	return execution?.data?.resultData?.runData?.['CRM Invoicing']?.[0]?.hints ?? [];
}

const leadKeys = [...SIMPLIFIED_FIELDS.lead];

describe(`Output control in real n8n ${env.n8nVersion}`, () => {
	let lead: any;

	beforeAll(async () => {
		await crm.reset();
		lead = await crm.api('POST', '/leads', {
			name: 'Output Person',
			email: `output.${randomUUID().slice(0, 8)}@example.com`,
			mobile: '+33600000000',
			secondaryMobile: '+33611111111',
			website: 'https://output.example',
			title: 'Buyer',
			value: 1200,
			customFields: { budget: 'high' },
		});
	});

	describe('Simplify', () => {
		const get = {
			resource: 'lead',
			operation: 'get',
			leadId: { __rl: true, mode: 'id', value: '' },
		};
		const getOf = () => ({ ...get, leadId: { ...get.leadId, value: lead.id } });

		it('Lead → Get in a new node (version 2, Simplify left at its default): only the simplified fields', async () => {
			const run = await runAction({ parameters: getOf(), typeVersion: 2 });
			expect(run.execution.status).toBe('success');
			const raw = await crm.api('GET', `/leads/${lead.id}`);
			expect(run.items).toEqual([
				Object.fromEntries(leadKeys.filter((key) => key in raw).map((key) => [key, raw[key]])),
			]);
			expect(Object.keys(raw).length).toBeGreaterThan(10);
			expect(Object.keys(run.items[0]).length).toBeLessThanOrEqual(10);
		});

		it("Lead → Get with Simplify off: the API's record unchanged", async () => {
			const run = await runAction({ parameters: { ...getOf(), simplify: false }, typeVersion: 2 });
			expect(run.items).toEqual([await crm.api('GET', `/leads/${lead.id}`)]);
		});

		it("Lead → Get in a version-1 node (saved with 0.2): the API's record, exactly as before", async () => {
			const run = await runAction({ parameters: getOf(), typeVersion: 1 });
			expect(run.items).toEqual([await crm.api('GET', `/leads/${lead.id}`)]);
		});

		it('Lead → Get Many: simplified by default, raw when off, raw in version 1', async () => {
			const parameters = {
				resource: 'lead',
				operation: 'getMany',
				limit: 3,
				filters: { search: lead.email },
			};
			const page = await crm.api('GET', `/leads?search=${encodeURIComponent(lead.email)}&limit=3`);
			expect(page.items.length).toBeGreaterThan(0);

			const simplified = await runAction({ parameters, typeVersion: 2 });
			expect(simplified.items).toEqual(
				page.items.map((raw: any) =>
					Object.fromEntries(leadKeys.filter((key) => key in raw).map((key) => [key, raw[key]])),
				),
			);
			expect(
				(await runAction({ parameters: { ...parameters, simplify: false }, typeVersion: 2 })).items,
			).toEqual(page.items);
			expect((await runAction({ parameters, typeVersion: 1 })).items).toEqual(page.items);
		});

		it("the node as an AI Agent tool (n8n's generated crmInvoicingTool) is the node's newest version, 4, with Simplify on by default", async () => {
			const login = await fetch(`${env.n8nUrl}/rest/login`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					emailOrLdapLoginId: OWNER.email,
					email: OWNER.email,
					password: OWNER.password,
				}),
			});
			expect(login.status).toBe(200);
			const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
			const response = await fetch(`${env.n8nUrl}/types/nodes.json`, { headers: { cookie } });
			expect(response.status).toBe(200);
			const types = (await response.json()) as any[];
			const tool = types.find((type) => type.name === `${ACTION_NODE_TYPE}Tool`);
			expect(tool).toBeDefined();
			expect(tool.defaultVersion).toBe(4);
			const simplify = tool.properties.filter((property: any) => property.name === 'simplify');
			expect(simplify.length).toBe(6);
			for (const property of simplify) expect(property.default).toBe(true);
		});
	});

	describe('Create or Update: what it did', () => {
		it('marks the created lead, then the updated one, and says "Created N and updated M leads"', async () => {
			const email = `upsert.${randomUUID().slice(0, 8)}@example.com`;
			const parameters = {
				resource: 'lead',
				operation: 'upsert',
				email,
				name: 'Marked Person',
				additionalFields: {},
			};

			const first = await runAction({ parameters, typeVersion: 2 });
			expect(first.execution.status).toBe('success');
			const { _upsert: createdMarker, ...createdLead } = first.items[0];
			expect(createdMarker).toEqual({ action: 'created', matchedField: null });
			expect(createdLead).toEqual(await crm.api('GET', `/leads/${createdLead.id}`));
			expect(hintsOf(first.execution).map((hint) => hint.message)).toContain(
				'Created 1 and updated 0 leads',
			);

			const second = await runAction({
				parameters: { ...parameters, name: 'Marked Again' },
				typeVersion: 2,
			});
			const { _upsert: updatedMarker, ...updatedLead } = second.items[0];
			expect(updatedMarker).toEqual({ action: 'updated', matchedField: 'email' });
			expect(updatedLead).toEqual(await crm.api('GET', `/leads/${createdLead.id}`));
			expect(updatedLead.name).toBe('Marked Again');
			expect(hintsOf(second.execution).map((hint) => hint.message)).toContain(
				'Created 0 and updated 1 leads',
			);

			// A version-1 node outputs the lead alone, as 0.2 did, and still says what it did.
			const v1 = await runAction({
				parameters: { ...parameters, name: 'Version One' },
				typeVersion: 1,
			});
			expect(v1.items).toEqual([await crm.api('GET', `/leads/${createdLead.id}`)]);
			expect(hintsOf(v1.execution).map((hint) => hint.message)).toContain(
				'Created 0 and updated 1 leads',
			);
		});
	});

	describe('execution hints: what a run cost', () => {
		afterAll(async () => {
			await crm.config({ rateLimit: { limit: 600, windowMs: 60_000 } });
			await crm.reset();
		});

		it('a multi-page Return All stores a hint with its pages and requests', async () => {
			const existing = (await crm.control<{ counts: { leads: number } }>('GET', '/health')).counts
				.leads;
			await crm.control('POST', '/seed', { leads: Math.max(0, 250 - existing) });
			const run = await runAction({
				parameters: { resource: 'lead', operation: 'getMany', returnAll: true, filters: {} },
				typeVersion: 2,
			});
			expect(run.execution.status).toBe('success');
			expect(run.items.length).toBeGreaterThanOrEqual(250);
			const pages = Math.ceil(run.items.length / 100);
			expect(hintsOf(run.execution)).toEqual([
				{
					message: `This run read ${pages} pages and sent ${pages} requests to the CRM.`,
					type: 'info',
					location: 'outputPane',
				},
			]);
		});

		it('a single Get stores no hint', async () => {
			const run = await runAction({
				parameters: {
					resource: 'lead',
					operation: 'get',
					leadId: { __rl: true, mode: 'id', value: lead.id },
				},
				typeVersion: 2,
			});
			expect(run.execution.status).toBe('success');
			expect(hintsOf(run.execution)).toEqual([]);
		});

		it('a run held back by the rate limit says how long it waited', async () => {
			await crm.config({ rateLimit: { limit: 2, windowMs: 2_000 } });
			const run = await runAction({
				parameters: { resource: 'lead', operation: 'getMany', returnAll: true, filters: {} },
				typeVersion: 2,
			});
			await crm.config({ rateLimit: { limit: 600, windowMs: 60_000 } });
			expect(run.execution.status).toBe('success');
			const [hint] = hintsOf(run.execution);
			expect(hint?.message).toMatch(
				/^This run read \d+ pages, sent \d+ requests to the CRM(,| and) waited [\d.]+ (s|ms) in total for its rate limit/,
			);
		});
	});
});

describe(`CRM Invoicing Trigger's Simplify in real n8n ${env.n8nVersion}`, () => {
	const workflowIds: string[] = [];

	async function outputOf(workflowId: string): Promise<any[]> {
		const [execution] = await waitFor(
			async () => {
				const executions = await finishedExecutions(workflowId);
				return executions.length >= 1 ? executions : undefined;
			},
			30_000,
			'the execution of lead.created',
		);
		const full = await n8n.api('GET', `/executions/${execution.id}?includeData=true`);
		return full.data.resultData.runData['CRM Invoicing Trigger'][0].data.main[0].map(
			(item: { json: unknown }) => item.json,
		);
	}

	beforeAll(async () => {
		await crm.reset();
	});

	afterAll(async () => {
		for (const id of workflowIds) {
			await n8n.deactivate(id).catch(() => undefined);
			await n8n.deleteWorkflow(id).catch(() => undefined);
		}
	});

	it('a new trigger (version 2) outputs event, timestamp and the simplified lead; a version-1 trigger as before', async () => {
		const v2 = await n8n.createWorkflow(
			triggerWorkflow('e2e trigger simplify v2', ['lead.created'], env, 2),
		);
		const v1 = await n8n.createWorkflow(
			triggerWorkflow('e2e trigger simplify v1', ['lead.created'], env, 1),
		);
		workflowIds.push(v2.id, v1.id);
		await n8n.activate(v2.id);
		await n8n.activate(v1.id);
		// n8n 2.41 registers the subscriptions after the activate answer: wait for both.
		await waitFor(
			async () =>
				(await crm.webhooks()).filter((subscription) => subscription.status === 'active').length >=
				2,
			20_000,
			'two subscriptions',
		);

		const lead = await crm.api('POST', '/leads', {
			name: 'Trigger Person',
			email: 'trigger.person@example.com',
			title: 'Buyer',
		});

		const [simplified] = await outputOf(v2.id);
		expect(Object.keys(simplified).sort()).toEqual(['event', 'payload', 'timestamp']);
		expect(simplified.event).toBe('lead.created');
		expect(simplified.payload).toMatchObject({
			id: lead.id,
			name: 'Trigger Person',
			email: 'trigger.person@example.com',
		});
		expect(
			Object.keys(simplified.payload).every((key) =>
				(SIMPLIFIED_FIELDS.lead as readonly string[]).includes(key),
			),
		).toBe(true);

		const [raw] = await outputOf(v1.id);
		expect(raw).toMatchObject({
			event: 'lead.created',
			payload: { id: lead.id, name: 'Trigger Person' },
		});
		expect(raw.webhookId).toMatch(/^msg_/);
		const extra = Object.keys(raw.payload).filter(
			(key) => !(SIMPLIFIED_FIELDS.lead as readonly string[]).includes(key),
		);
		// The sandbox's delivery carries fields beyond the simplified ones (source, stage, ownerId, …): version 1 keeps them.
		expect(extra.length).toBeGreaterThan(0);
		expect(simplified.payload).toEqual(
			Object.fromEntries(Object.entries(raw.payload).filter(([key]) => !extra.includes(key))),
		);
	});
});

describe(`Pairing in real n8n ${env.n8nVersion}`, () => {
	it("each output names its input item, and a later node's $('Code').item resolves through it", async () => {
		await crm.reset();
		const path = `e2e-${randomUUID()}`;
		const credential = env.credentials.admin;
		const workflow = {
			name: `e2e pairing ${path}`,
			settings: {},
			nodes: [
				webhookNode(path, { responseMode: 'lastNode', responseData: 'allEntries' }),
				{
					id: randomUUID(),
					name: 'Code',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					position: [200, 0],
					parameters: {
						jsCode: "return [{ json: { tag: 'first' } }, { json: { tag: 'second' } }];",
					},
				},
				{
					id: randomUUID(),
					name: 'CRM Invoicing',
					type: ACTION_NODE_TYPE,
					typeVersion: 2,
					position: [400, 0],
					parameters: { resource: 'lead', operation: 'getMany', returnAll: false, limit: 2 },
					credentials: { crmInvoicingApi: { id: credential.id, name: credential.name } },
				},
				{
					id: randomUUID(),
					name: 'Tag',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					position: [600, 0],
					parameters: {
						assignments: {
							assignments: [
								{
									id: randomUUID(),
									name: 'from',
									value: "={{ $('Code').item.json.tag }}",
									type: 'string',
								},
								{ id: randomUUID(), name: 'leadId', value: '={{ $json.id }}', type: 'string' },
							],
						},
						options: {},
					},
				},
			],
			connections: {
				Webhook: { main: [[{ node: 'Code', type: 'main', index: 0 }]] },
				Code: { main: [[{ node: 'CRM Invoicing', type: 'main', index: 0 }]] },
				'CRM Invoicing': { main: [[{ node: 'Tag', type: 'main', index: 0 }]] },
			},
		};

		const { items, execution } = await withActiveWorkflow(
			workflow,
			async (workflowId) => {
				const answer = await callWebhook(path, {}, env);
				return { ...answer, execution: await waitForExecution(workflowId, env) };
			},
			env,
		);

		expect(execution.status).toBe('success');
		const crmRun = execution.data.resultData.runData['CRM Invoicing'][0].data.main[0];
		expect(crmRun.map((item: any) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 1 },
			{ item: 1 },
		]);
		expect(items.map((item) => item.from)).toEqual(['first', 'first', 'second', 'second']);
		expect(items.map((item) => item.leadId)).toEqual(crmRun.map((item: any) => item.json.id));
	});
});

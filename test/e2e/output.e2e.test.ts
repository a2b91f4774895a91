/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Output control (issue 18) where real n8n adds to the unit tests (test/unit/output/): the editor's Fields list through
 * n8n's load-options endpoint, the hints of Create or Update and of a multi-page Return All as n8n stores them
 * (`runData[node][run].hints`), and each output's pairing with its input item, which `$('Code').item` resolves.
 */
import { randomUUID } from 'node:crypto';

import {
	ACTION_NODE_TYPE,
	answeringWebhook,
	chain,
	crmNode,
	e2eEnv,
	n8nClient,
	runAction,
	runWorkflow,
	sandbox,
} from './lib';

const env = e2eEnv();
const crm = sandbox(env);
const n8n = n8nClient(env);

/** The hints n8n stored with the CRM node's run. */
function hintsOf(execution: any): Array<{ message: string; type?: string; location?: string }> {
	return execution?.data?.resultData?.runData?.['CRM Invoicing']?.[0]?.hints ?? [];
}

describe(`Output control in real n8n ${env.n8nVersion}`, () => {
	beforeAll(async () => {
		await crm.reset();
		await crm.api('POST', '/leads', { name: 'Output Person', customFields: { budget: 'high' } });
	});

	afterAll(async () => {
		await crm.reset();
	});

	it("Output (version 4), the editor's Fields list: a lead's fields and the custom fields of the CRM's leads", async () => {
		const leadFields = await n8n.loadOptions({
			nodeType: ACTION_NODE_TYPE,
			version: 4,
			methodName: 'getOutputFields',
			parameterPath: 'parameters.fields',
			parameters: { resource: 'lead', operation: 'get', output: 'fields' },
			// The read-only key: no other test's lookup is in its 60-second cache (the mapper's use the admin key).
			credentials: { crmInvoicingApi: env.credentials.readOnly },
		});
		expect(leadFields).toContainEqual({ name: 'email', value: 'email' });
		expect(leadFields).toContainEqual({
			name: 'budget (custom field)',
			value: 'customFields.budget',
		});
	});

	it('Create or Update marks the created lead, and n8n stores the hint "Created 1 and updated 0 leads"', async () => {
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
});

describe(`Pairing in real n8n ${env.n8nVersion}`, () => {
	it("each output names its input item, and a later node's $('Code').item resolves through it", async () => {
		await crm.reset();
		const path = `e2e-${randomUUID()}`;
		const workflow = {
			name: `e2e pairing ${path}`,
			settings: {},
			nodes: [
				answeringWebhook(path),
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
				crmNode({
					name: 'CRM Invoicing',
					typeVersion: 2,
					x: 400,
					parameters: { resource: 'lead', operation: 'getMany', returnAll: false, limit: 2 },
				}),
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
			connections: chain('Webhook', 'Code', 'CRM Invoicing', 'Tag'),
		};

		const { items, execution } = await runWorkflow(workflow, path);

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

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * The workflows in examples/, imported into the real n8n as they are and run against the sandbox CRM, with only what a
 * user is told to change (the credential and the "Settings" node) and the one change each below for a schedule or poll.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { seededId } from '../sandbox/store';
import {
	ACTION_NODE_TYPE,
	callWebhook,
	configureExample as configure,
	e2eEnv,
	EVERY_FIVE_SECONDS,
	type Example,
	EXAMPLES,
	finishedExecutions,
	loadExample,
	nodeNamed,
	nodeOutput,
	POLLING_TRIGGER_TYPE,
	replaceByWebhook,
	sandbox,
	TRIGGER_NODE_TYPE,
	waitFor,
	waitForExecutions,
	withActiveWorkflow,
} from './lib';

const env = e2eEnv();
const crm = sandbox(env);

const CREDENTIAL_NAME = 'CRM Invoicing account';
const ACME = seededId('cli_', 'client:1');
const JOHN_SMITH = seededId('lead_', 'seed-lead:1');
const MARIA_GARCIA = seededId('lead_', 'seed-lead:2');
const OLD_PROSPECT = seededId('lead_', 'seed-lead:3');
const DAY = 24 * 3_600_000;

/** The n8n-nodes-base nodes (and versions) that exist in both n8n 2.41.0 and 1.123.81, which the examples may use. */
const BASE_NODES: Record<string, number[]> = {
	'n8n-nodes-base.set': [3.4],
	'n8n-nodes-base.code': [2],
	'n8n-nodes-base.if': [2],
	'n8n-nodes-base.filter': [2],
	'n8n-nodes-base.scheduleTrigger': [1.2],
	'n8n-nodes-base.webhook': [2],
	'n8n-nodes-base.stickyNote': [1],
};

/** The value a Settings assignment has in the file. */
function setting(example: Example, name: string): unknown {
	const assignment = nodeNamed(example, 'Settings').parameters.assignments.assignments.find(
		(a: { name: string }) => a.name === name,
	);
	if (!assignment) throw new Error(`${example.name}: Settings has no "${name}"`);
	return assignment.value;
}

/** Waits for `count` executions, each one successful, with their data. */
async function successfulExecutions(workflowId: string, count: number): Promise<any[]> {
	const executions = await waitForExecutions(workflowId, count, env, 30_000);
	for (const execution of executions) {
		expect({
			id: execution.id,
			status: execution.status,
			error: execution.data?.resultData?.error?.message,
		}).toEqual({
			id: execution.id,
			status: 'success',
			error: undefined,
		});
	}
	return executions;
}

/** The webhook subscriptions in the sandbox; the trigger of an active example has created exactly one. */
async function expectOneSubscription(): Promise<any> {
	const subscriptions = await crm.webhooks();
	expect(subscriptions).toHaveLength(1);
	expect(subscriptions[0]).toMatchObject({ events: ['lead.created'], status: 'active' });
	expect(subscriptions[0].url).toMatch(new RegExp(`^${env.webhookUrl ?? env.n8nUrl}/webhook/`));
	return subscriptions[0];
}

describe('The example files', () => {
	const files = readdirSync(EXAMPLES).filter((file) => file.endsWith('.json'));

	it('are the five documented examples', () => {
		expect(files.sort()).toEqual([
			'archive-stale-leads.json',
			'lead-created-enrich-create-deal.json',
			'new-leads-to-invoices.json',
			'updated-lead-notify.json',
			'web-form-to-lead-upsert.json',
		]);
		const readme = readFileSync(path.join(EXAMPLES, 'README.md'), 'utf8');
		for (const file of files) expect(readme).toContain(file);
		expect(readme).toMatch(/Import from File/);
	});

	it.each(files)(
		'%s uses only nodes of this package and nodes both supported n8n versions have, and explains itself',
		(file) => {
			const example = loadExample(file);
			expect(example.name).toEqual(expect.any(String));
			const names = new Set(example.nodes.map((node) => node.name));
			expect(names.size).toBe(example.nodes.length);
			for (const node of example.nodes) {
				if (
					node.type === ACTION_NODE_TYPE ||
					node.type === TRIGGER_NODE_TYPE ||
					node.type === POLLING_TRIGGER_TYPE
				) {
					expect(node.typeVersion).toBe(1);
					expect(node.credentials).toEqual({
						crmInvoicingApi: { id: expect.any(String), name: CREDENTIAL_NAME },
					});
				} else {
					expect(BASE_NODES[node.type]).toContain(node.typeVersion);
					expect(node.credentials).toBeUndefined();
				}
				expect(node.id).toMatch(/^[0-9a-f-]{36}$/);
			}
			// Every connection joins nodes of the file.
			for (const [from, outputs] of Object.entries(example.connections)) {
				expect(names).toContain(from);
				for (const connection of outputs.main.flat()) expect(names).toContain(connection.node);
			}
			const note = example.nodes.find((node) => node.type === 'n8n-nodes-base.stickyNote');
			expect(note?.parameters.content).toMatch(/credential/i);
			expect(note?.parameters.content).toMatch(/Settings/);
		},
	);
});

describe(`The examples in real n8n ${env.n8nVersion}`, () => {
	beforeAll(async () => {
		await crm.reset();
	});

	afterAll(async () => {
		// Nothing is left behind: every example's subscription went away with its workflow.
		expect(await crm.webhooks()).toEqual([]);
		await crm.reset();
	});

	it('new-leads-to-invoices.json: a new lead gets an onboarding invoice for the Settings client, due in 14 days', async () => {
		const example = loadExample('new-leads-to-invoices.json');
		const defaultPrice = setting(example, 'defaultPrice') as number;
		const paymentTermDays = setting(example, 'paymentTermDays') as number;
		expect(paymentTermDays).toBe(14);
		const workflow = configure(example, { clientId: ACME });

		await withActiveWorkflow(workflow, async (workflowId) => {
			await expectOneSubscription();

			const valued = await crm.api('POST', '/leads', {
				name: 'Ada Byron',
				email: 'ada.byron@example.com',
				value: 2500,
			});
			const plain = await crm.api('POST', '/leads', { name: 'Charles Babbage' });
			const executions = await successfulExecutions(workflowId, 2);

			const created = executions.flatMap((execution) => nodeOutput(execution, 'Create Invoice'));
			expect(created).toHaveLength(2);
			const invoices = await Promise.all(
				created.map(async (invoice) => await crm.api('GET', `/invoices/${invoice.id}`)),
			);
			const forLead = (lead: { id: string }) =>
				invoices.find((invoice) => String(invoice.notes).includes(lead.id));

			for (const [lead, price] of [
				[valued, 2500],
				[plain, defaultPrice],
			] as const) {
				const invoice = forLead(lead);
				expect(invoice).toMatchObject({
					clientId: ACME,
					status: 'DRAFT',
					subject: `Onboarding ${lead.name}`,
					notes: `Created by n8n for lead ${lead.id} (${lead.name}).`,
					total: price,
				});
				expect(invoice.lineItems).toEqual([
					expect.objectContaining({
						name: `Onboarding for ${lead.name}`,
						quantity: 1,
						price,
						amount: price,
					}),
				]);
				// 14 calendar days in the workflow's time zone (an hour more or less across a daylight-saving change).
				const term = Date.parse(invoice.dueDate) - Date.parse(invoice.date);
				expect(Math.abs(term - paymentTermDays * DAY)).toBeLessThan(3_600_000 + 5_000);
				expect(Math.abs(Date.parse(invoice.date) - Date.now())).toBeLessThan(120_000);
			}

			const deliveries = await crm.deliveriesOf('lead.created');
			expect(deliveries.map((delivery) => delivery.status)).toEqual([200, 200]);
		});
		expect(await crm.webhooks()).toEqual([]);
	});

	it('lead-created-enrich-create-deal.json: a new lead is read in full and gets a deal in the Settings pipeline', async () => {
		await crm.reset();
		const example = loadExample('lead-created-enrich-create-deal.json');
		const highPriorityFrom = setting(example, 'highPriorityFromValue') as number;
		const workflow = configure(example, {
			pipelineId: 'pip_sales',
			stageId: 'stg_new',
			clientId: ACME,
		});

		await withActiveWorkflow(workflow, async (workflowId) => {
			await expectOneSubscription();
			await crm.clearRequests();

			const big = await crm.api('POST', '/leads', {
				name: 'Big Buyer',
				email: 'big@example.com',
				value: highPriorityFrom + 2000,
			});
			await successfulExecutions(workflowId, 1);
			const small = await crm.api('POST', '/leads', { name: 'Small Buyer', value: 800 });
			await successfulExecutions(workflowId, 2);
			const unvalued = await crm.api('POST', '/leads', { name: 'No Value Yet' });
			const executions = await successfulExecutions(workflowId, 3);

			const deals = executions.flatMap((execution) => nodeOutput(execution, 'Create Deal'));
			expect(deals).toHaveLength(3);
			const dealFor = (lead: { id: string }) => deals.find((deal) => deal.leadId === lead.id);
			expect(dealFor(big)).toMatchObject({
				title: 'Big Buyer',
				pipelineId: 'pip_sales',
				stageId: 'stg_new',
				clientId: ACME,
				price: highPriorityFrom + 2000,
				priority: 'HIGH',
				status: 'ACTIVE',
			});
			expect(dealFor(small)).toMatchObject({
				title: 'Small Buyer',
				clientId: ACME,
				price: 800,
				priority: 'MEDIUM',
			});
			expect(dealFor(unvalued)).toMatchObject({
				title: 'No Value Yet',
				clientId: ACME,
				price: null,
				priority: 'MEDIUM',
			});

			// Each execution read the full lead (the enrichment) before it created the deal.
			const requests = (await crm.requests()).filter(
				(request) =>
					request.path.startsWith('/api/') &&
					request.headers['x-api-key'] === env.sandboxKeys.admin,
			);
			const flow = requests.filter(
				(request) => request.path.startsWith('/api/v1/leads/') || request.path === '/api/v1/deals',
			);
			expect(flow.map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual([
				`GET /api/v1/leads/${big.id} 200`,
				'POST /api/v1/deals 200',
				`GET /api/v1/leads/${small.id} 200`,
				'POST /api/v1/deals 200',
				`GET /api/v1/leads/${unvalued.id} 200`,
				'POST /api/v1/deals 200',
			]);
			expect(flow[5].body).toEqual({
				title: 'No Value Yet',
				pipelineId: 'pip_sales',
				stageId: 'stg_new',
				clientId: ACME,
				leadId: unvalued.id,
				priority: 'MEDIUM',
			});
		});
		expect(await crm.webhooks()).toEqual([]);
	});

	it('archive-stale-leads.json: archives the leads older than staleAfterDays and leaves the fresh ones', async () => {
		await crm.reset();
		// 150 fresh leads (every tenth archived) beside the 3 seeded ones of January 2024: two pages to read.
		await crm.control('POST', '/seed', { leads: 150 });
		const fresh = [
			await crm.api('POST', '/leads', { name: 'Fresh One' }),
			await crm.api('POST', '/leads', { name: 'Fresh Two' }),
		];

		const example = loadExample('archive-stale-leads.json');
		expect(setting(example, 'staleAfterDays')).toBe(30);
		const workflow = configure(example, {});
		// The one change more: a test cannot wait for 06:00, so a Webhook of the same name replaces the Schedule Trigger.
		const webhookPath = `e2e-stale-${randomUUID()}`;
		const schedule = replaceByWebhook(workflow, 'Every Morning', webhookPath);
		expect(schedule.type).toBe('n8n-nodes-base.scheduleTrigger');

		await withActiveWorkflow(workflow, async (workflowId) => {
			expect(await crm.webhooks()).toEqual([]);
			expect((await callWebhook(webhookPath)).status).toBe(200);
			const [execution] = await waitForExecutions(workflowId, 1, env, 60_000);
			expect(execution.status).toBe('success');
			expect(nodeOutput(execution, 'Get Active Leads')).toHaveLength(2 + 135 + 2);
			expect(nodeOutput(execution, 'Archive Lead').map((lead) => lead.id)).toEqual([
				JOHN_SMITH,
				MARIA_GARCIA,
			]);
		});

		for (const id of [JOHN_SMITH, MARIA_GARCIA, OLD_PROSPECT])
			expect((await crm.api('GET', `/leads/${id}`)).archived).toBe(true);
		for (const lead of fresh)
			expect((await crm.api('GET', `/leads/${lead.id}`)).archived).toBe(false);
		// Archived now: the 3 seeded leads and the 15 generated ones that were archived already, nothing else.
		const archived = await crm.api('GET', '/leads?archived=true&limit=100');
		expect(archived.items).toHaveLength(3 + 15);
	});
	it('updated-lead-notify.json: a change of a watched field gives one notification; other changes none', async () => {
		await crm.reset();
		const example = loadExample('updated-lead-notify.json');
		expect(setting(example, 'watchedFields')).toBe('stageId,value');
		const workflow = configure(example, {});
		// The one change more: the trigger polls every 5 s instead of every minute.
		const trigger = nodeNamed(workflow, 'Lead Updated');
		expect(trigger.parameters.pollTimes).toEqual({ item: [{ mode: 'everyMinute' }] });
		trigger.parameters.pollTimes = EVERY_FIVE_SECONDS;

		await withActiveWorkflow(workflow, async (workflowId) => {
			// The activation poll remembers the leads; then one watched change and one that is not watched.
			await new Promise((resolve) => setTimeout(resolve, 2_000));
			await crm.api('PATCH', `/leads/${JOHN_SMITH}`, { stageId: 'lst_contacted', value: 6500 });
			await crm.api('PATCH', `/leads/${MARIA_GARCIA}`, { title: 'Head of Procurement' });
			const notifications = async () =>
				(await finishedExecutions(workflowId)).flatMap((run) => nodeOutput(run, 'Notification'));
			const first = await waitFor(
				async () => ((await notifications()).length > 0 ? await notifications() : undefined),
				40_000,
				'a notification',
			);
			await new Promise((resolve) => setTimeout(resolve, 7_000));
			const executions = await finishedExecutions(workflowId);
			for (const execution of executions) expect(execution.status).toBe('success');
			const all = executions.flatMap((execution) => nodeOutput(execution, 'Notification'));
			expect(all).toEqual(first);
			expect(all).toEqual([
				{
					leadId: JOHN_SMITH,
					changedFields: ['value', 'stageId'],
					text: 'Lead John Smith (L-00001) changed: value = 6500, stageId = "lst_contacted"',
				},
			]);
			// Both edits came out of the trigger (Maria's stopped at the filter).
			const updated = executions.flatMap((execution) => nodeOutput(execution, 'Lead Updated'));
			expect(updated.map((lead) => [lead.id, lead._event]).sort()).toEqual(
				[
					[JOHN_SMITH, 'updatedLead'],
					[MARIA_GARCIA, 'updatedLead'],
				].sort(),
			);
		});
	});

	it('web-form-to-lead-upsert.json: form posts become one lead per email (any case, spaces), updated on repeat, never duplicated', async () => {
		await crm.reset();
		const example = loadExample('web-form-to-lead-upsert.json');
		expect(setting(example, 'formName')).toBe('Website contact form');
		const workflow = configure(example, {});
		const form = nodeNamed(workflow, 'Form Submission');
		expect(form.parameters.path).toBe('lead-capture');

		await withActiveWorkflow(workflow, async (workflowId) => {
			const submit = async (body: Record<string, unknown>) =>
				expect(await callWebhook('lead-capture', body)).toEqual({
					status: 200,
					items: [{ received: true }],
				});
			await submit({ name: 'Ada Byron', email: ' Ada.Byron@Example.com ', phone: '+441234567890' });
			await submit({ name: 'Ada King', email: 'ada.byron@example.com' });
			// A lead that was in the CRM before (seeded), sent in capitals.
			await submit({ name: 'John Smith', email: 'JOHN.SMITH@example.com ' });
			await successfulExecutions(workflowId, 3);
		});

		const leads: any[] = (await crm.api('GET', '/leads?limit=100')).items;
		expect(leads).toHaveLength(3 + 1);
		const ada = leads.filter(
			(lead) => String(lead.email).trim().toLowerCase() === 'ada.byron@example.com',
		);
		expect(ada).toHaveLength(1);
		expect(ada[0]).toMatchObject({
			name: 'Ada King',
			email: 'Ada.Byron@Example.com',
			mobile: '+441234567890',
			customFields: { lastForm: 'Website contact form' },
		});
		const john = leads.filter(
			(lead) => String(lead.email).toLowerCase() === 'john.smith@example.com',
		);
		expect(john.map((lead) => lead.id)).toEqual([JOHN_SMITH]);
		expect(john[0]).toMatchObject({
			name: 'John Smith',
			title: 'CTO',
			customFields: { lastForm: 'Website contact form' },
		});
	});
});

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Lead → Create or Update and the lead picker, in the real n8n against the sandbox, under both sandbox personalities
 * (the PATCH /leads/{id} answer is not shown by the spec: a Lead, or 204 with no body).
 */
import { randomUUID } from 'node:crypto';

import { OWNER } from '../../scripts/lib/n8n';
import type { SandboxPersonality } from '../sandbox/types';
import {
	ACTION_NODE_TYPE,
	e2eEnv,
	nodeOutput,
	runAction,
	sandbox,
	splitOutActionWorkflow,
	waitForExecutions,
	withActiveWorkflow,
} from './lib';

const env = e2eEnv();
const crm = sandbox(env);

/** The same, as `METHOD path`. */
async function apiCalls(): Promise<string[]> {
	return (await crm.n8nRequests()).map((request) => `${request.method} ${request.path}`);
}

async function leadsWithEmail(email: string): Promise<any[]> {
	const page = await crm.api('GET', `/leads?search=${encodeURIComponent(email)}&limit=100`);
	return page.items.filter(
		(lead: any) => String(lead.email).trim().toLowerCase() === email.toLowerCase(),
	);
}

describe.each<SandboxPersonality>(['standard', 'alternate'])(
	`Lead → Create or Update in real n8n ${env.n8nVersion} (sandbox %s)`,
	(personality) => {
		const readBack = personality === 'alternate';

		beforeAll(async () => {
			await crm.reset();
			await crm.config({ personality });
		});

		afterAll(async () => {
			await crm.config({ personality: 'standard' });
		});

		beforeEach(async () => {
			await crm.clearRequests();
		});

		it('updates the lead whose email differs only in case and spaces, and outputs it as Lead → Get does', async () => {
			const email = `case.${randomUUID().slice(0, 8)}@example.com`;
			const existing = await crm.api('POST', '/leads', { name: 'Case Person', email });
			await crm.clearRequests();

			const run = await runAction({
				parameters: {
					resource: 'lead',
					operation: 'upsert',
					email: `  ${email.toUpperCase()}  `,
					name: 'Case Person Updated',
					additionalFields: { title: 'Buyer', value: 4200 },
				},
			});

			expect(run.execution.status).toBe('success');
			const asGet = await crm.api('GET', `/leads/${existing.id}`);
			expect(run.items).toEqual([asGet]);
			expect(asGet).toMatchObject({
				id: existing.id,
				email,
				name: 'Case Person Updated',
				title: 'Buyer',
				value: 4200,
			});
			expect(await leadsWithEmail(email)).toHaveLength(1);
			expect(await apiCalls()).toEqual([
				'GET /api/v1/leads',
				`PATCH /api/v1/leads/${existing.id}`,
				...(readBack ? [`GET /api/v1/leads/${existing.id}`] : []),
			]);
			const [search] = (await crm.n8nRequests()).filter(
				(request) => request.path === '/api/v1/leads',
			);
			expect(search.query).toEqual({ search: email, archived: 'false', limit: '100' });
		});

		it('gives one POST then one PATCH for two items with one new email in a single execution', async () => {
			const email = `new.${randomUUID().slice(0, 8)}@example.com`;
			const path = `e2e-upsert-${randomUUID()}`;
			const workflow = splitOutActionWorkflow(path, 'people', {
				resource: 'lead',
				operation: 'upsert',
				email: '={{ $json.email }}',
				name: '={{ $json.name }}',
				additionalFields: {},
			});

			await withActiveWorkflow(workflow, async (workflowId) => {
				const response = await fetch(`${env.webhookUrl ?? env.n8nUrl}/webhook/${path}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({
						people: [
							{ email, name: 'First Submission' },
							{ email: ` ${email.toUpperCase()}`, name: 'Second Submission' },
						],
					}),
				});
				expect(response.status).toBe(200);
				const [execution] = await waitForExecutions(workflowId, 1, env);
				expect(execution.status).toBe('success');
				const output = nodeOutput(execution, 'CRM Invoicing');
				expect(output).toHaveLength(2);
				expect(output[0].id).toBe(output[1].id);
				expect(output[1]).toEqual(await crm.api('GET', `/leads/${output[0].id}`));
				expect(output.map((lead) => lead.name)).toEqual(['First Submission', 'Second Submission']);
			});

			const leads = await leadsWithEmail(email);
			expect(leads).toHaveLength(1);
			const id = leads[0].id;
			expect(await apiCalls()).toEqual([
				'GET /api/v1/leads',
				'POST /api/v1/leads',
				`PATCH /api/v1/leads/${id}`,
				...(readBack ? [`GET /api/v1/leads/${id}`] : []),
			]);
			const requests = await crm.n8nRequests();
			expect(requests[1].body).toEqual({ name: 'First Submission', email });
			expect(requests[2].body).toEqual({ name: 'Second Submission' });
		});

		it('creates a new lead next to an archived one with the same email (archived leads are not matched)', async () => {
			const email = `archived.${randomUUID().slice(0, 8)}@example.com`;
			const archived = await crm.api('POST', '/leads', { name: 'Archived Person', email });
			await crm.api('PATCH', `/leads/${archived.id}`, { archived: true });
			if (personality === 'alternate') {
				// The alternate PATCH ignores `archived`: archive through the standard reading for this set-up step.
				await crm.config({ personality: 'standard' });
				await crm.api('PATCH', `/leads/${archived.id}`, { archived: true });
				await crm.config({ personality });
			}
			await crm.clearRequests();

			const run = await runAction({
				parameters: {
					resource: 'lead',
					operation: 'upsert',
					email,
					name: 'Back Again',
					additionalFields: {},
				},
			});

			expect(run.execution.status).toBe('success');
			expect(run.items[0].id).not.toBe(archived.id);
			expect(run.items[0]).toMatchObject({ email, name: 'Back Again', archived: false });
			expect((await crm.api('GET', `/leads/${archived.id}`)).archived).toBe(true);
			expect(await apiCalls()).toEqual(['GET /api/v1/leads', 'POST /api/v1/leads']);
		});
	},
);

/** What the editor's "From List" asks n8n for (POST /rest/dynamic-node-parameters/resource-locator-results). */
async function pickerResults(
	filter?: string,
	paginationToken?: string,
): Promise<{ results: any[]; paginationToken?: string }> {
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
	const credential = env.credentials.admin;
	const response = await fetch(
		`${env.n8nUrl}/rest/dynamic-node-parameters/resource-locator-results`,
		{
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie },
			body: JSON.stringify({
				nodeTypeAndVersion: { name: ACTION_NODE_TYPE, version: 1 },
				path: 'parameters.leadId',
				methodName: 'searchLeads',
				currentNodeParameters: {
					resource: 'lead',
					operation: 'get',
					leadId: { __rl: true, mode: 'list', value: '' },
				},
				credentials: { crmInvoicingApi: { id: credential.id, name: credential.name } },
				...(filter === undefined ? {} : { filter }),
				...(paginationToken === undefined ? {} : { paginationToken }),
			}),
		},
	);
	const text = await response.text();
	expect({ status: response.status, text: response.status === 200 ? '' : text }).toEqual({
		status: 200,
		text: '',
	});
	const json = JSON.parse(text);
	return json.data ?? json;
}

describe(`The lead picker ("From List") in real n8n ${env.n8nVersion}`, () => {
	const tag = randomUUID().slice(0, 8);
	const email = `twin.${tag}@example.com`;
	let twins: any[];

	beforeAll(async () => {
		await crm.reset();
		twins = [
			await crm.api('POST', '/leads', { name: `Twin ${tag}`, email }),
			await crm.api('POST', '/leads', { name: `Twin ${tag}`, email }),
		];
	});

	it('shows name, email and lead number, so two leads with the same name and email are told apart', async () => {
		const { results } = await pickerResults(email);
		expect(results).toEqual(
			twins.map((lead) => ({ name: `Twin ${tag} · ${email} · ${lead.number}`, value: lead.id })),
		);
		expect(twins[0].number).not.toBe(twins[1].number);
	});

	it("searches by name, and by lead number (which the CRM's own search does not cover)", async () => {
		const byName = await pickerResults(`twin ${tag}`);
		expect(byName.results.map((result) => result.value)).toEqual(twins.map((lead) => lead.id));

		const byNumber = await pickerResults(twins[1].number);
		expect(byNumber.results).toEqual([
			{ name: `Twin ${tag} · ${email} · ${twins[1].number}`, value: twins[1].id },
		]);
	});

	it('lists leads without a filter, seeded ones included, labelled the same way', async () => {
		const { results } = await pickerResults();
		const john = results.find((result) =>
			result.name.startsWith('John Smith · john.smith@example.com · '),
		);
		expect(john).toBeDefined();
		expect(john.name).toMatch(/ · \S+$/);
	});
});

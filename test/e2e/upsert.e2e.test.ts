/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * The lead picker ("From List") as the editor asks n8n's own endpoint for it, against the sandbox. Its search by name
 * or number, its list without a filter and Lead → Create or Update are proved in test/unit/actions/leadPicker.test.ts
 * and leadUpsert.test.ts (both PATCH readings), through n8n-core's HTTP helper.
 */
import { randomUUID } from 'node:crypto';

import { OWNER } from '../../scripts/lib/n8n';
import { ACTION_NODE_TYPE, e2eEnv, sandbox } from './lib';

const env = e2eEnv();
const crm = sandbox(env);

/** What the editor's "From List" asks n8n for (POST /rest/dynamic-node-parameters/resource-locator-results). */
async function pickerResults(
	filter: string,
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
				filter,
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
});

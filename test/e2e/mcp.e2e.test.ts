/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Issue 30: the node's tool variant (crmInvoicingTool) as tools of n8n's MCP Server Trigger (version 2, streamable
 * HTTP), called with the official MCP SDK client: the schema the model gets ($fromAI), a create with a custom field, a
 * find, Output → Select Included Fields and a Custom Field Filter (version 4), and the read-only key's refusal.
 */
import { randomUUID } from 'node:crypto';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import {
	ACTION_NODE_TYPE,
	createdWorkflows,
	crmNode,
	e2eEnv,
	mapperColumns,
	mapperFields,
	sandbox,
	waitForWebhook,
} from './lib';

const env = e2eEnv();
const crm = sandbox(env);
const workflows = createdWorkflows(env);
const MCP_TRIGGER = 'MCP Server Trigger';

/** A tool node of the CRM node's tool variant, version 3 unless said, with this credential. */
function toolNode(
	name: string,
	parameters: Record<string, unknown>,
	role: 'admin' | 'readOnly',
	typeVersion = 3,
) {
	const credential = env.credentials[role];
	return crmNode({ name, type: `${ACTION_NODE_TYPE}Tool`, typeVersion, parameters, credential });
}

/** What the model fills in Lead → Create: three of the mapper's fields, described as docs/operations.md says. */
const createValue = {
	name: "={{ $fromAI('name', 'Full name of the lead (required on Create)', 'string') }}",
	email: "={{ $fromAI('email', 'Email address of the lead', 'string', '') }}",
	'customFields.industry':
		"={{ $fromAI('industry', 'Custom field industry: line of business of the lead', 'string') }}",
};

/** What the model reads of Output's Fields, as docs/operations.md gives it. */
const FIELDS_HELP = 'Comma-separated lead fields to return, e.g. name,email,customFields.industry';
/** Lead → Get Many's filter value as docs/operations.md's table gives it to the model. */
const EXTERNAL_ID =
	"$fromAI('externalId', 'External ID of the lead, the custom field externalId, e.g. EXT-0142', 'string')";

/** The text of a tool result's content. */
const textOf = (result: any): string =>
	(result.content as Array<{ type: string; text?: string }>)
		.map((part) => part.text ?? '')
		.join('\n');

describe(`the node as MCP tools of n8n's MCP Server Trigger in real n8n ${env.n8nVersion}`, () => {
	const path = `mcp-${randomUUID()}`;
	let client: Client;

	beforeAll(async () => {
		// The mapper lists the custom fields of the leads it reads: one lead has the custom field the tool maps.
		await crm.api('POST', '/leads', { name: 'Seed', customFields: { industry: 'Retail' } });
		const { fields: schema } = await mapperFields({ resource: 'lead', operation: 'create' });
		const create = {
			resource: 'lead',
			operation: 'create',
			columns: mapperColumns(schema, createValue),
			additionalFields: {},
		};
		const firstTen = { resource: 'lead', operation: 'getMany', returnAll: false, limit: 10 };
		const tools = [
			toolNode('create_lead', create, 'admin'),
			toolNode(
				'find_leads',
				{
					...firstTen,
					// The whole lead, custom fields included (Simplify keeps ten standard fields).
					simplify: false,
					filters: {
						search:
							"={{ $fromAI('search', 'Text to look for in the leads\\' name, email, mobile or website', 'string') }}",
					},
				},
				'admin',
			),
			toolNode('create_lead_read_only', create, 'readOnly'),
			// Version 4: Output → Select Included Fields, the fields the model names (issue 43).
			toolNode(
				'find_lead_names',
				{
					...firstTen,
					output: 'fields',
					fields: `={{ $fromAI('fields', '${FIELDS_HELP}', 'string') }}`,
					filters: {
						search: "={{ $fromAI('search', 'Text to look for in the leads', 'string') }}",
					},
				},
				'admin',
				4,
			),
			toolNode(
				'find_lead_by_external_id',
				{
					resource: 'lead',
					operation: 'getMany',
					returnAll: true,
					output: 'raw',
					// The row of docs/operations.md's $fromAI table: the key fixed, the value from the model.
					customFieldFilter: {
						field: [{ key: 'externalId', value: `={{ ${EXTERNAL_ID} }}` }],
					},
				},
				'admin',
				4,
			),
		];
		const workflow = {
			name: `e2e mcp ${path}`,
			settings: {},
			nodes: [
				{
					id: randomUUID(),
					name: MCP_TRIGGER,
					type: '@n8n/n8n-nodes-langchain.mcpTrigger',
					typeVersion: 2,
					position: [0, 0],
					webhookId: randomUUID(),
					parameters: { path },
				},
				...tools,
			],
			connections: Object.fromEntries(
				tools.map((tool) => [
					tool.name,
					{ ai_tool: [[{ node: MCP_TRIGGER, type: 'ai_tool', index: 0 }]] },
				]),
			),
		};
		await workflows.create(workflow, true);
		const url = `${env.webhookUrl ?? env.n8nUrl}/mcp/${path}`;
		await waitForWebhook(url);
		client = new Client({ name: 'crm-invoicing-e2e', version: '1.0.0' });
		await client.connect(new StreamableHTTPClientTransport(new URL(url)));
	});

	afterAll(async () => {
		await client?.close().catch(() => undefined);
		await workflows.removeAll();
	});

	it('lists the four tools, each field the model fills with its type and description', async () => {
		const { tools } = await client.listTools();
		const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
		expect(Object.keys(byName).sort()).toEqual([
			'create_lead',
			'create_lead_read_only',
			'find_lead_by_external_id',
			'find_lead_names',
			'find_leads',
		]);
		expect(byName.create_lead.description).toBe('Create a lead in CRM Invoicing');
		const properties = byName.create_lead.inputSchema.properties as Record<string, any>;
		expect(properties.name).toMatchObject({
			type: 'string',
			description: 'Full name of the lead (required on Create)',
		});
		expect(properties.industry).toMatchObject({
			type: 'string',
			description: 'Custom field industry: line of business of the lead',
		});
		expect(properties.email).toMatchObject({ type: 'string', default: '' });
		// With a default (the fourth value of $fromAI), the model may leave a field out.
		expect([...(byName.create_lead.inputSchema.required ?? [])].sort()).toEqual([
			'industry',
			'name',
		]);
		expect(byName.find_leads.description).toBe('Get many leads in CRM Invoicing');
		expect(Object.keys(byName.find_leads.inputSchema.properties ?? {})).toEqual(['search']);
		expect(byName.find_lead_names.inputSchema.properties).toMatchObject({
			fields: { type: 'string', description: FIELDS_HELP },
		});
		expect(byName.find_lead_by_external_id.inputSchema.properties).toEqual({
			externalId: expect.objectContaining({
				type: 'string',
				description: 'External ID of the lead, the custom field externalId, e.g. EXT-0142',
			}),
		});
		expect(byName.find_lead_by_external_id.inputSchema.required).toEqual(['externalId']);
	});

	it('finds the lead by a custom field value the model gives (Custom Field Filter, version 4)', async () => {
		const externalId = `EXT-${randomUUID().slice(0, 8)}`;
		const lead = await crm.api('POST', '/leads', {
			name: `External ${externalId}`,
			customFields: { externalId },
		});
		await crm.api('POST', '/leads', { name: 'Other', customFields: { externalId: 'EXT-other' } });
		const found = await client.callTool({
			name: 'find_lead_by_external_id',
			arguments: { externalId },
		});
		expect(found.isError).toBeFalsy();
		const text = textOf(found);
		expect(text).toContain(lead.id);
		expect(text).not.toContain('EXT-other');
	});

	it('creates a lead with a custom field through a tool call, and finds it with Get Many', async () => {
		const name = `Mcp ${randomUUID().slice(0, 8)}`;
		const created = await client.callTool({
			name: 'create_lead',
			arguments: { name, industry: 'Aerospace' },
		});
		expect(created.isError).toBeFalsy();
		expect(textOf(created)).toContain(name);

		const stored = (await crm.api('GET', `/leads?search=${encodeURIComponent(name)}`)).items;
		expect(stored).toHaveLength(1);
		expect(stored[0]).toMatchObject({ name, customFields: { industry: 'Aerospace' } });
		expect(stored[0].email ?? '').toBe('');

		const found = await client.callTool({ name: 'find_leads', arguments: { search: name } });
		expect(found.isError).toBeFalsy();
		const text = textOf(found);
		expect(text).toContain(stored[0].id);
		expect(text).toContain('Aerospace');

		// Output → Select Included Fields: the answer holds the ID, the name and the one custom field, nothing else.
		const named = await client.callTool({
			name: 'find_lead_names',
			arguments: { search: name, fields: 'name,customFields.industry' },
		});
		expect(named.isError).toBeFalsy();
		const answer = textOf(named);
		expect(JSON.parse(answer)).toEqual([
			{ id: stored[0].id, name, customFields: { industry: 'Aerospace' } },
		]);
		expect(answer).not.toContain(stored[0].number);
	});

	it('answers a create with the read-only key as a tool error that names the cause and shows no key', async () => {
		const name = `Refused ${randomUUID().slice(0, 8)}`;
		const refused = await client.callTool({
			name: 'create_lead_read_only',
			arguments: { name, industry: 'Retail' },
		});
		const text = textOf(refused);
		expect(refused.isError).toBe(true);
		// The cause, as the node's error says it: the CRM's answer, and what the key's user may not do.
		expect(text).toContain('The CRM API answered 403 FORBIDDEN');
		expect(text).toContain('not allowed to do this (POST /api/v1/leads)');
		for (const key of Object.values(env.sandboxKeys)) expect(text).not.toContain(key);
		expect((await crm.api('GET', `/leads?search=${encodeURIComponent(name)}`)).items).toEqual([]);
	});
});

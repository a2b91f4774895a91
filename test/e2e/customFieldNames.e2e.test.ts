/**
 * Issue 40 points 8, 9 and 11 in real n8n: custom fields named `constructor`, `prototype` and `__proto__` reach the CRM
 * on Lead and Deal Create and Update (read back from the sandbox); a field seen with values of several types is listed
 * untyped, so a mapped number stays a number; the list of custom fields stops at 500 with a line that says so.
 */
import { randomUUID } from 'node:crypto';

import { ACTION_NODE_TYPE, e2eEnv, n8nClient, nodeError, runAction, sandbox } from './lib';

const env = e2eEnv();
const crm = sandbox(env);
const n8n = n8nClient(env);
const V3 = 3;
const CLIENT = 'cli_c98c6bc22dc8b8de';
/** A credential with an API key of its own (beforeAll): the node keeps what a field lookup found for 60 s per key. */
let credential: { id: string; name: string };

jest.setTimeout(240_000);

/** Built from JSON text, so that `__proto__` is an own key, as the CRM's answers are read. */
const fieldsOf = (json: string) => JSON.parse(json) as Record<string, unknown>;
const NAMED = '{"constructor":"c0","prototype":"p0","__proto__":"x0"}';

async function fields(parameters: Record<string, unknown>) {
	return await n8n.resourceMapperFields({
		nodeType: ACTION_NODE_TYPE,
		version: V3,
		methodName: parameters.resource === 'deal' ? 'getDealFields' : 'getLeadFields',
		parameterPath: 'parameters.columns',
		parameters,
		credentials: { crmInvoicingApi: credential },
	});
}

const columns = (schema: unknown[], value: Record<string, unknown>) => ({
	mappingMode: 'defineBelow',
	value,
	matchingColumns: [],
	schema,
	attemptToConvertTypes: false,
	convertFieldsToString: false,
});

/** A record's custom fields as the sandbox stores them, as JSON text in its order. */
const storedCustom = async (path: string) =>
	JSON.stringify((await crm.api('GET', path)).customFields);

describe(`custom field names and types in real n8n ${env.n8nVersion}`, () => {
	beforeAll(async () => {
		// The mapper reads the first page of leads, oldest first: these must be on it, the wide one last.
		await crm.reset();
		const key = `sk_fields_${randomUUID().replace(/-/g, '')}`;
		await crm.control('POST', '/keys', { key });
		credential = await n8n.createCredential(`e2e custom field names ${Date.now()}`, {
			baseUrl: env.sandboxUrl,
			apiKey: key,
			requestsPerMinute: 600,
		});
		await crm.api('POST', '/leads', { name: 'Named', customFields: fieldsOf(NAMED) });
		for (const score of [null, 7, 'seven'])
			await crm.api('POST', '/leads', { name: 'Scored', customFields: { score, onlyNull: null } });
		const wide = Object.fromEntries(Array.from({ length: 600 }, (_, n) => [`w${n + 1000}`, n]));
		await crm.api('POST', '/leads', { name: 'Wide', customFields: wide });
	});

	it('lists at most 500 custom fields, with a line that says so, and types a field by the values seen', async () => {
		const { fields: listed } = await fields({ resource: 'lead', operation: 'create' });

		const custom = listed.filter((field) => field.id.startsWith('customFields.'));
		expect(custom).toHaveLength(500);
		const byId = Object.fromEntries(listed.map((field) => [field.id, field]));
		for (const name of ['constructor', 'prototype', '__proto__'])
			expect(byId[`customFields.${name}`]).toMatchObject({ type: 'string' });
		expect(byId['customFields.score']).not.toHaveProperty('type');
		expect(byId['customFields.onlyNull']).not.toHaveProperty('type');
		expect(listed.at(-1)).toMatchObject({
			id: 'customFieldsNotice',
			displayName: 'Custom Fields (500 listed)',
		});
		expect(String(listed.at(-1)?.defaultValue)).toMatch(/Only the first 500 custom fields/);
	});

	it('a mapped number for a field seen as null, 7 and "seven" is stored as a number', async () => {
		const { fields: schema } = await fields({ resource: 'lead', operation: 'create' });
		const run = await runAction({
			typeVersion: V3,
			parameters: {
				resource: 'lead',
				operation: 'create',
				columns: columns(schema, {
					name: 'Typed by values',
					'customFields.score': '={{ 12 }}',
					'customFields.onlyNull': true,
				}),
			},
		});

		expect(run.status).toBe(200);
		expect(await storedCustom(`/leads/${run.items[0].id}`)).toBe('{"score":12,"onlyNull":true}');
	});

	it('Lead → Create and Update send constructor, prototype and __proto__; the update keeps the others', async () => {
		const { fields: schema } = await fields({ resource: 'lead', operation: 'create' });
		const created = await runAction({
			typeVersion: V3,
			parameters: {
				resource: 'lead',
				operation: 'create',
				columns: columns(schema, {
					name: 'Proto lead',
					'customFields.constructor': 'c1',
					'customFields.prototype': 'p1',
					'customFields.__proto__': 'x1',
				}),
			},
		});
		expect(created.status).toBe(200);
		const path = `/leads/${created.items[0].id}`;
		expect(await storedCustom(path)).toBe('{"constructor":"c1","prototype":"p1","__proto__":"x1"}');

		const { fields: updateSchema } = await fields({ resource: 'lead', operation: 'update' });
		const updated = await runAction({
			typeVersion: V3,
			parameters: {
				resource: 'lead',
				operation: 'update',
				leadId: { __rl: true, mode: 'id', value: created.items[0].id },
				columns: columns(updateSchema, { 'customFields.__proto__': 'x2' }),
			},
		});
		expect(nodeError(updated.execution)).toBeUndefined();
		expect(updated.status).toBe(200);
		expect(await storedCustom(path)).toBe('{"constructor":"c1","prototype":"p1","__proto__":"x2"}');
	});

	it('Deal → Create (Custom Fields pairs) and Update (the mapper) send them; the update keeps the others', async () => {
		const { fields: schema } = await fields({ resource: 'deal', operation: 'create' });
		const created = await runAction({
			typeVersion: V3,
			parameters: {
				resource: 'deal',
				operation: 'create',
				columns: columns(schema, {
					title: 'Proto deal',
					pipelineId: 'pip_sales',
					stageId: 'stg_new',
					clientId: CLIENT,
				}),
				additionalFields: {
					customFields: {
						field: Object.entries(fieldsOf(NAMED)).map(([key, value]) => ({ key, value })),
					},
				},
			},
		});
		expect(created.status).toBe(200);
		const dealId = created.items[0].id;
		expect(await storedCustom(`/deals/${dealId}`)).toBe(NAMED);

		const { fields: updateSchema } = await fields({
			resource: 'deal',
			operation: 'update',
			dealId,
		});
		const updated = await runAction({
			typeVersion: V3,
			parameters: {
				resource: 'deal',
				operation: 'update',
				dealId,
				columns: columns(updateSchema, {
					'customFields.constructor': 'c2',
					'customFields.__proto__': 'x2',
				}),
			},
		});
		expect(updated.status).toBe(200);
		expect(await storedCustom(`/deals/${dealId}`)).toBe(
			'{"constructor":"c2","prototype":"p0","__proto__":"x2"}',
		);
	});
});

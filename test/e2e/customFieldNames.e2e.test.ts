/**
 * Issue 40 points 8, 9 and 11 in real n8n: n8n's resource-mapper endpoint lists custom fields named `constructor`,
 * `prototype` and `__proto__`, leaves a field of several types untyped and stops at 500 with a line that says so.
 * Create and Update with them: test/unit/actions/customFieldNames.test.ts and mapper.test.ts.
 */
import { randomUUID } from 'node:crypto';

import { e2eEnv, mapperFields, n8nClient, sandbox } from './lib';

const env = e2eEnv();
const crm = sandbox(env);
const n8n = n8nClient(env);
/** A credential with an API key of its own (beforeAll): the node keeps what a field lookup found for 60 s per key. */
let credential: { id: string; name: string };

jest.setTimeout(240_000);

/** Built from JSON text, so that `__proto__` is an own key, as the CRM's answers are read. */
const fieldsOf = (json: string) => JSON.parse(json) as Record<string, unknown>;
const NAMED = '{"constructor":"c0","prototype":"p0","__proto__":"x0"}';

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
		const { fields: listed } = await mapperFields(
			{ resource: 'lead', operation: 'create' },
			credential,
		);

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
});

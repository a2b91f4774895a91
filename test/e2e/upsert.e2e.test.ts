/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * The lead picker ("From List") as the editor asks n8n's own endpoint for it, against the sandbox. Its search, its list
 * and Lead → Create or Update: test/unit/actions/leadPicker.test.ts and leadUpsert.test.ts.
 */
import { randomUUID } from 'node:crypto';

import { e2eEnv, leadPicker, sandbox } from './lib';

const env = e2eEnv();
const crm = sandbox(env);

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
		const { results } = await leadPicker(email);
		expect(results).toEqual(
			twins.map((lead) => ({ name: `Twin ${tag} · ${email} · ${lead.number}`, value: lead.id })),
		);
		expect(twins[0].number).not.toBe(twins[1].number);
	});
});

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * The CRM Invoicing Polling Trigger in real n8n (plainly and under 2.41's durable scheduler) with a lead n8n could not
 * store (nested 10,000 levels deep): it emits the others and names that lead in n8n's log (issue 23). Its reading and
 * emitting: test/unit/pollingTrigger/poll.test.ts; n8n's scheduling: polling.e2e.test.ts.
 */
import { readFileSync } from 'node:fs';

import {
	e2eEnv,
	emittedItems,
	POLLING_NODE_NAME,
	pollingWorkflow,
	polls,
	sandbox,
	waitFor,
	withActiveWorkflow,
} from './lib';

const env = e2eEnv();
const crm = sandbox(env);

jest.setTimeout(240_000);

const emitted = async (workflowId: string) =>
	await emittedItems(workflowId, POLLING_NODE_NAME, env);

const under = env.scheduler ? ' under its durable poll scheduler with durable cursors' : '';

describe(`A lead the CRM Invoicing Polling Trigger cannot emit, in real n8n ${env.n8nVersion}${under}`, () => {
	afterAll(async () => {
		await crm.config({ listOrder: 'oldest' });
		await crm.reset();
	});

	// Issue 23: no lead stops the trigger.
	it("a lead nested 10,000 levels deep among new ones: the others are emitted, it is named in n8n's log", async () => {
		await crm.reset();
		await crm.config({ listOrder: 'newest' });
		const logFrom = readFileSync(env.logFile).length;
		await withActiveWorkflow(
			pollingWorkflow('e2e polling deep lead', ['newLead']),
			async (workflowId) => {
				await crm.clearRequests();
				await polls(2, env);
				const before = await crm.api('POST', '/leads', { name: 'Before The Deep One' });
				// The body written by hand: JSON.stringify itself cannot write 10,000 levels.
				const depth = 10_000;
				const response = await fetch(`${env.sandboxUrl}/api/v1/leads`, {
					method: 'POST',
					headers: { 'content-type': 'application/json', 'x-api-key': env.sandboxKeys.admin },
					body: `{"name":"Deep","customFields":{"tree":${'['.repeat(depth)}"leaf"${']'.repeat(depth)}}}`,
				});
				expect(response.status).toBe(200);
				const deepId = ((await response.json()) as { id: string }).id;
				const after = await crm.api('POST', '/leads', { name: 'After The Deep One' });

				await waitFor(
					async () => (await emitted(workflowId)).length >= 2,
					40_000,
					'the two readable leads',
				);
				await crm.clearRequests();
				await polls(2, env);
				const items = await emitted(workflowId);
				expect(items.map((item) => item.id)).toEqual([before.id, after.id]);
				const log = readFileSync(env.logFile).subarray(logFrom).toString('utf8');
				expect(log).toContain(
					`lead ${deepId} ("Deep") was not emitted: its field "customFields" is nested more than 512 levels deep`,
				);
			},
		);
	});
});

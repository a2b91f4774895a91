/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * The trigger's "Output Full Record" in real n8n: a failed read is answered 503 through n8n's webhook and the CRM's
 * retry starts the one execution. What the option outputs: test/unit/trigger/fullRecord.test.ts.
 */
import {
	e2eEnv,
	emittedItems,
	expectExactlyExecutions,
	sandbox,
	TRIGGER_NODE_NAME,
	triggerWorkflow,
	waitFor,
	waitForExecutions,
	withActiveWorkflow,
} from './lib';

const env = e2eEnv();
const crm = sandbox(env);

describe(`Trigger option "Output Full Record" in real n8n ${env.n8nVersion}`, () => {
	beforeEach(async () => {
		await crm.reset();
	});

	afterAll(async () => {
		expect(await crm.webhooks()).toEqual([]);
	});

	it("answers 503 when the read fails, and the CRM's retry of the same delivery starts the one execution", async () => {
		const workflow = triggerWorkflow(`e2e full record ${Date.now()}`, ['lead.created']);
		workflow.nodes[0].parameters.options = { fullRecord: true };
		await withActiveWorkflow(workflow, async (workflowId) => {
			await crm.fault({ method: 'GET', pathPrefix: '/api/v1/leads/', status: 500, count: 1 });
			const lead = await crm.api('POST', '/leads', { name: 'Retried Read' });
			await waitForExecutions(workflowId, 1, env);
			const items = await emittedItems(workflowId, TRIGGER_NODE_NAME, env);
			expect(items).toHaveLength(1);
			expect(items[0].payload).toEqual(await crm.api('GET', `/leads/${lead.id}`));

			const deliveries = await waitFor(
				async () => {
					const all = await crm.deliveriesOf('lead.created');
					return all.some((delivery) => delivery.status === 200) ? all : undefined;
				},
				20_000,
				'the delivered retry',
			);
			expect(deliveries.map((delivery) => delivery.status)).toEqual([503, 200]);
			expect(new Set(deliveries.map((delivery) => delivery.webhookId)).size).toBe(1);
			expect(deliveries.map((delivery) => delivery.attempt)).toEqual([1, 2]);
			await expectExactlyExecutions(workflowId, 1);
		});
	});
});

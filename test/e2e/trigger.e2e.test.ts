/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
import { randomUUID } from 'node:crypto';

import {
	e2eEnv,
	expectExactlyExecutions,
	finishedExecutions,
	n8nClient,
	nodeOutput,
	renewedSubscription,
	restartN8n,
	sandbox,
	sendSignedDelivery,
	sendUntilAsked,
	TRIGGER_NODE_NAME,
	triggerWorkflow,
	waitForExecutions,
} from './lib';
import { ROTATED_REASON } from '../../nodes/CrmInvoicing/trigger/webhook';

const env = e2eEnv();
const crm = sandbox(env);
const n8n = n8nClient(env);

describe(`CRM Invoicing Trigger in real n8n ${env.n8nVersion}`, () => {
	let workflowId: string;
	let subscription: any;

	beforeAll(async () => {
		await crm.reset();
		const workflow = await n8n.createWorkflow(triggerWorkflow('e2e trigger', ['lead.created']));
		workflowId = workflow.id;
	});

	afterAll(async () => {
		await n8n.deactivate(workflowId).catch(() => undefined);
		await n8n.deleteWorkflow(workflowId).catch(() => undefined);
	});

	it('creates exactly one subscription in the CRM when the workflow is activated', async () => {
		await n8n.activate(workflowId);
		const subscriptions = await crm.webhooks();
		expect(subscriptions).toHaveLength(1);
		subscription = subscriptions[0];
		expect(subscription).toMatchObject({ events: ['lead.created'], status: 'active' });
		expect(subscription.url).toMatch(new RegExp(`^${env.n8nUrl}/webhook/.+`));
		expect(subscription.secret).toMatch(/^whsec_/);
		const creates = await crm.requestsTo('POST', '/api/v1/webhooks');
		expect(creates).toHaveLength(1);
	});

	it('starts one execution holding the lead when the CRM sends a signed lead.created', async () => {
		const lead = await crm.api('POST', '/leads', {
			name: 'Grace Hopper',
			email: 'grace@example.com',
		});
		const [execution] = await waitForExecutions(workflowId, 1, env, 20_000);
		const items = nodeOutput(execution, TRIGGER_NODE_NAME);
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({
			event: 'lead.created',
			payload: { id: lead.id, name: 'Grace Hopper', email: 'grace@example.com' },
		});
		expect(items[0].webhookId).toMatch(/^msg_/);
		expect(JSON.stringify(items)).not.toContain(subscription.secret);
		const deliveries = await crm.deliveriesOf('lead.created');
		expect(deliveries.map((delivery) => delivery.status)).toEqual([200]);
	});

	it('answers a forged delivery with 503 (never a final 401: it may be a rotation the trigger missed), subscribes anew once, and starts no execution', async () => {
		const before = (await finishedExecutions(workflowId)).length;
		const response = await sendUntilAsked(subscription.url);
		expect(response).toMatchObject({ status: 503, body: { error: ROTATED_REASON } });
		// Issue 40: the one renewal per trigger and hour a mismatch on a current subscription may start.
		subscription = await renewedSubscription(workflowId, subscription.url, subscription.id);
		await expectExactlyExecutions(workflowId, before);
	});

	// One restart for both (a restart is what takes time): the duplicate subscription it could create, and the retry
	// that only n8n's saved static data can recognise after it.
	it('creates no duplicate subscription when n8n restarts, and runs a retried delivery once, also when the retry arrives after the restart', async () => {
		const id = `msg_retry_${randomUUID()}`;
		const delivery = { event: 'lead.created', payload: { id: 'lead_retry', name: 'Retried Once' } };
		const before = (await finishedExecutions(workflowId)).length;
		const first = await sendSignedDelivery(subscription.url, subscription.secret, id, delivery);
		expect(first).toEqual({ status: 200, body: { received: true } });
		await waitForExecutions(workflowId, before + 1, env, 20_000);

		// The same webhook-id again, in the same process and after a restart (only n8n's saved static data knows it).
		const again = await sendSignedDelivery(subscription.url, subscription.secret, id, delivery);
		expect(again).toEqual({ status: 200, body: { received: true, duplicate: true } });
		await restartN8n();
		expect((await crm.webhooks()).map((s) => s.id)).toEqual([subscription.id]);
		const afterRestart = await sendSignedDelivery(
			subscription.url,
			subscription.secret,
			id,
			delivery,
		);
		expect(afterRestart).toEqual({ status: 200, body: { received: true, duplicate: true } });

		await expectExactlyExecutions(workflowId, before + 1);

		// And it still delivers after the restart.
		await crm.api('POST', '/leads', { name: 'After Restart' });
		await waitForExecutions(workflowId, before + 2, env, 20_000);
	});

	it('deletes the subscription when the workflow is deactivated', async () => {
		await n8n.deactivate(workflowId);
		expect(await crm.webhooks()).toEqual([]);
		const deletes = await crm.requestsTo('DELETE', `/api/v1/webhooks/${subscription.id}`);
		expect(deletes).toHaveLength(1);
	});
});

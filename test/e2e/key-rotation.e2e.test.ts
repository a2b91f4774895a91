/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Issue 22, point 3 (docs/trigger.md, "Rotating the API key"), in real n8n: the credential's key is changed and the
 * trigger goes on receiving without a re-publish: a change right after a delivery, then a restart, loses nothing (issue
 * 29, defect 2); with a restart before any delivery, one live subscription within a minute, the log saying why; with a
 * POST /webhooks failing once (defect 1), the old subscription stays until a new one exists.
 */
import { randomUUID } from 'node:crypto';

import { logSize } from '../../scripts/lib/settle';
import {
	e2eEnv,
	emittedItems,
	expectExactlyExecutions,
	expectLogged,
	finishedExecutions,
	n8nClient,
	restartN8n,
	rotateCredentialKey,
	sandbox,
	sleep,
	TRIGGER_NODE_NAME,
	triggerState,
	triggerUrl,
	triggerWorkflow,
	usesPublicationService,
	waitFor,
} from './lib';

jest.setTimeout(420_000);

const env = e2eEnv();
const crm = sandbox(env);
const n8n = n8nClient(env);

let credential: { id: string; name: string };
let oldKey: string;
let workflow: ReturnType<typeof triggerWorkflow>;
let workflowId: string;

/** Waits (10 s at most) until n8n has saved `id` as the trigger's subscription (it saves after answering). */
async function expectSaved(id: string): Promise<void> {
	const saved = async () => (await triggerState(workflowId)).subscriptionId === id;
	await waitFor(saved, 10_000, `n8n to save subscription ${id} as the trigger's`);
}

const mine = async () =>
	(await crm.webhooks()).filter((s) => s.url === triggerUrl(workflow) && s.status === 'active');

/** Waits until one live subscription other than `old` is at the trigger's URL; returns it. */
async function renewedFrom(old: { id: string }, timeoutMs: number): Promise<any> {
	const renewed = async () => {
		const now = await mine();
		return now.length === 1 && now[0].id !== old.id ? now[0] : undefined;
	};
	return await waitFor(renewed, timeoutMs, 'one live subscription other than the old one');
}

beforeEach(async () => {
	await crm.config({ personality: 'standard', deliverOnCreate: false });
	oldKey = `sk_rotation_${randomUUID().replace(/-/g, '')}`;
	await crm.control('POST', '/keys', { key: oldKey });
	credential = await n8n.createCredential(`CRM (rotation ${oldKey.slice(-6)})`, {
		baseUrl: env.sandboxUrl,
		apiKey: oldKey,
		requestsPerMinute: 600,
	});
	workflow = triggerWorkflow('issue 22: key rotation', ['lead.created'], 1, credential);
	workflowId = (await n8n.createWorkflow(workflow)).id;
	await n8n.activate(workflowId);
	expect(await mine()).toHaveLength(1);
});

afterEach(async () => {
	await n8n.deactivate(workflowId).catch(() => undefined);
	await n8n.deleteWorkflow(workflowId).catch(() => undefined);
	await n8n.api('DELETE', `/credentials/${credential.id}`).catch(() => undefined);
});

describe(`A change of the trigger's API key in real n8n ${env.n8nVersion}`, () => {
	it('a change right after a delivery, the next delivery at once, then a restart at once: no delivery is lost', async () => {
		const [subscription] = await mine();
		await crm.api('POST', '/leads', { name: 'Before the key change' });
		await expectExactlyExecutions(workflowId, 1);
		const before = await triggerState(workflowId);
		// The next delivery comes right after the one under the old key (well within the 10 s that 0.4.0 skipped).
		oldKey = await rotateCredentialKey(credential, oldKey, env);
		await crm.api('POST', '/leads', { name: 'Right after the key change' });
		await waitFor(
			async () => (await finishedExecutions(workflowId)).length >= 2,
			30_000,
			'the delivery right after the key change to run',
		);
		expect((await triggerState(workflowId)).secretWrapped).not.toBe(before.secretWrapped);
		await restartN8n();
		await crm.api('POST', '/leads', { name: 'Right after the restart' });
		await expectExactlyExecutions(workflowId, 3);
		expect((await mine()).map((s) => s.id)).toEqual([subscription.id]);
		const attempts = (await crm.deliveries()).filter(
			(delivery) => delivery.subscriptionId === subscription.id,
		);
		expect(attempts.map((attempt) => attempt.status)).toEqual([200, 200, 200]);
	});

	it('with a restart before any delivery: within a minute one live subscription, receiving, and the log says why', async () => {
		const [old] = await mine();
		oldKey = await rotateCredentialKey(credential, oldKey, env);
		const logFrom = logSize(env.logFile);
		await restartN8n();
		const started = Date.now();
		// 2.41 runs no hook at start-up: the first delivery finds the secret unreadable and subscribes anew. 1.x has
		// subscribed anew at start-up already; this lead then simply runs.
		await crm.api('POST', '/leads', { name: 'The first lead after the restart' });
		const renewed = await renewedFrom(old, 60_000);
		console.log(
			`[key rotation, restart before any delivery] one live subscription after ${((Date.now() - started) / 1000).toFixed(1)} s`,
		);
		expect((await crm.webhooks()).find((s) => s.id === old.id)).toBeUndefined();
		await expectLogged(
			new RegExp(
				`stored signing secret of webhook subscription ${old.id} cannot be read with (this|the) credential's API key`,
			),
			logFrom,
		);
		await expectSaved(renewed.id);

		// Once the first lead's deliveries are over: it ran on 1.x (new subscription) and is lost on 2.41 (docs/trigger.md).
		await waitFor(
			async () => (await crm.control('GET', '/health')).pendingDeliveries === 0,
			120_000,
			"the first lead's deliveries to end",
		);
		await new Promise((resolve) => setTimeout(resolve, 2_000));
		const before = (await finishedExecutions(workflowId)).length;
		expect(before).toBe((await usesPublicationService()) ? 0 : 1);
		await crm.api('POST', '/leads', { name: 'Through the new subscription' });
		await expectExactlyExecutions(workflowId, before + 1);
		expect((await mine()).map((s) => s.id)).toEqual([renewed.id]);
	});

	it('with a restart before any delivery and a POST /webhooks that fails once: the old subscription is kept until a new one exists', async () => {
		const [old] = await mine();
		oldKey = await rotateCredentialKey(credential, oldKey, env);
		const logFrom = logSize(env.logFile);
		const publication = await usesPublicationService();
		const failOnce = { status: 503, count: 1, method: 'POST', pathPrefix: '/api/v1/webhooks' };
		// 1.x renews at start-up (checkExists, then create): the fault meets that create. 2.41: the first delivery's.
		if (!publication) await crm.fault(failOnce);
		await restartN8n();
		if (publication) {
			await crm.fault(failOnce);
			await crm.api('POST', '/leads', { name: 'The first lead after the restart' });
			await expectLogged('Subscribing anew failed', logFrom, 30_000);
			// The POST failed: the old subscription is still at the CRM and still the stored one.
			expect((await mine()).map((s) => s.id)).toEqual([old.id]);
			expect((await triggerState(workflowId)).subscriptionId).toBe(old.id);
		}
		// A later attempt (the CRM's retry of that delivery, a minute on; 1.x: n8n's retry of the activation) renews.
		const renewed = await renewedFrom(old, 180_000);
		expect(await crm.control('GET', '/faults')).toEqual([]);
		expect((await crm.webhooks()).find((s) => s.id === old.id)).toBeUndefined();
		await expectSaved(renewed.id);
		// The first lead's retries may still come (the CRM keeps its schedule): the new lead is counted by its name.
		const name = 'Through the new subscription';
		const runs = async () =>
			(await emittedItems(workflowId, TRIGGER_NODE_NAME)).filter(
				(item) => item.payload?.name === name,
			);
		await crm.api('POST', '/leads', { name });
		await waitFor(async () => (await runs()).length > 0, 60_000, 'the new lead to run');
		await sleep(2_000);
		expect(await runs()).toHaveLength(1);
		expect((await mine()).map((s) => s.id)).toEqual([renewed.id]);
	});
});

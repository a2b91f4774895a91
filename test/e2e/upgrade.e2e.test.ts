/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * An upgrade as a user makes it: workflows saved and run under release 0.3.0 (test/fixtures/releases/), then this
 * checkout installed and n8n restarted: both webhook trigger versions keep their 0.3.0 subscriptions, the poller emits
 * only what is new, both action versions give the same output, deactivation removes every subscription; a key saved
 * with spaces still reads the secret 0.3 wrapped under it, and wraps it anew (issue 40).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ROOT } from '../../scripts/lib/runtime';
import {
	actionWorkflow,
	callWebhook,
	createdWorkflows,
	e2eEnv,
	emittedItems,
	finishedExecutions,
	getLead,
	n8nClient,
	POLLING_NODE_NAME,
	pollingWorkflow,
	restartN8n,
	sandbox,
	TRIGGER_NODE_NAME,
	triggerState,
	triggerWorkflow,
	waitFor,
} from './lib';

const env = e2eEnv();
const crm = sandbox(env);
const n8n = n8nClient(env);
const workflows = createdWorkflows(env);

const RELEASE_0_3 = 'test/fixtures/releases/n8n-nodes-crm-invoicing-0.3.0.tgz';
/** This checkout's version: what n8n must load after the upgrade. */
const CURRENT_VERSION = (
	JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

jest.setTimeout(420_000);

/** Waits until the poller has polled `count` times since the sandbox's request log was cleared (one answered list read each). */
async function waitForLeadListPolls(count: number, timeoutMs: number, what: string): Promise<void> {
	await waitFor(
		async () => {
			const reads = (await crm.requests()).filter(
				(request) =>
					request.method === 'GET' && request.path === '/api/v1/leads' && request.status === 200,
			);
			return reads.length >= count;
		},
		timeoutMs,
		what,
	);
}

describe(`An upgrade from 0.3.0 to this checkout in real n8n ${env.n8nVersion}`, () => {
	/** The webhook triggers: version 1, version 2, version 2 with the key saved with spaces. */
	let triggers: string[] = [];
	let poller = '';
	/** The webhook paths of the action workflows, node versions 1 and 2. */
	const actionPaths: string[] = [];
	/** What the poller emitted so far, as [id, event]. */
	const polled = async () =>
		(await emittedItems(poller, POLLING_NODE_NAME)).map((item) => [item.id, item._event]);
	/** Whether n8n runs this checkout's package again (the second test's restart did it): afterAll then need not. */
	let onCurrent = false;
	let subscriptionsBefore: any[] = [];
	let leadBefore: any;
	/** The spaced-key trigger's stored state under 0.3.0. */
	let spacedStateBefore: Record<string, any> = {};
	const actionOutputBefore: any[][] = [];

	beforeAll(async () => {
		await crm.reset();
		await crm.config({ listOrder: 'newest' });
		expect(await restartN8n({ package: RELEASE_0_3 })).toBe('0.3.0');
	});

	afterAll(async () => {
		await workflows.removeAll();
		if (!onCurrent) await restartN8n({ package: 'current' });
		await crm.config({ listOrder: 'oldest' });
		await crm.reset();
	});

	it('0.3.0 runs the workflows: one subscription per trigger, each lead.created runs each trigger once, the poller emits the new lead', async () => {
		const create = async (workflow: Record<string, unknown>) =>
			await workflows.create(workflow, true);
		const spaced = await n8n.createCredential(`upgrade spaced key ${randomUUID()}`, {
			baseUrl: env.sandboxUrl,
			apiKey: `  ${env.sandboxKeys.admin} `,
		});
		triggers = [
			await create(triggerWorkflow('upgrade trigger v1', ['lead.created'], 1)),
			await create(triggerWorkflow('upgrade trigger v2', ['lead.created'], 2)),
			await create(triggerWorkflow('upgrade trigger spaced key', ['lead.created'], 2, spaced)),
		];
		// The poller's first poll (at its activation) is the one lead-list read: the log from here on tells when it came.
		await crm.clearRequests();
		poller = await create(pollingWorkflow('upgrade poller', ['newLead', 'updatedLead']));
		for (const version of [1, 2]) {
			const path = `upgrade-action-v${version}-${randomUUID()}`;
			const spec = { parameters: getLead('={{ $json.body.id }}'), typeVersion: version };
			await create(actionWorkflow(path, spec, env));
			actionPaths.push(path);
		}

		subscriptionsBefore = await waitFor(
			async () => {
				const all = await crm.webhooks();
				return all.length === 3 ? all : undefined;
			},
			30_000,
			'one subscription per webhook trigger',
		);
		spacedStateBefore = await triggerState(triggers[2]);
		expect(spacedStateBefore.webhookSecretWrapped).toMatch(/^aes256gcm\.v1:/);
		// The poller's first poll remembers the leads the sandbox seeds, so that only the new lead is emitted: the lead is
		// created once the sandbox has answered that poll's list (a lead created later cannot be in it).
		await waitForLeadListPolls(1, 30_000, "the poller's first poll");

		leadBefore = await crm.api('POST', '/leads', {
			name: 'Before The Upgrade',
			email: 'before@example.com',
		});
		for (const id of triggers) {
			await waitFor(
				async () => (await finishedExecutions(id)).length === 1,
				30_000,
				'the trigger execution under 0.3.0',
			);
		}
		await waitFor(async () => (await polled()).length === 1, 40_000, 'the poll under 0.3.0');
		expect(await polled()).toEqual([[leadBefore.id, 'newLead']]);

		for (const path of actionPaths) {
			const { items } = await callWebhook(path, { id: leadBefore.id });
			expect(items).toEqual([
				expect.objectContaining({ id: leadBefore.id, email: 'before@example.com' }),
			]);
			actionOutputBefore.push(items);
		}
	});

	it('after the upgrade the same workflows run unchanged: same subscriptions, each event once, nothing emitted twice, same action output', async () => {
		const version = await restartN8n({ package: 'current' });
		onCurrent = true;
		expect(version).toBe(CURRENT_VERSION);

		// The subscriptions made under 0.3.0 still serve: no new one, none deleted.
		expect((await crm.webhooks()).map((subscription) => subscription.id).sort()).toEqual(
			subscriptionsBefore.map((subscription) => subscription.id).sort(),
		);

		const leadAfter = await crm.api('POST', '/leads', { name: 'After The Upgrade' });
		for (const id of triggers) {
			const executions = await waitFor(
				async () => {
					const all = await finishedExecutions(id);
					return all.length === 2 ? all : undefined;
				},
				40_000,
				'the trigger execution after the upgrade',
			);
			expect(executions.every((execution) => execution.status === 'success')).toBe(true);
		}
		const v1 = await emittedItems(triggers[0], TRIGGER_NODE_NAME);
		const v2 = await emittedItems(triggers[1], TRIGGER_NODE_NAME);
		// Version 1 outputs the delivery as it came; version 2 simplifies it (Simplify on by default): as under 0.3.0.
		expect(v1.map((item) => item.payload.id)).toEqual([leadBefore.id, leadAfter.id]);
		expect(v2.map((item) => item.payload.id)).toEqual([leadBefore.id, leadAfter.id]);
		expect(Object.keys(v1[1]).sort()).toEqual(Object.keys(v1[0]).sort());
		expect(Object.keys(v2[1]).sort()).toEqual(Object.keys(v2[0]).sort());
		// Two leads, three subscriptions: six deliveries, each taken at its first attempt.
		const deliveries = await crm.deliveriesOf('lead.created');
		expect(deliveries.map((delivery) => [delivery.attempt, delivery.status])).toEqual(
			Array(6).fill([1, 200]),
		);
		// The key saved with spaces read the secret 0.3 wrapped under it, and the delivery wrapped it anew (issue 40).
		const spacedState = await triggerState(triggers[2]);
		expect(spacedState.subscriptionId).toBe(spacedStateBefore.webhookId);
		expect(spacedState.secretWrapped).toMatch(/^aes256gcm\.v1:/);
		expect(spacedState.secretWrapped).not.toBe(spacedStateBefore.webhookSecretWrapped);

		// The poller remembers what it saw under 0.3.0: only the new lead, once, and no lead reported as updated.
		await waitFor(async () => (await polled()).length >= 2, 60_000, 'the poll after the upgrade');
		// Two more polls, each given 3 s to finish an execution: none may emit a lead again.
		await crm.clearRequests();
		await waitForLeadListPolls(2, 30_000, 'two more polls');
		await new Promise((resolve) => setTimeout(resolve, 3_000));
		expect(await polled()).toEqual([
			[leadBefore.id, 'newLead'],
			[leadAfter.id, 'newLead'],
		]);

		// The action node saved under 0.3.0 gives the same output.
		for (const [index, path] of actionPaths.entries())
			expect((await callWebhook(path, { id: leadBefore.id })).items).toEqual(
				actionOutputBefore[index],
			);
	});

	it('deactivating the upgraded triggers deletes the subscriptions they made under 0.3.0', async () => {
		for (const id of triggers) await n8n.deactivate(id);
		expect(await crm.webhooks()).toEqual([]);
	});
});

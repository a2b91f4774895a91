/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Issues 11, 12 and 13 (trigger side) in real n8n: a delivery racing the activation, and one sent while n8n restarts,
 * run exactly once; racing activations end with one subscription; after a restart with another WEBHOOK_URL each trigger
 * has one subscription there (1.x: the restart; 2.41: re-publishing), the old ones kept, named and answered 410;
 * repeated signature lines and a non-ASCII webhook-id verify as sent (issue 40: the trigger subscribes anew).
 */
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';

import {
	createdWorkflows,
	e2eEnv,
	expectExactlyExecutions,
	expectLogged,
	n8nClient,
	nodeOutput,
	renewedSubscription,
	restartN8n,
	sandbox,
	TRIGGER_NODE_NAME,
	triggerState as staticDataOf,
	triggerUrl as urlOf,
	triggerWorkflow,
	usesPublicationService,
	waitFor,
} from './lib';

jest.setTimeout(300_000);

const env = e2eEnv();
const crm = sandbox(env);
const n8n = n8nClient(env);
const workflows = createdWorkflows(env);

/** Which WEBHOOK_URL n8n runs with now. */
let n8nBase: 'default' | 'alias' = 'default';

async function restartAt(webhookUrl: 'default' | 'alias'): Promise<void> {
	n8nBase = webhookUrl;
	await restartN8n({ webhookUrl });
}

/** After a restart with another WEBHOOK_URL, 2.41 (publication service) needs each workflow re-published; 1.x not. */
async function followN8nUrl(workflowIds: string[]): Promise<void> {
	if (!(await usesPublicationService())) return;
	for (const id of workflowIds) {
		await n8n.deactivate(id);
		await n8n.activate(id);
	}
}

/** Waits until each workflow's trigger has a subscription at its URL under `base`; returns the CRM's subscriptions. */
async function subscribedAt(triggers: Array<ReturnType<typeof triggerWorkflow>>, base: string) {
	const all = async () => {
		const now = await crm.webhooks();
		return triggers.every((w) => now.some((s) => s.url === urlOf(w, base))) ? now : undefined;
	};
	return await waitFor(all, 90_000, `the triggers to subscribe at ${base}`);
}

async function n8nIsUp(): Promise<boolean> {
	try {
		return (await fetch(`${env.n8nUrl}/healthz`, { signal: AbortSignal.timeout(2_000) })).ok;
	} catch {
		return false;
	}
}

/** Sends one POST written byte by byte (Node's client re-encodes header strings); a header may repeat. Its status. */
async function rawPost(
	url: string,
	headers: Array<[string, string | Buffer]>,
	body: string,
): Promise<number> {
	const target = new URL(url);
	const lines: Buffer[] = [
		Buffer.from(
			`POST ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: close\r\n`,
			'latin1',
		),
	];
	const payload = Buffer.from(body, 'utf8');
	for (const [name, value] of [
		...headers,
		['content-length', String(payload.length)] as [string, string],
	]) {
		lines.push(
			Buffer.concat([
				Buffer.from(`${name}: `, 'latin1'),
				Buffer.isBuffer(value) ? value : Buffer.from(value, 'utf8'),
				Buffer.from('\r\n', 'latin1'),
			]),
		);
	}
	lines.push(Buffer.from('\r\n', 'latin1'), payload);
	return await new Promise<number>((resolve, reject) => {
		// Written, not ended: a half-closed connection may be dropped before an asynchronous answer (Connection: close ends it).
		const socket = connect(Number(target.port), target.hostname, () =>
			socket.write(Buffer.concat(lines)),
		);
		let answer = '';
		socket.setTimeout(30_000, () => socket.destroy(new Error('no answer within 30 s')));
		socket.on('data', (chunk: Buffer) => {
			answer += chunk.toString('latin1');
		});
		socket.on('end', () => {
			const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
			if (status) resolve(Number(status));
			else reject(new Error(`no HTTP answer: ${JSON.stringify(answer.slice(0, 200))}`));
		});
		socket.on('error', reject);
	});
}

afterEach(async () => {
	await crm.config({ deliverOnCreate: false });
	await workflows.removeAll();
});

describe(`CRM Invoicing Trigger trust in real n8n ${env.n8nVersion}`, () => {
	/** The delivery-during-restart case, on n8n 2.x (see below). */
	const restartCase = env.runtime !== 'compat';

	beforeAll(async () => {
		await crm.reset();
		await crm.config({ personality: 'standard', deliverOnCreate: false });
	});

	it('a delivery that races the activation runs exactly once (503 until the secret is saved, never a final 4xx)', async () => {
		const workflow = triggerWorkflow('trust: racing delivery', ['lead.created']);
		const id = await workflows.create(workflow);
		await crm.config({
			deliverOnCreate: {
				event: 'lead.created',
				payload: { id: 'lead_race', name: 'Raced the activation' },
			},
		});
		await n8n.activate(id);
		await crm.config({ deliverOnCreate: false });

		const [subscription] = (await crm.webhooks()).filter((s) => s.url === urlOf(workflow));
		expect(subscription).toBeDefined();
		const attempts = async () =>
			(await crm.deliveries()).filter((d) => d.subscriptionId === subscription.id);
		await waitFor(
			async () => (await attempts()).some((d) => d.outcome === 'delivered'),
			90_000,
			'the raced delivery to be delivered',
		);
		await expectExactlyExecutions(id, 1);
		const statuses = (await attempts()).map((d) => d.status);
		// Every attempt before the successful one was a retryable answer (or no answer), never a final 4xx.
		expect(statuses.at(-1)).toBe(200);
		for (const status of statuses.slice(0, -1))
			expect(status === 'error' || status === 'timeout' || status >= 500).toBe(true);
	});

	it('two activations racing end with exactly one subscription, whose secret the node holds', async () => {
		const workflow = triggerWorkflow('trust: racing activations', ['lead.created']);
		const id = await workflows.create(workflow);
		const results = await Promise.allSettled([n8n.activate(id), n8n.activate(id)]);
		expect(results.some((result) => result.status === 'fulfilled')).toBe(true);
		const mine = async () => (await crm.webhooks()).filter((s) => s.url === urlOf(workflow));
		await waitFor(async () => (await mine()).length === 1, 20_000, 'exactly one subscription');
		const [subscription] = await mine();
		await waitFor(
			async () => (await staticDataOf(id)).subscriptionId === subscription.id,
			20_000,
			'the node to hold its subscription',
		);
		await crm.api('POST', '/leads', { name: 'After racing activations' });
		await expectExactlyExecutions(id, 1);
	});

	it("follows n8n's URL: restarted with another WEBHOOK_URL, each active trigger has one subscription there, the old ones kept", async () => {
		const { workflow: first, id: firstId } = await workflows.activeTrigger('trust: url A');
		const second = triggerWorkflow('trust: url B', []);
		second.nodes[0].parameters.options = { customEvents: 'lead.created' };
		const secondId = await workflows.create(second, true);
		const before = await crm.webhooks();
		const oldIds = [first, second].map((w) => before.find((s) => s.url === urlOf(w)).id);
		await crm.clearRequests();

		try {
			await restartAt('alias');
			if (await usesPublicationService()) {
				// 2.41 runs no trigger hook at start-up: nothing moves until each workflow is re-published.
				const calls = (await crm.requests()).filter((r) => r.path.startsWith('/api/v1/webhooks'));
				expect(calls).toEqual([]);
			}
			await followN8nUrl([firstId, secondId]);
			const alias = env.webhookAliasUrl as string;
			// n8n answers before it has activated every workflow: wait for both triggers to have moved.
			const after = await subscribedAt([first, second], alias);
			for (const workflow of [first, second]) {
				expect(after.filter((s) => s.url === urlOf(workflow, alias))).toHaveLength(1);
			}
			// Issue 22: the old subscriptions (at another URL now) are kept and named in a warning; nothing is deleted.
			const kept = after.filter((s) => oldIds.includes(s.id));
			expect(kept.map((s) => s.id).sort()).toEqual([...oldIds].sort());
			expect(after).toHaveLength(4);
			expect((await crm.requests()).filter((r) => r.method === 'DELETE')).toEqual([]);
			for (const subscription of kept)
				await expectLogged(`kept webhook subscription ${subscription.id}`);

			// Each trigger runs once; a kept old subscription's delivery is answered 410 (the CRM disables it).
			await crm.api('POST', '/leads', { name: 'After the URL change' });
			await expectExactlyExecutions(firstId, 1);
			await expectExactlyExecutions(secondId, 1);
			for (const subscription of kept) {
				await waitFor(
					async () =>
						(await crm.webhooks()).find((s) => s.id === subscription.id)?.status === 'disabled',
					30_000,
					'the retired subscription to be disabled',
				);
				await crm.api('DELETE', `/webhooks/${subscription.id}`);
			}
		} catch (error) {
			await restartAt('default');
			throw error;
		}
		if (!restartCase) {
			// The restart case (which starts from the alias address) is skipped here: back to the default address.
			await restartAt('default');
			await followN8nUrl([firstId, secondId]);
			await subscribedAt([first, second], env.n8nUrl);
		}
		// Else n8n stays at the alias address for the next test.
	});

	// Skipped on 1.123: under load its public API once never listed the execution as finished (same code path as 2.x).
	(restartCase ? it : it.skip)(
		'a delivery sent while n8n restarts runs exactly once after it is back (n8n behind an address that answers 503 until it is ready)',
		async () => {
			if (n8nBase !== 'alias') await restartAt('alias');
			const alias = env.webhookAliasUrl as string;
			const workflow = triggerWorkflow('trust: delivery during restart', ['lead.created']);
			const id = await workflows.create(workflow);
			try {
				await n8n.activate(id);
				expect((await crm.webhooks()).filter((s) => s.url === urlOf(workflow, alias))).toHaveLength(
					1,
				);
				const restarting = restartN8n({ webhookUrl: 'alias' });
				// Awaited below, once the delivery is sent: marked handled now, so that a failure meanwhile is not unhandled.
				restarting.catch(() => undefined);
				await waitFor(async () => !(await n8nIsUp()), 30_000, 'n8n to stop');
				const emitted = await crm.control('POST', '/emit', {
					event: 'lead.created',
					payload: { id: 'lead_restart', name: 'Sent while n8n was down' },
				});
				// Earlier tests' subscriptions get it too: the attempts below are this workflow's URL's only.
				expect(emitted.webhookIds.length).toBeGreaterThanOrEqual(1);
				await restarting;

				const ours = urlOf(workflow, alias);
				const attemptsOf = async () =>
					(await crm.deliveries()).filter(
						(d) => d.url === ours && emitted.webhookIds.includes(d.webhookId),
					);
				try {
					await expectExactlyExecutions(id, 1, 180_000);
				} finally {
					console.log(
						'[delivery during restart] attempts:',
						JSON.stringify((await attemptsOf()).map((d) => [d.attempt, d.status, d.outcome])),
					);
				}
				const attempts = await attemptsOf();
				expect(attempts.at(-1)).toMatchObject({ status: 200, outcome: 'delivered' });
				expect(attempts.length).toBeGreaterThan(1);
				for (const attempt of attempts.slice(0, -1)) expect(attempt.outcome).toBe('retrying');
			} finally {
				await restartAt('default');
				await followN8nUrl([id]);
				// Wait until n8n has re-subscribed at its usual URL before the workflow is deactivated.
				await subscribedAt([workflow], env.n8nUrl);
			}
		},
	);

	it('verifies repeated signature lines and a non-ASCII webhook-id from its exact bytes, and subscribes anew', async () => {
		const { workflow, id, subscription } = await workflows.activeTrigger('trust: headers');
		const { Webhook } = await import('standardwebhooks');
		const webhookId = `msg_ünïcödé_€_${randomUUID()}`;
		const now = new Date();
		const raw = JSON.stringify({
			event: 'lead.created',
			timestamp: now.toISOString(),
			payload: { id: 'lead_bytes' },
		});
		const other = `whsec_${Buffer.from('an-older-secret-of-this-subscription').toString('base64')}`;
		const lines = [
			new Webhook(other).sign(webhookId, now, raw),
			new Webhook(subscription.secret).sign(webhookId, now, raw),
		];

		const status = await rawPost(
			urlOf(workflow),
			[
				['content-type', 'application/json'],
				['webhook-id', Buffer.from(webhookId, 'utf8')], // the exact UTF-8 bytes
				['webhook-timestamp', String(Math.floor(now.getTime() / 1000))],
				['webhook-signature', lines[0]], // two header lines: the old secret's first
				['webhook-signature', lines[1]],
			],
			raw,
		);
		expect(status).toBe(200);
		const [execution] = await expectExactlyExecutions(id, 1);
		expect(nodeOutput(execution, TRIGGER_NODE_NAME)[0].webhookId).toBe(webhookId);
		// Two entries, one matching: a rotation seen, so the trigger subscribes anew (issue 40).
		await renewedSubscription(id, urlOf(workflow), subscription.id);
	});
});

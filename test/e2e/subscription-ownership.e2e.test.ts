/**
 * Issue 40, points 2, 4 and 5, in real n8n: with a CRM that stores URLs in normal form (sandbox `normalUrls`) a restart
 * (1.x: the start-up check) keeps the one subscription, which receives; a subscription stored by 0.1 (no tag) is deleted
 * once a delivery subscribes anew. The comparison and `onePerUrl`: test/unit/trigger/rotation.test and ownership.test.
 */
import {
	createdWorkflows,
	e2eEnv,
	expectExactlyExecutions,
	finishedExecutions,
	n8nClient,
	restartN8n,
	sandbox,
	TRIGGER_NODE_NAME,
	triggerState,
	triggerUrl,
	usesPublicationService,
	waitFor,
} from './lib';

jest.setTimeout(420_000);

const env = e2eEnv();
const crm = sandbox(env);
const n8n = n8nClient(env);
const workflows = createdWorkflows(env);

afterEach(async () => {
	await crm.config({ normalUrls: false });
	await workflows.removeAll();
});

/** The renewal a delivery starts on 2.41; 1.x renews at start-up instead (key-rotation.e2e follows both). */
const onCurrentN8n = env.runtime === 'compat' ? it.skip : it;

/** The subscriptions at the CRM that deliver to `url`, as the sandbox stores them. */
const at = async (url: string) => (await crm.webhooks()).filter((known) => known.url === url);

/** Waits until exactly one subscription delivers to `url`, none of `others`; returns it. */
async function oneOtherThan(url: string, others: string[], timeoutMs = 60_000) {
	const only = async () => {
		const now = await at(url);
		return now.length === 1 && !others.includes(now[0].id) ? now[0] : undefined;
	};
	return await waitFor(
		only,
		timeoutMs,
		`one subscription at ${url} other than ${others.join(', ')}`,
	);
}

/** Waits until the CRM has no delivery left to attempt (delivered, or dropped with a deleted subscription). */
async function deliveriesOver(): Promise<void> {
	const over = async () => (await crm.control('GET', '/health')).pendingDeliveries === 0;
	await waitFor(over, 120_000, 'the deliveries to end');
}

describe(`A CRM that stores URLs in normal form, in real n8n ${env.n8nVersion}`, () => {
	afterAll(async () => await restartN8n());

	it('a restart keeps the one subscription (none created, retired or leaked), which receives', async () => {
		// n8n's WEBHOOK_URL with the scheme in upper case: the CRM stores the trigger's URL in lower case.
		await crm.config({ normalUrls: true });
		await restartN8n({ webhookUrl: env.n8nUrl.replace(/^http:/, 'HTTP:') });
		const { workflow, id, subscription } = await workflows.activeTrigger('normal-form URLs');
		const url = triggerUrl(workflow);
		await restartN8n({ webhookUrl: env.n8nUrl.replace(/^http:/, 'HTTP:') });
		expect((await at(url)).map((known) => known.id)).toEqual([subscription.id]);
		const state = await triggerState(id);
		expect(state.subscriptionId).toBe(subscription.id);
		expect(state.retiredSubscriptions).toBeUndefined();
		await crm.api('POST', '/leads', { name: 'Through the one subscription' });
		await expectExactlyExecutions(id, 1);
	});
});

describe(`A subscription stored by 0.1 (no tag), in real n8n ${env.n8nVersion}`, () => {
	onCurrentN8n(
		"is deleted once the CRM shows it at the trigger's URL, when a delivery subscribes anew",
		async () => {
			const { workflow, id, subscription: current } = await workflows.activeTrigger('0.1 data');
			const url = triggerUrl(workflow);
			const legacy = await crm.api('POST', '/webhooks', {
				name: 'n8n: 0.1 data',
				url,
				events: ['lead.created'],
			});
			// The state 0.1.0 stored (trigger/store.ts: webhookId, webhookUrl, webhookEvents and a clear webhookSecret).
			const stored = await n8n.api('GET', `/workflows/${id}`);
			const data = {
				webhookId: legacy.id,
				webhookUrl: url,
				webhookEvents: ['lead.created'],
				webhookSecret: legacy.secret,
			};
			await n8n.api('PUT', `/workflows/${id}`, {
				name: stored.name,
				nodes: stored.nodes,
				connections: stored.connections,
				settings: stored.settings ?? {},
				staticData: { [`node:${TRIGGER_NODE_NAME}`]: data },
			});
			// 2.41 keeps the published workflow as it runs (no hook runs); 1.x re-activates it, and its check adopts it.
			if (await usesPublicationService())
				expect((await triggerState(id)).webhookId).toBe(legacy.id);
			// Its clear secret is not read: the delivery subscribes anew, deletes the 0.1 subscription (the CRM shows it at
			// this URL, untagged) and sweeps the tagged one at its URL.
			await crm.api('POST', '/leads', { name: 'The first lead with 0.1 data' });
			const renewed = await oneOtherThan(url, [legacy.id, current.id]);
			await deliveriesOver();
			const before = (await finishedExecutions(id)).length;
			await crm.api('POST', '/leads', { name: 'Through the new subscription' });
			await expectExactlyExecutions(id, before + 1);
			expect((await at(url)).map((known) => known.id)).toEqual([renewed.id]);
		},
	);
});

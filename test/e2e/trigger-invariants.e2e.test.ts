/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Issue 22 in real n8n: a restored copy of this n8n (its user folder, another WEBHOOK_URL, on n8n's port + 4 and
 * + 10004) never deletes production's subscription, at start-up or unpublishing; forged deliveries to ten triggers start
 * nothing and cost at most one question to the CRM; a DELETE answered 200 with HTML is no deletion (the next activation
 * reuses the subscription). The node's own rules: test/unit/trigger/trust.test and lifecycle.test.
 */
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

import { N8nClient, N8nProcess } from '../../scripts/lib/n8n';
import { ensureRuntime, leanEnv } from '../../scripts/lib/runtime';
import { waitForStoredWorkflows } from '../../scripts/lib/settle';
import { assertPortFree } from '../../scripts/lib/system';
import {
	createdWorkflows,
	e2eEnv,
	expectExactlyExecutions,
	expectLogged,
	finishedExecutions,
	FORGED_SECRET,
	n8nClient,
	sandbox,
	sendSignedDelivery,
	triggerState,
	triggerUrl,
	waitFor,
} from './lib';

jest.setTimeout(600_000);

const env = e2eEnv();
const crm = sandbox(env);
const n8n = n8nClient(env);
const N8N_PORT = Number(new URL(env.n8nUrl).port);
const COPY_PORT = N8N_PORT + 4;

const workflows = createdWorkflows(env);

afterEach(async () => {
	await crm.control('DELETE', '/faults');
	await workflows.removeAll();
});

/** Named when one of this test's ports is taken. */
const PORTS_USE = `trigger-invariants.e2e (it uses n8n's port + 4 (and + 10004))`;

describe(`Forged deliveries to many triggers, and a deletion the CRM did not do, in real n8n ${env.n8nVersion}`, () => {
	beforeAll(async () => {
		await crm.reset();
		await crm.config({ personality: 'standard', deliverOnCreate: false });
	});

	it('forged deliveries to ten triggers start nothing and cost at most one question to the CRM', async () => {
		const triggers = [];
		for (let index = 0; index < 10; index++)
			triggers.push(await workflows.activeTrigger(`issue 22: forged ${index}`));
		await crm.clearRequests();
		const answers = await Promise.all(
			triggers.flatMap(({ workflow }) =>
				[1, 2].map(
					async (round) =>
						await sendSignedDelivery(
							triggerUrl(workflow),
							FORGED_SECRET,
							`msg_forged_${workflow.nodes[0].webhookId}_${round}`,
							{ event: 'lead.created', payload: { id: 'lead_forged' } },
						),
				),
			),
		);
		expect(answers.every((answer) => answer.status === 401 || answer.status === 503)).toBe(true);
		expect(answers.filter((answer) => answer.status === 401).length).toBeLessThanOrEqual(1);
		const questions = (await crm.requests()).filter(
			(request) => request.method === 'GET' && request.path.startsWith('/api/v1/webhooks/'),
		);
		expect(questions.length).toBeLessThanOrEqual(1);
		await new Promise((resolve) => setTimeout(resolve, 2_000));
		for (const { id } of triggers) expect(await finishedExecutions(id)).toEqual([]);
		console.log(
			`[forged ×20 to 10 triggers] answers: ${answers.map((answer) => answer.status).join(' ')}; questions to the CRM: ${questions.length}`,
		);
	});

	it('a DELETE answered 200 with an HTML page at deactivation: the subscription is kept (and said so), and the next activation reuses it', async () => {
		const { id, subscription } = await workflows.activeTrigger('issue 22: html delete');
		await crm.fault({
			status: 200,
			html: true,
			method: 'DELETE',
			pathPrefix: `/api/v1/webhooks/${subscription.id}`,
			count: 1,
		});
		await n8n.deactivate(id);
		await expectLogged(
			`could not delete webhook subscription ${subscription.id}; it is kept`,
			0,
			30_000,
		);
		expect((await crm.webhooks()).find((s) => s.id === subscription.id)).toMatchObject({
			status: 'active',
		});
		expect((await triggerState(id)).subscriptionId).toBe(subscription.id);

		await crm.clearRequests();
		await n8n.activate(id);
		const mine = await waitFor(
			async () => {
				const now = (await crm.webhooks()).filter((s) => s.url === subscription.url);
				return now.length === 1 ? now : undefined;
			},
			30_000,
			'one subscription',
		);
		expect(mine[0].id).toBe(subscription.id);
		expect((await crm.requests()).filter((request) => request.method === 'POST')).toEqual([]);
	});
});

/** The copy has production's database, instance id and static data: it computes the same owner tag. */
describe(`A restored copy of n8n ${env.n8nVersion}`, () => {
	beforeAll(async () => {
		await assertPortFree(COPY_PORT, PORTS_USE);
		await assertPortFree(COPY_PORT + 10_000, PORTS_USE);
	});

	it("production's subscription survives the copy's start-up and the copy unpublishing; production then receives", async () => {
		const {
			workflow,
			id,
			subscription: production,
		} = await workflows.activeTrigger('issue 22: production');

		const folder = path.dirname(env.logFile);
		const copyFolder = `${folder}-restored-copy`;
		rmSync(copyFolder, { recursive: true, force: true });
		cpSync(folder, copyFolder, {
			recursive: true,
			filter: (source) => !source.endsWith('n8n.log'),
		});
		const copyUrl = `http://127.0.0.1:${COPY_PORT}`;
		const copyLog = path.join(copyFolder, 'n8n.log');
		const copy = new N8nProcess({
			runtime: ensureRuntime(env.runtime),
			userFolder: copyFolder,
			port: COPY_PORT,
			logFile: copyLog,
			env: { ...leanEnv(env.runtime), WEBHOOK_URL: `${copyUrl}/`, N8N_WEBHOOK_URL: `${copyUrl}/` },
		});
		await crm.clearRequests();
		try {
			await copy.start(300_000);
			const copyClient = new N8nClient(copyUrl);
			copyClient.apiKey = env.n8nApiKey;
			// The copy activates what its database holds (1.x: checkExists and create at start-up; 2.41: no hook).
			await waitForStoredWorkflows(copyClient, {
				publicationService: copy.publicationService,
				logFile: copyLog,
				logFromByte: 0,
				timeoutMs: 180_000,
			});
			expect((await crm.webhooks()).find((s) => s.id === production.id)).toMatchObject({
				url: production.url,
				status: 'active',
			});

			// Unpublished in the copy.
			await copyClient.deactivate(id);
			expect((await crm.webhooks()).find((s) => s.id === production.id)).toMatchObject({
				url: production.url,
				status: 'active',
			});
			expect(await crm.requestsTo('DELETE', `/api/v1/webhooks/${production.id}`)).toEqual([]);
			// The copy named production's subscription in a warning (kept), and subscribed nothing at its own URL any more.
			expect(existsSync(copyLog) ? readFileSync(copyLog, 'utf8') : '').toContain(
				`kept webhook subscription ${production.id}`,
			);
			expect((await crm.webhooks()).filter((s) => s.url === triggerUrl(workflow, copyUrl))).toEqual(
				[],
			);
		} finally {
			await copy.stop();
			rmSync(copyFolder, { recursive: true, force: true });
		}

		// Production receives, through the subscription it had all along.
		await crm.api('POST', '/leads', { name: 'After the restored copy' });
		await expectExactlyExecutions(id, 1);
		expect(
			(await crm.webhooks()).filter((s) => s.url === triggerUrl(workflow)).map((s) => s.id),
		).toEqual([production.id]);
	});
});

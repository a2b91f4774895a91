/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * The package in n8n's queue mode (started by scripts/queue.ts): main activates workflows and serves the API, two
 * webhook processes receive HTTP calls (webhookA is the address n8n registers), two workers run the executions;
 * PostgreSQL and Redis are shared. Which process did what is read from each process's own log.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { webhookNode } from '../../scripts/lib/n8n';
import {
	callWebhook,
	createdWorkflows,
	e2eEnv,
	expectExactlyExecutions,
	finishedExecutions,
	n8nClient,
	nodeOutput,
	renewedSubscription,
	runAction,
	sandbox,
	sendSignedDelivery,
	sendUntilAsked,
	splitOutActionWorkflow,
	TRIGGER_NODE_NAME,
	triggerWorkflow,
	waitFor,
	waitForExecutions,
	withActiveWorkflow,
} from '../e2e/lib';
import { ROTATED_REASON } from '../../nodes/CrmInvoicing/trigger/webhook';

const env = e2eEnv();
const crm = sandbox(env);
const n8n = n8nClient(env);
const workflows = createdWorkflows(env);
if (!env.queue) throw new Error('These tests need queue mode: run them with `npm run test:queue`');
const queue = env.queue;

function logOf(name: string): string {
	return readFileSync(queue.logs[name], 'utf8');
}

/** The n8n process whose log says it ran the execution (a worker logs "Worker started execution <id> (job …)"). */
function processesThatRan(executionId: string): string[] {
	const line = `Worker started execution ${executionId} (`;
	return ['main', 'webhookA', 'webhookB', 'worker', 'worker2'].filter((name) =>
		logOf(name).includes(line),
	);
}

/** Exactly one of the two workers ran it. */
const ONE_WORKER = [expect.stringMatching(/^worker2?$/)];

async function restart(name: string): Promise<void> {
	const response = await fetch(`${env.controlUrl}/restart/${name}`, { method: 'POST' });
	expect(response.status).toBe(200);
}

/** The same URL on another webhook process (as a load balancer in front of several would route it). */
function onProcess(url: string, name: string): string {
	const target = new URL(queue.webhookUrls[name]);
	const moved = new URL(url);
	moved.host = target.host;
	return moved.toString();
}

describe(`CRM Invoicing in n8n ${env.n8nVersion} queue mode (main, two webhook processes, two workers; PostgreSQL, Redis)`, () => {
	describe('CRM Invoicing node, run by the worker', () => {
		beforeAll(async () => {
			await crm.reset();
		});

		it('creates a lead: the webhook process takes the call, the worker sends the request', async () => {
			await crm.clearRequests();
			const run = await runAction(
				{
					parameters: {
						resource: 'lead',
						operation: 'create',
						name: '={{ $json.body.name }}',
						additionalFields: { email: 'queue@example.com', value: 700 },
					},
				},
				{ name: 'Queued Lead' },
			);
			expect(run.status).toBe(200);
			expect(run.execution.status).toBe('success');
			expect(processesThatRan(run.execution.id)).toEqual(ONE_WORKER);

			expect(run.items).toHaveLength(1);
			const lead = run.items[0];
			expect(lead).toMatchObject({ name: 'Queued Lead', email: 'queue@example.com', value: 700 });
			expect(await crm.api('GET', `/leads/${lead.id}`)).toMatchObject({
				id: lead.id,
				name: 'Queued Lead',
			});
			const posts = await crm.requestsTo('POST', '/api/v1/leads');
			expect(posts).toHaveLength(1);
			expect(posts[0].headers['x-api-key']).toBe(env.sandboxKeys.admin);
		});

		it('Return All follows the cursor across pages of 100 on the worker', async () => {
			await crm.reset();
			const { total } = await crm.control<{ total: number }>('POST', '/seed', { leads: 230 });
			await crm.clearRequests();
			const run = await runAction({
				parameters: { resource: 'lead', operation: 'getMany', returnAll: true, filters: {} },
			});
			expect(run.execution.status).toBe('success');
			expect(processesThatRan(run.execution.id)).toEqual(ONE_WORKER);
			expect(run.items).toHaveLength(total);
			expect(new Set(run.items.map((lead) => lead.id)).size).toBe(total);
			const pages = (await crm.requests()).filter((request) => request.path === '/api/v1/leads');
			expect(pages.map((request) => request.query.limit)).toEqual(['100', '100', '100']);
			expect(pages[0].query.cursor).toBeUndefined();
			expect(pages[1].query.cursor).toEqual(expect.any(String));
		});

		it('an active webhook is served by the webhook processes, not by main (N8N_DISABLE_PRODUCTION_MAIN_PROCESS)', async () => {
			const path = `queue-${randomUUID()}`;
			const workflow = {
				name: `queue webhook ${path}`,
				nodes: [webhookNode(path)],
				connections: {},
			};
			await withActiveWorkflow(workflow, async () => {
				const onMain = await fetch(`${env.n8nUrl}/webhook/${path}`, { method: 'POST' });
				expect(onMain.status).toBe(404);
				for (const url of Object.values(queue.webhookUrls)) {
					const onWebhookProcess = await fetch(`${url}/webhook/${path}`, { method: 'POST' });
					expect(onWebhookProcess.status).toBe(200);
				}
			});
		});
	});

	describe('under load: two workers, four executions at once, a rate limit far below their demand', () => {
		const EXECUTIONS = 4;
		const LEADS_EACH = 50;
		// 10 requests a second for the key, against 4 executions that would send 200 requests as fast as they can.
		const LIMIT = { limit: 10, windowMs: 1_000 };

		afterAll(async () => {
			await crm.config({ rateLimit: { limit: 600, windowMs: 60_000 } });
		});

		it('creates every lead exactly once and fails no item; the 429s are waited out in both processes', async () => {
			await crm.reset();
			await crm.config({ rateLimit: LIMIT });
			const path = `queue-load-${randomUUID()}`;
			const workflow = splitOutActionWorkflow(path, 'leads', {
				resource: 'lead',
				operation: 'create',
				name: '={{ $json.name }}',
				additionalFields: { email: '={{ $json.email }}' },
			});
			const names = Array.from({ length: EXECUTIONS }, (_, run) =>
				Array.from({ length: LEADS_EACH }, (_, index) => `Load ${run}-${index}`),
			);

			await withActiveWorkflow(
				workflow,
				async (workflowId) => {
					await crm.clearRequests();
					const leadsOf = (batch: string[]) =>
						batch.map((name) => ({ name, email: `${name.replace(/\W+/g, '.')}@example.com` }));
					const answers = await Promise.all(
						names.map(async (batch) => await callWebhook(path, { leads: leadsOf(batch) }, env)),
					);
					for (const answer of answers) {
						expect(answer.status).toBe(200);
						expect(answer.items).toHaveLength(LEADS_EACH);
						expect(answer.items.filter((item) => item.error !== undefined)).toEqual([]);
					}

					const executions = await waitForExecutions(workflowId, EXECUTIONS, env, 120_000);
					expect(executions.map((execution) => execution.status)).toEqual(
						Array(EXECUTIONS).fill('success'),
					);
					// Both workers ran executions: two pacers, one key.
					const ran = executions.flatMap((execution) => processesThatRan(execution.id));
					expect(new Set(ran)).toEqual(new Set(['worker', 'worker2']));

					// Every lead exactly once in the CRM, and one accepted POST per lead.
					await crm.config({ rateLimit: { limit: 600, windowMs: 60_000 } });
					const created: Array<{ name: string }> = [];
					let cursor: string | null = null;
					for (let page = 0; page < 10; page++) {
						const query: string = `/leads?limit=100&search=Load${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
						const answer = await crm.api<{
							items: Array<{ name: string }>;
							hasMore: boolean;
							nextCursor?: string | null;
						}>('GET', query);
						created.push(...answer.items);
						cursor = answer.hasMore ? (answer.nextCursor ?? null) : null;
						if (!cursor) break;
					}
					const counts = new Map<string, number>();
					for (const lead of created)
						if (lead.name.startsWith('Load '))
							counts.set(lead.name, (counts.get(lead.name) ?? 0) + 1);
					expect(counts.size).toBe(EXECUTIONS * LEADS_EACH);
					expect([...counts.values()].every((count) => count === 1)).toBe(true);

					const posts = await crm.requestsTo('POST', '/api/v1/leads');
					expect(posts.filter((request) => request.status !== 429)).toHaveLength(
						EXECUTIONS * LEADS_EACH,
					);
					const refused = posts.filter((request) => request.status === 429).length;
					const extra = posts.length - EXECUTIONS * LEADS_EACH;
					const spanMs = Date.parse(posts[posts.length - 1].at) - Date.parse(posts[0].at);
					console.log(
						`[queue load] ${EXECUTIONS * LEADS_EACH} leads created once each by ${EXECUTIONS} executions on 2 workers: ${posts.length} POSTs, ${refused} answers 429 (${((100 * extra) / (EXECUTIONS * LEADS_EACH)).toFixed(1)} % extra requests), over ${(spanMs / 1000).toFixed(1)} s`,
					);
					// The limit was really far below the demand: the POSTs had to spread over at least 19 windows of 1 s.
					expect(spanMs).toBeGreaterThanOrEqual(
						((EXECUTIONS * LEADS_EACH) / LIMIT.limit - 1) * LIMIT.windowMs,
					);
					// The two pacers slowed down together: at most 10 % extra requests (0.2 sent 227 POSTs for 200 leads).
					expect(extra).toBeLessThanOrEqual(0.1 * EXECUTIONS * LEADS_EACH);
				},
				env,
			);
		});
	});

	describe('CRM Invoicing Trigger across processes', () => {
		let workflowId: string;
		let subscription: any;

		beforeAll(async () => {
			await crm.reset();
			workflowId = await workflows.create(triggerWorkflow('queue trigger', ['lead.created']));
		});

		afterAll(workflows.removeAll);

		it('main registers exactly one subscription, at the webhook process address', async () => {
			await n8n.activate(workflowId);
			const subscriptions = await crm.webhooks();
			expect(subscriptions).toHaveLength(1);
			subscription = subscriptions[0];
			expect(subscription).toMatchObject({ events: ['lead.created'], status: 'active' });
			expect(subscription.url.startsWith(`${queue.webhookUrls.webhookA}/webhook/`)).toBe(true);
			expect(subscription.secret).toMatch(/^whsec_/);
		});

		it('a signed lead.created from the CRM is verified by the webhook process and run by the worker', async () => {
			const lead = await crm.api('POST', '/leads', {
				name: 'Grace Queue',
				email: 'grace.queue@example.com',
			});
			const [execution] = await waitForExecutions(workflowId, 1, env);
			expect(execution.status).toBe('success');
			expect(processesThatRan(execution.id)).toEqual(ONE_WORKER);
			expect(nodeOutput(execution, TRIGGER_NODE_NAME)).toEqual([
				expect.objectContaining({
					event: 'lead.created',
					payload: expect.objectContaining({ id: lead.id, name: 'Grace Queue' }),
				}),
			]);
			// The CRM got its 2xx from the webhook process on the first attempt.
			const deliveries = await crm.deliveriesOf('lead.created');
			expect(deliveries.map((delivery) => delivery.status)).toEqual([200]);
			expect(JSON.stringify(execution)).not.toContain(subscription.secret);
		});

		it('a forged delivery is answered 503 by the webhook process (after one question to the CRM), which subscribes anew once (issue 40), and runs nothing', async () => {
			const before = (await finishedExecutions(workflowId)).length;
			const forged = await sendUntilAsked(subscription.url);
			expect(forged.status).toBe(503);
			expect(forged.body).toEqual({ error: ROTATED_REASON });
			// It may be a rotation of the CRM's secret the trigger missed: one renewal, saved for every process.
			subscription = await renewedSubscription(workflowId, subscription.url, subscription.id);
			await expectExactlyExecutions(workflowId, before);
		});

		it('a retried delivery runs once when the retry reaches another webhook process, or one restarted since', async () => {
			const id = `msg_queue_retry_${randomUUID()}`;
			const delivery = {
				event: 'lead.created',
				payload: { id: 'lead_retry', name: 'Retried Once' },
			};
			const before = (await finishedExecutions(workflowId)).length;

			const first = await sendSignedDelivery(subscription.url, subscription.secret, id, delivery);
			expect(first).toEqual({ status: 200, body: { received: true } });
			const [execution] = await waitForExecutions(workflowId, before + 1, env);
			expect(processesThatRan(execution.id)).toEqual(ONE_WORKER);

			// The retry reaches webhookB, which never saw the first (only the database knows it).
			const toOther = await sendSignedDelivery(
				onProcess(subscription.url, 'webhookB'),
				subscription.secret,
				id,
				delivery,
			);
			expect(toOther).toEqual({ status: 200, body: { received: true, duplicate: true } });
			// And webhookA after a restart (its memory is gone).
			await restart('webhookA');
			const afterRestart = await sendSignedDelivery(
				subscription.url,
				subscription.secret,
				id,
				delivery,
			);
			expect(afterRestart).toEqual({ status: 200, body: { received: true, duplicate: true } });

			// A new id on webhookB runs: the duplicate answers were about the id, not the process.
			const other = await sendSignedDelivery(
				onProcess(subscription.url, 'webhookB'),
				subscription.secret,
				`msg_queue_other_${randomUUID()}`,
				delivery,
			);
			expect(other).toEqual({ status: 200, body: { received: true } });
			await waitFor(
				async () => (await finishedExecutions(workflowId)).length === before + 2,
				30_000,
				'the delivery with a new id',
			);
			await expectExactlyExecutions(workflowId, before + 2);
		});

		it('deactivation by main deletes the subscription', async () => {
			await n8n.deactivate(workflowId);
			expect(await crm.webhooks()).toEqual([]);
			const deletes = await crm.requestsTo('DELETE', `/api/v1/webhooks/${subscription.id}`);
			expect(deletes).toHaveLength(1);
		});
	});
});

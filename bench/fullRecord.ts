/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * What "Output Full Record" costs a delivery: the trigger's answer time for signed lead.created deliveries with the
 * option off and on (one GET /leads/{id} per delivery), in the real n8n against the sandbox. Not part of `npm run
 * bench` (a figure for one option, not a comparison with n8n's own nodes).
 *
 *   npm run build && npx tsx bench/fullRecord.ts [deliveries=100] [concurrency=1,10]
 *
 * BENCH_N8N_PORT pins n8n's port. Prints a table and writes .tmp/bench-fullrecord/results.json.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from '../scripts/lib/runtime';
import { startStack, type Stack } from '../scripts/lib/stack';
import { sign } from '../test/sandbox/webhooks';
import { listExecutions, pool, postOnce, sleep, TRIGGER_NODE_TYPE } from './lib/harness';
import { leadCreatedBody } from './lib/signatureBench';
import { percentile } from './lib/stats';

const DELIVERIES = Number(process.argv[2] ?? 100);
const CONCURRENCIES = (process.argv[3] ?? '1,10').split(',').map(Number);
const WARM_UP = 5;

interface Target {
	label: string;
	workflowId: string;
	url: string;
	secret: string;
}

async function createTarget(stack: Stack, fullRecord: boolean): Promise<Target> {
	const webhookId = randomUUID();
	const workflow = await stack.client.createWorkflow({
		name: `bench: full record ${fullRecord ? 'on' : 'off'}`,
		nodes: [
			{
				id: randomUUID(),
				name: 'CRM Invoicing Trigger',
				type: TRIGGER_NODE_TYPE,
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				parameters: { events: ['lead.created'], options: fullRecord ? { fullRecord: true } : {} },
				credentials: { crmInvoicingApi: stack.credentials.admin },
			},
		],
		connections: {},
	});
	await stack.client.activate(workflow.id);
	const subscription = stack.sandbox.state.webhooks
		.values()
		.find((candidate) => candidate.url.includes(webhookId));
	if (!subscription) throw new Error('no subscription was created');
	return {
		label: `Output Full Record ${fullRecord ? 'on' : 'off'}`,
		workflowId: workflow.id,
		url: subscription.url,
		secret: subscription.secret,
	};
}

function delivery(secret: string, leadId: string) {
	const id = 'msg_' + randomBytes(12).toString('hex');
	const timestamp = Math.floor(Date.now() / 1000);
	const body = leadCreatedBody(leadId, {});
	return {
		body,
		headers: {
			'content-type': 'application/json',
			'webhook-id': id,
			'webhook-timestamp': String(timestamp),
			'webhook-signature': sign(secret, id, timestamp, body),
		},
	};
}

async function waitForExecutions(stack: Stack, workflowId: string, count: number): Promise<number> {
	const deadline = Date.now() + 120_000;
	for (;;) {
		const finished = (
			await listExecutions({ stack, runs: 1, log: () => undefined }, workflowId)
		).filter((execution) => execution.stoppedAt);
		if (finished.length >= count || Date.now() > deadline) return finished.length;
		await sleep(500);
	}
}

async function main(): Promise<void> {
	const workDir = path.join(ROOT, '.tmp', 'bench-fullrecord');
	mkdirSync(workDir, { recursive: true });
	const stack = await startStack({
		runtime: 'current',
		userFolder: path.join(workDir, 'n8n'),
		fresh: true,
		n8nPort: Number(process.env.BENCH_N8N_PORT ?? 5741),
		sandbox: { port: 0, rateLimit: false },
	});
	const rows: Array<Record<string, unknown>> = [];
	try {
		stack.sandbox.seedLeads(DELIVERIES + WARM_UP);
		const leadIds = stack.sandbox.state.leads.values().map((lead) => lead.id);
		for (const fullRecord of [false, true]) {
			const target = await createTarget(stack, fullRecord);
			let sent = 0;
			const send = async (count: number, concurrency: number) => {
				const messages = Array.from({ length: count }, (_, index) =>
					delivery(target.secret, leadIds[index % leadIds.length]),
				);
				const started = performance.now();
				const results = await pool(count, concurrency, (index) =>
					postOnce(target.url, messages[index].headers, messages[index].body),
				);
				sent += count;
				return { results, ms: performance.now() - started };
			};
			await send(WARM_UP, 1);
			for (const concurrency of CONCURRENCIES) {
				const readsBefore = stack.sandbox.requests.filter(
					(request) => request.method === 'GET' && request.path.startsWith('/api/v1/leads/'),
				).length;
				const { results, ms } = await send(DELIVERIES, concurrency);
				const reads =
					stack.sandbox.requests.filter(
						(request) => request.method === 'GET' && request.path.startsWith('/api/v1/leads/'),
					).length - readsBefore;
				const latencies = results.map((result) => result.ms);
				const executions = await waitForExecutions(stack, target.workflowId, sent);
				rows.push({
					variant: target.label,
					concurrency,
					deliveries: DELIVERIES,
					answered2xx: results.filter((result) => result.status >= 200 && result.status < 300)
						.length,
					p50Ms: Math.round(percentile(latencies, 50)),
					p95Ms: Math.round(percentile(latencies, 95)),
					maxMs: Math.round(Math.max(...latencies)),
					perSecond: Math.round((DELIVERIES / ms) * 1000 * 10) / 10,
					leadReads: reads,
					executionsSoFar: executions,
				});
			}
			await stack.client.deactivate(target.workflowId);
			await stack.client.deleteWorkflow(target.workflowId);
		}
	} finally {
		await stack.stop();
	}
	writeFileSync(
		path.join(workDir, 'results.json'),
		JSON.stringify(
			{ date: new Date().toISOString(), n8n: stack.runtime.n8nVersion, rows },
			null,
			2,
		),
	);
	console.log(
		`n8n ${stack.runtime.n8nVersion}, ${DELIVERIES} signed lead.created deliveries per row (after ${WARM_UP} warm-up)`,
	);
	console.log(
		'| Variant | Concurrency | 2xx | p50 ms | p95 ms | max ms | per s | GET /leads/{id} |',
	);
	console.log('|---|---|---|---|---|---|---|---|');
	for (const row of rows) {
		console.log(
			`| ${String(row.variant)} | ${String(row.concurrency)} | ${String(row.answered2xx)} | ${String(row.p50Ms)} | ${String(row.p95Ms)} | ${String(row.maxMs)} | ${String(row.perSecond)} | ${String(row.leadReads)} |`,
		);
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});

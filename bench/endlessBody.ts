/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * An endless answer against the real n8n (issue 17): Lead → Get while the sandbox answers GET /leads/{id} with a 200
 * JSON body of up to 2 GB, as fast as n8n reads it. Samples n8n's resident memory (VmRSS of its process, every 20 ms)
 * before and during each run, and reports the growth against the documented cap (READ.maxAnswerBytes) + 50 MB.
 * Before issue 17, n8n's RSS grew by more than 1 GB in 5 to 7 s, until n8n died.
 *
 *   npm run build && npx tsx bench/endlessBody.ts [runs=3] [bytes=2147483648]
 *
 * BENCH_N8N_PORT pins n8n's port. Prints the table and writes it to bench/ENDLESS-BODY-RESULTS.md.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';

import { READ } from '../nodes/CrmInvoicing/shared/transport/limits';
import { webhookNode } from '../scripts/lib/n8n';
import { ROOT } from '../scripts/lib/runtime';
import { startStack, type Stack } from '../scripts/lib/stack';
import { ACTION_NODE_TYPE, sleep } from './lib/harness';

const RUNS = Number(process.argv[2] ?? 3);
const BYTES = Number(process.argv[3] ?? 2 * 1024 ** 3);
const MB = 1024 * 1024;
const ALLOWED_GROWTH = READ.maxAnswerBytes + 50 * MB;

function rssOf(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const match = /VmRSS:\s+(\d+) kB/.exec(status);
	return match ? Number(match[1]) * 1024 : 0;
}

/** Samples RSS every 20 ms while `work` runs. */
async function sampled<T>(
	pid: number,
	work: () => Promise<T>,
): Promise<{ result: T; peak: number; samples: number }> {
	let peak = 0;
	let samples = 0;
	let running = true;
	const loop = (async () => {
		while (running) {
			peak = Math.max(peak, rssOf(pid));
			samples++;
			await sleep(20);
		}
	})();
	try {
		return { result: await work(), peak, samples };
	} finally {
		running = false;
		await loop;
	}
}

async function createWorkflow(stack: Stack, webhookPath: string): Promise<string> {
	const workflow = await stack.client.createWorkflow({
		name: 'bench: endless body',
		settings: {},
		nodes: [
			webhookNode(webhookPath, { responseMode: 'lastNode', responseData: 'allEntries' }),
			{
				id: randomUUID(),
				name: 'CRM Invoicing',
				type: ACTION_NODE_TYPE,
				typeVersion: 1,
				position: [300, 0],
				parameters: {
					resource: 'lead',
					operation: 'get',
					leadId: { __rl: true, mode: 'id', value: '={{ $json.body.id }}' },
				},
				credentials: { crmInvoicingApi: stack.credentials.admin },
				onError: 'continueRegularOutput',
			},
		],
		connections: { Webhook: { main: [[{ node: 'CRM Invoicing', type: 'main', index: 0 }]] } },
	});
	await stack.client.activate(workflow.id);
	// Activation is asynchronous: wait until the webhook answers OPTIONS.
	for (let attempt = 0; attempt < 100; attempt++) {
		const probe = await fetch(`${stack.n8n.url}/webhook/${webhookPath}`, {
			method: 'OPTIONS',
		}).catch(() => undefined);
		if (probe && probe.status < 300) break;
		await sleep(100);
	}
	return workflow.id;
}

async function main(): Promise<void> {
	const workDir = path.join(ROOT, '.tmp', 'bench-endless');
	mkdirSync(workDir, { recursive: true });
	const stack = await startStack({
		runtime: 'current',
		userFolder: path.join(workDir, 'n8n'),
		fresh: true,
		n8nPort: Number(process.env.BENCH_N8N_PORT ?? 5743),
		sandbox: { port: 0, rateLimit: false },
	});
	const rows: string[] = [];
	try {
		const pid = stack.n8n.pid;
		if (!pid) throw new Error('n8n has no pid');
		const lead =
			stack.sandbox.state.leads.values()[0] ??
			((await (
				await fetch(`${stack.sandbox.url}/api/v1/leads`, {
					method: 'POST',
					headers: { 'content-type': 'application/json', 'x-api-key': stack.sandbox.keys.admin },
					body: JSON.stringify({ name: 'Endless' }),
				})
			).json()) as { id: string });
		const webhookPath = `bench-endless-${randomUUID()}`;
		const workflowId = await createWorkflow(stack, webhookPath);
		const call = async () => {
			const response = await fetch(`${stack.n8n.url}/webhook/${webhookPath}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ id: lead.id }),
			});
			return { status: response.status, text: await response.text() };
		};
		// Warm-up: one normal Lead → Get, so that n8n has loaded what the run needs.
		await call();
		for (let run = 1; run <= RUNS; run++) {
			await sleep(2_000);
			const baselineSamples: number[] = [];
			for (let n = 0; n < 25; n++) {
				baselineSamples.push(rssOf(pid));
				await sleep(20);
			}
			const baseline = baselineSamples.sort((a, b) => a - b)[
				Math.floor(baselineSamples.length / 2)
			];
			stack.sandbox.streams.length = 0;
			stack.sandbox.addFault({
				status: 200,
				count: 1,
				endless: true,
				endlessBytes: BYTES,
				method: 'GET',
				pathPrefix: `/api/v1/leads/${lead.id}`,
			});
			const started = performance.now();
			const { result, peak, samples } = await sampled(pid, call);
			const ms = performance.now() - started;
			const stream = stack.sandbox.streams[0];
			const failedAtCap = result.text.includes('the most the node reads of one answer');
			const growth = peak - baseline;
			const row = `| ${run} | ${(BYTES / MB).toFixed(0)} | ${(stream?.bytes ?? 0) / MB < 1 ? '<1' : ((stream?.bytes ?? 0) / MB).toFixed(1)} | ${stream?.closedByClient ? 'yes' : 'no'} | ${failedAtCap ? 'yes' : 'no'} | ${(baseline / MB).toFixed(0)} | ${(peak / MB).toFixed(0)} | ${(growth / MB).toFixed(1)} | ${growth < ALLOWED_GROWTH ? 'yes' : 'NO'} | ${ms.toFixed(0)} | ${samples} |`;
			rows.push(row);
			console.log(row);
		}
		await stack.client.deactivate(workflowId);
		await stack.client.deleteWorkflow(workflowId);
	} finally {
		await stack.stop();
	}
	const table = [
		'| Run | Body offered (MB) | Sent by the sandbox (MB) | n8n closed the connection | Execution failed at the cap | n8n RSS before (MB) | Peak RSS (MB) | Growth (MB) | Below cap + 50 MB | Time (ms) | RSS samples |',
		'|---|---|---|---|---|---|---|---|---|---|---|',
		...rows,
	];
	const header = [
		"# Endless answer body: n8n's memory",
		'',
		`\`npx tsx bench/endlessBody.ts ${RUNS} ${BYTES}\` on ${new Date().toISOString()}: n8n ${stack.runtime.n8nVersion}, Node.js of the runtime, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, load average ${loadavg()[0].toFixed(1)} when it ended.`,
		'',
		`Lead → Get (Continue On Fail) while the sandbox answers GET /leads/{id} with an endless 200 JSON body of up to ${(BYTES / MB).toFixed(0)} MB, as fast as n8n reads it. RSS of n8n's main process sampled every 20 ms; "before" is the median of 25 samples just before the run. The documented cap of one answer is READ.maxAnswerBytes = ${READ.maxAnswerBytes / MB} MB; the bound asked for is growth < cap + 50 MB = ${(ALLOWED_GROWTH / MB).toFixed(0)} MB. "Sent by the sandbox" includes what sat in socket buffers when n8n closed the connection.`,
		'',
	];
	writeFileSync(
		path.join(__dirname, 'ENDLESS-BODY-RESULTS.md'),
		`${[...header, ...table].join('\n')}\n`,
	);
	console.log(table.slice(0, 2).join('\n'));
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});

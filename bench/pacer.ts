/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * `npm run build && npx tsx bench/pacer.ts [--cases unit,n8n,queue] [--runs N]`: the pacer under load (issue 17,
 * point 5), with the figures written to bench/PACER-RESULTS.md (and the raw numbers to .tmp/bench-pacer/results.json).
 *
 * - `unit`: 80 concurrent GETs of one lead on one key through the package's transport (n8n-core's real execution
 *   context and HTTP client, real time), against a local sandbox at 10 requests / 2 s.
 * - `n8n`: 40 concurrent executions of "Webhook → CRM Invoicing Lead → Get" on one key in the project's pinned n8n,
 *   sandbox at 10 requests / 2 s. Targets: 0 failed, at most 4 answers 429, wall time at most 1.2 × the floor (8 s).
 * - `queue`: runs `scripts/queue.ts -t "under load"` (queue mode, 2 workers, 4 × 50 creates, sandbox at 10 / 1 s) and
 *   records the line its test prints. Target: 0 failed, at most 10 % extra requests (the test asserts both).
 *
 * The "floor" is the requests divided by the limit, times the window: 40 at 10 / 2 s → 8 s. A fixed window lets a
 * client go a little under it (its first and last windows are partly used), so a ratio below 1 is possible.
 * Run on a quiet machine: times are wall-clock times of a shared 2-core machine.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';

import { apiRequest } from '../nodes/CrmInvoicing/shared/transport';
import type { INodeType } from 'n8n-workflow';
import { ROOT } from '../scripts/lib/runtime';
import { startStack } from '../scripts/lib/stack';
import { freePort } from '../scripts/lib/system';
import { concurrentLeadGets, requestsPerWindow } from '../test/e2e/pacerLoad';
import { createExecuteContext } from '../test/helpers/harness';
import { startSandbox } from '../test/sandbox/server';

const LIMIT = 10;
const WINDOW_MS = 2_000;

interface Row {
	case: string;
	run: number;
	requests: number;
	wanted: number;
	refused: number;
	failed: number;
	wallMs: number;
	floorMs: number;
	perWindowMax: number;
	/** When the first and the last request reached the CRM, in ms after the first call was sent. */
	firstRequestMs?: number;
	lastRequestMs?: number;
}

const args = process.argv.slice(2);
const casesArg = args.includes('--cases') ? args[args.indexOf('--cases') + 1] : 'unit,n8n';
const cases = new Set(casesArg.split(','));
const runs = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 3;
const rows: Row[] = [];
const extra: string[] = [];
let n8nVersion: string | undefined;

function log(message: string): void {
	console.log(`[bench pacer] ${message}`);
}

/**
 * The action node's type, loaded by its file name: tsx would resolve `CrmInvoicing.node` to the codex file beside it
 * (CrmInvoicing.node.json).
 */
async function actionNodeType(): Promise<INodeType> {
	const loaded = (await import(
		path.join(ROOT, 'nodes', 'CrmInvoicing', 'CrmInvoicing.node.ts')
	)) as { CrmInvoicing: new () => INodeType };
	return new loaded.CrmInvoicing();
}

async function unitCase(run: number): Promise<void> {
	const nodeType = await actionNodeType();
	const sandbox = await startSandbox({ port: 0, rateLimit: false });
	try {
		const lead = sandbox.state.leads.values()[0];
		sandbox.setRateLimit({ limit: LIMIT, windowMs: WINDOW_MS });
		// A rate of its own per run (the pacer is per base URL, key and rate): each run starts with a fresh pacer.
		const apiKey = sandbox.keys.admin;
		const count = 80;
		const started = Date.now();
		const outcomes = await Promise.all(
			Array.from({ length: count }, async () => {
				const { context } = createExecuteContext({
					nodeType,
					parameters: { resource: 'lead', operation: 'get' },
					credentials: { baseUrl: sandbox.url, apiKey, requestsPerMinute: 300 + run },
				});
				try {
					const answer = await apiRequest.call(context, {
						method: 'GET',
						path: `/leads/${lead.id}`,
					});
					return answer.id === lead.id;
				} catch {
					return false;
				}
			}),
		);
		const wallMs = Date.now() - started;
		const requests = sandbox.requests.filter(
			(request) => request.path === `/api/v1/leads/${lead.id}`,
		);
		rows.push({
			case: '80 concurrent GETs, transport, local sandbox',
			run,
			requests: requests.length,
			wanted: count,
			refused: requests.filter((request) => request.status === 429).length,
			failed: outcomes.filter((ok) => !ok).length,
			wallMs,
			floorMs: (count / LIMIT) * WINDOW_MS,
			perWindowMax: Math.max(...requestsPerWindow(requests, WINDOW_MS)),
		});
		log(JSON.stringify(rows[rows.length - 1]));
	} finally {
		await sandbox.close();
	}
}

async function n8nCase(): Promise<void> {
	const stack = await startStack({
		runtime: 'current',
		userFolder: path.join(ROOT, '.tmp', 'bench-pacer', 'n8n'),
		fresh: true,
		n8nPort: Number(process.env.BENCH_N8N_PORT ?? (await freePort())),
		sandbox: { port: 0, rateLimit: { limit: LIMIT, windowMs: WINDOW_MS } },
	});
	n8nVersion = stack.runtime.n8nVersion;
	try {
		const lead = stack.sandbox.state.leads.values()[0];
		const control = async <T = any>(method: string, route: string, body?: unknown): Promise<T> => {
			const response = await fetch(`${stack.sandbox.url}/__sandbox${route}`, {
				method,
				headers: { 'content-type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			const text = await response.text();
			return (text ? JSON.parse(text) : undefined) as T;
		};
		// One execution first, not measured: n8n's first execution of a workflow type loads what later ones reuse.
		await concurrentLeadGets({
			client: stack.client,
			webhookUrl: stack.n8n.url,
			credential: stack.credentials.admin,
			control,
			executions: 1,
			leadId: lead.id,
		});
		for (let run = 1; run <= runs; run++) {
			// Let the previous run's window end on both sides.
			await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 1_000));
			const count = 40;
			const result = await concurrentLeadGets({
				client: stack.client,
				webhookUrl: stack.n8n.url,
				credential: stack.credentials.admin,
				control,
				executions: count,
				leadId: lead.id,
			});
			rows.push({
				case: '40 executions of Lead → Get, real n8n',
				run,
				requests: result.requests.length,
				wanted: count,
				refused: result.refused,
				failed: result.failed,
				wallMs: result.wallMs,
				floorMs: (count / LIMIT) * WINDOW_MS,
				perWindowMax: Math.max(...requestsPerWindow(result.requests, WINDOW_MS)),
				firstRequestMs: Date.parse(result.requests[0]?.at ?? '') - result.startedAt,
				lastRequestMs:
					Date.parse(result.requests[result.requests.length - 1]?.at ?? '') - result.startedAt,
			});
			log(JSON.stringify(rows[rows.length - 1]));
		}
	} finally {
		await stack.stop();
	}
}

async function queueCase(): Promise<void> {
	const output = await new Promise<string>((resolve) => {
		const child = spawn('npx', ['tsx', 'scripts/queue.ts', '-t', 'under load'], {
			cwd: ROOT,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let text = '';
		child.stdout.on('data', (chunk: Buffer) => {
			text += chunk.toString();
			process.stdout.write(chunk);
		});
		child.stderr.on('data', (chunk: Buffer) => {
			text += chunk.toString();
			process.stderr.write(chunk);
		});
		child.on('close', (code) => resolve(`${text}\n[exit ${code}]`));
	});
	const line = /\[queue load\][^\n]*/.exec(output)?.[0];
	const exit = /\[exit (\d+|null)\]/.exec(output)?.[1];
	extra.push(
		`Queue mode (\`npx tsx scripts/queue.ts -t "under load"\`, exit ${exit}): ${line ?? 'no figure printed'}`,
	);
}

async function main(): Promise<void> {
	if (cases.has('unit')) for (let run = 1; run <= runs; run++) await unitCase(run);
	if (cases.has('n8n')) await n8nCase();
	if (cases.has('queue')) await queueCase();

	const table = [
		'| Case | Run | Requests / wanted | 429 | Failed | Wall (s) | Floor (s) | Wall / floor | Most in one CRM window | First / last request at (s) |',
		'|---|---|---|---|---|---|---|---|---|---|',
		...rows.map(
			(row) =>
				`| ${row.case} | ${row.run} | ${row.requests} / ${row.wanted} | ${row.refused} | ${row.failed} | ${(row.wallMs / 1000).toFixed(2)} | ${(row.floorMs / 1000).toFixed(0)} | ${(row.wallMs / row.floorMs).toFixed(2)} | ${row.perWindowMax} | ${row.firstRequestMs === undefined ? '—' : `${(row.firstRequestMs / 1000).toFixed(2)} / ${((row.lastRequestMs ?? 0) / 1000).toFixed(2)}`} |`,
		),
	];
	const report = [
		'# Pacer results',
		'',
		`Written by \`npx tsx bench/pacer.ts --cases ${casesArg} --runs ${runs}\` on ${new Date().toISOString()}: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg()
			.map((value) => value.toFixed(1))
			.join(
				' ',
			)} at the end, Node.js ${process.version}${n8nVersion ? `, n8n ${n8nVersion}` : ''}. Sandbox limit ${LIMIT} requests / ${WINDOW_MS / 1000} s per key (fixed window).`,
		'',
		...table,
		'',
		...extra.map((line) => `- ${line}`),
		'',
	].join('\n');
	const outDir = path.join(ROOT, '.tmp', 'bench-pacer');
	mkdirSync(outDir, { recursive: true });
	writeFileSync(path.join(outDir, 'results.json'), JSON.stringify({ rows, extra }, null, 2));
	const target = process.env.PACER_RESULTS ?? path.join(ROOT, 'bench', 'PACER-RESULTS.md');
	writeFileSync(target, report);
	console.log(report);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});

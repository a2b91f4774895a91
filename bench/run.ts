/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * `npm run bench`: this package against what users would otherwise build with n8n's own nodes, side by side in the
 * same real n8n (the project's pinned runtime) and the same sandbox CRM:
 *
 *   1. Return All over 10,000 leads, no rate limit: requests and time.
 *   2. Return All over 2,000 leads under 10 requests per 5 s: completeness, 429s, time against the floor.
 *   3. Limit = 250: requests and their page sizes.
 *   4. Trigger: 200 signed deliveries at 20 concurrent, against n8n's Webhook node; one signature verification
 *      against the standardwebhooks library.
 *   5. Peak RSS of the n8n process during Return All over 10,000 leads.
 *
 * Writes bench/RESULTS.md and bench/results.json. Exits non-zero when a "must" fails or a case does not finish.
 * Options (after `npm run bench --`): `--cases 1,3` runs only those (results then go to .tmp/bench/, not bench/),
 * `--runs N` measured runs per case (default 5).
 * Not part of `npm test`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { freePort } from '../scripts/lib/system';
import { ROOT } from '../scripts/lib/runtime';
import { startStack, type Stack } from '../scripts/lib/stack';
import { caseLimit, caseMemory, caseRateLimited, caseReturnAll } from './cases/actions';
import { caseSignature, caseTrigger } from './cases/trigger';
import { type BenchContext, type CaseResult, TimeoutError, withTimeout } from './lib/harness';
import { type Environment, renderResults } from './lib/report';
import { fmt } from './lib/stats';

interface CaseSpec {
	id: string;
	title: string;
	/** Which `--cases` selection runs it. */
	selector: string;
	timeoutMs: number;
	run(ctx: BenchContext): Promise<Omit<CaseResult, 'durationMs'>>;
}

/** In this order: the memory case restarts n8n, so it goes last. */
const CASES: CaseSpec[] = [
	{ id: '3', selector: '3', title: 'Limit = 250', timeoutMs: 4 * 60_000, run: caseLimit },
	{
		id: '1',
		selector: '1',
		title: 'Return All over 10,000 leads, no rate limit',
		timeoutMs: 10 * 60_000,
		run: caseReturnAll,
	},
	{
		id: '2',
		selector: '2',
		title: 'Return All over 2,000 leads under 10 requests per 5 s',
		timeoutMs: 8 * 60_000,
		run: caseRateLimited,
	},
	{
		id: '4',
		selector: '4',
		title: 'Trigger: 200 signed deliveries at 20 concurrent',
		timeoutMs: 10 * 60_000,
		run: caseTrigger,
	},
	{
		id: '4b',
		selector: '4',
		title: 'Cost of one signature verification (in-process)',
		timeoutMs: 4 * 60_000,
		run: caseSignature,
	},
	{
		id: '5',
		selector: '5',
		title: 'Peak RSS of the n8n process during Return All over 10,000 leads',
		timeoutMs: 12 * 60_000,
		run: caseMemory,
	},
];

/** Everything, including starting and stopping n8n, must end within this. */
const GLOBAL_TIMEOUT_MS = 75 * 60_000;

function parseArgs(argv: string[]): { selected: Set<string>; runs: number; full: boolean } {
	let selected = new Set(CASES.map((spec) => spec.selector));
	let runs = 5;
	let full = true;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		const value = (): string => {
			const next = argv[++i];
			if (next === undefined) throw new Error(`${arg} needs a value`);
			return next;
		};
		if (arg === '--cases') {
			selected = new Set(
				value()
					.split(',')
					.map((id) => id.trim())
					.filter(Boolean),
			);
			full = CASES.every((spec) => selected.has(spec.selector));
		} else if (arg === '--runs') {
			runs = Number(value());
			if (!Number.isInteger(runs) || runs < 1)
				throw new Error('--runs must be a whole number of at least 1');
		} else {
			throw new Error(`Unknown argument ${arg}`);
		}
	}
	return { selected, runs, full };
}

/**
 * n8n answers its health check (a few tries). Also clears keep-alive sockets that n8n closed while this process was
 * busy, so that the case's first API call does not land on one.
 */
async function probeN8n(stack: Stack): Promise<void> {
	for (let attempt = 1; attempt <= 5; attempt++) {
		const ok = await fetch(`${stack.n8n.url}/healthz`, { signal: AbortSignal.timeout(10_000) })
			.then((response) => response.ok)
			.catch(() => false);
		if (ok) return;
		await new Promise((resolve) => setTimeout(resolve, 1_000));
	}
	log('n8n does not answer its health check: restarting it');
	await stack.n8n.stop();
	await stack.n8n.start();
}

function log(message: string): void {
	console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

function osName(): string {
	try {
		const release = readFileSync('/etc/os-release', 'utf8');
		const pretty = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(release)?.[1];
		if (pretty) return `${pretty}, Linux ${os.release()} (${os.arch()})`;
	} catch {
		// not Linux, or no os-release
	}
	return `${os.type()} ${os.release()} (${os.arch()})`;
}

function environmentOf(stack: Stack, runs: number, started: number, command: string): Environment {
	const cpus = os.cpus();
	const n8nNode = spawnSync(stack.runtime.node, ['--version'], { encoding: 'utf8' }).stdout.trim();
	const ownPackage = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
		version: string;
	};
	return {
		date: new Date().toISOString(),
		command,
		cpu: cpus[0]?.model.trim() ?? 'unknown CPU',
		cores: cpus.length,
		memoryGb: os.totalmem() / 1024 ** 3,
		os: osName(),
		n8nVersion: stack.runtime.n8nVersion,
		n8nNode,
		benchNode: process.version,
		packageVersion: ownPackage.version,
		runs,
		durationS: (Date.now() - started) / 1000,
	};
}

function metric(result: CaseResult | undefined, variant: string, name: string): number | undefined {
	return result?.variants.find((candidate) => candidate.key === variant)?.metrics[name]?.median;
}

/** Plain statements drawn from the numbers (the interpretation is in the hand-off report). */
function analysisOf(results: CaseResult[]): string[] {
	const byId = new Map(results.map((result) => [result.id, result]));
	const lines: string[] = [];
	const one = byId.get('1');
	if (one && !one.error) {
		const oursWall = metric(one, 'ours', 'wallMs');
		const httpWall = metric(one, 'httpRequest', 'wallMs');
		const floorWall = metric(one, 'floor', 'wallMs');
		lines.push(
			`- Case 1: ${metric(one, 'ours', 'requests')} requests for 10,000 leads (the floor is 100) against ${metric(one, 'httpRequest', 'requests')} for HTTP Request; wall time ${fmt.ms(oursWall ?? NaN)} against ${fmt.ms(httpWall ?? NaN)} (${fmt.ratio((oursWall ?? NaN) / (httpWall ?? NaN))}), and against the floor (100 raw page requests + a Code node's 10,000 items) ${fmt.ms(floorWall ?? NaN)} (${fmt.ratio((oursWall ?? NaN) / (floorWall ?? NaN))}).`,
		);
	}
	const two = byId.get('2');
	if (two && !two.error) {
		const floorMs = Number(two.extra.floorMs);
		const oursWall = metric(two, 'ours', 'wallMs') ?? NaN;
		const http = two.variants.find((variant) => variant.key === 'httpRequest');
		const httpFailed = http?.runs.filter((run) => run.status !== 'success').length ?? 0;
		const httpRequests = http?.runs.map((run) => run.requests).join(', ');
		const paced = metric(two, 'httpRequestInterval', 'wallMs');
		lines.push(
			`- Case 2: ours returned all leads in ${fmt.ms(oursWall)}, ${fmt.ratio(oursWall / floorMs)} the ${fmt.ms(floorMs)} floor, with ${metric(two, 'ours', 'rateLimited')} responses 429 (median). HTTP Request without an interval failed in ${httpFailed} of ${http?.runs.length ?? 0} runs (requests made: ${httpRequests}); with a ${'500 ms'} interval between pages it took ${paced === undefined ? '—' : fmt.ms(paced)}.`,
		);
	}
	const three = byId.get('3');
	if (three && !three.error) {
		const ours = three.variants.find((variant) => variant.key === 'ours');
		const http = three.variants.find((variant) => variant.key === 'httpRequest');
		lines.push(
			`- Case 3: ours asked for limit=${(ours?.runs[0]?.limits as string[] | undefined)?.join(', ') ?? '—'}; HTTP Request asked for limit=${(http?.runs[0]?.limits as string[] | undefined)?.join(', ') ?? '—'} and a Limit node dropped the surplus.`,
		);
	}
	const four = byId.get('4');
	if (four && !four.error) {
		const ours95 = metric(four, 'ours', 'p95Ms') ?? NaN;
		const plain95 = metric(four, 'webhookNode', 'p95Ms') ?? NaN;
		const isolate95 = metric(four, 'webhookNodeIsolate', 'p95Ms') ?? NaN;
		lines.push(
			`- Case 4: p50 ${fmt.ms(metric(four, 'ours', 'p50Ms') ?? NaN)} / p95 ${fmt.ms(ours95)} for the trigger against ${fmt.ms(metric(four, 'webhookNode', 'p50Ms') ?? NaN)} / ${fmt.ms(plain95)} for the plain Webhook node (p95 ratio ${fmt.ratio(ours95 / plain95)}) and ${fmt.ms(metric(four, 'webhookNodeIsolate', 'p50Ms') ?? NaN)} / ${fmt.ms(isolate95)} for the Webhook node with one expression parameter, which makes n8n take its expression isolate per request as it does for every community trigger (p95 ratio ${fmt.ratio(ours95 / isolate95)}).`,
		);
	}
	const sig = byId.get('4b');
	if (sig && !sig.error) {
		const ours = metric(sig, 'ours', 'nsPerOp') ?? NaN;
		const library = metric(sig, 'library', 'nsPerOp') ?? NaN;
		const extra = sig.extra.n8nNode as
			| { node?: string; variants?: Array<{ key: string; medianNs: number }> }
			| undefined;
		const n8nOurs = extra?.variants?.find((variant) => variant.key === 'ours')?.medianNs;
		const n8nLibrary = extra?.variants?.find((variant) => variant.key === 'library')?.medianNs;
		let line = `- Case 4 (verification): ${fmt.ns(ours)} per verification against ${fmt.ns(library)} for standardwebhooks (${fmt.ratio(ours / library)}) under Node.js ${process.version}`;
		if (n8nOurs !== undefined && n8nLibrary !== undefined)
			line += `; under n8n's Node.js ${extra?.node}: ${fmt.ns(n8nOurs)} against ${fmt.ns(n8nLibrary)} (${fmt.ratio(n8nOurs / n8nLibrary)})`;
		lines.push(`${line}.`);
	}
	const five = byId.get('5');
	if (five && !five.error) {
		lines.push(
			`- Case 5: peak RSS ${fmt.mb(metric(five, 'ours', 'peakMb') ?? NaN)} (+${fmt.mb(metric(five, 'ours', 'deltaMb') ?? NaN)} over the idle process) against ${fmt.mb(metric(five, 'httpRequest', 'peakMb') ?? NaN)} (+${fmt.mb(metric(five, 'httpRequest', 'deltaMb') ?? NaN)}) for HTTP Request + Split Out.`,
		);
	}
	return lines;
}

async function main(): Promise<number> {
	const started = Date.now();
	const args = process.argv.slice(2);
	const { selected, runs, full } = parseArgs(args);
	const command = `npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`;
	const workDir = path.join(ROOT, '.tmp', 'bench');
	mkdirSync(workDir, { recursive: true });

	// Other stacks (dev, end-to-end tests, screenshots) may run on this machine at the same time: free ports only.
	const n8nPort = Number(process.env.BENCH_N8N_PORT ?? (await freePort()));
	const brokerPort = await freePort();
	log(`starting the sandbox and n8n (user folder ${path.relative(ROOT, workDir)}/n8n)`);
	const stack = await startStack({
		runtime: 'current',
		userFolder: path.join(workDir, 'n8n'),
		fresh: true,
		n8nPort,
		sandbox: { port: 0, rateLimit: false },
		tarball: process.env.BENCH_TARBALL,
		// Its own task broker port too: every n8n takes 5679 by default.
		n8nEnv: { N8N_RUNNERS_BROKER_PORT: String(brokerPort) },
	});
	log(
		`n8n ${stack.runtime.n8nVersion} (pid ${stack.n8n.pid}) at ${stack.n8n.url}, sandbox at ${stack.sandbox.url}`,
	);

	let stopping: Promise<void> | undefined;
	const stop = (): Promise<void> =>
		(stopping ??= stack.stop().catch((error: unknown) => log(`stopping failed: ${String(error)}`)));
	const onSignal = (signal: NodeJS.Signals): void => {
		log(`${signal}: stopping n8n and the sandbox`);
		void stop().then(() => process.exit(130));
	};
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	const watchdog = setTimeout(() => {
		log(`the whole benchmark took longer than ${GLOBAL_TIMEOUT_MS / 60_000} min: stopping`);
		void stop().then(() => process.exit(2));
	}, GLOBAL_TIMEOUT_MS);

	const ctx: BenchContext = { stack, runs, log };
	const results: CaseResult[] = [];
	try {
		for (const spec of CASES) {
			if (!selected.has(spec.selector)) continue;
			log(`case ${spec.id}: ${spec.title}`);
			await probeN8n(stack);
			const caseStarted = Date.now();
			try {
				const result = await withTimeout(spec.run(ctx), spec.timeoutMs, `case ${spec.id}`);
				results.push({ ...result, durationMs: Date.now() - caseStarted });
			} catch (error) {
				const message =
					error instanceof TimeoutError
						? error.message
						: error instanceof Error
							? (error.stack ?? error.message)
							: String(error);
				log(`case ${spec.id} failed: ${message}`);
				results.push({
					id: spec.id,
					title: spec.title,
					variants: [],
					checks: [
						{
							name: `case ${spec.id} finishes`,
							must: true,
							ok: false,
							detail: message.split('\n')[0],
						},
					],
					notes: [],
					extra: {},
					error: message.split('\n')[0],
					durationMs: Date.now() - caseStarted,
				});
				// A timed-out case may leave n8n busy; make sure it still answers before the next case.
				await probeN8n(stack);
			}
			log(`case ${spec.id} done in ${((Date.now() - caseStarted) / 1000).toFixed(0)} s`);
		}
	} finally {
		clearTimeout(watchdog);
		// n8n and the sandbox stop first, so that nothing below can leave them running.
		await stop();
		const environment = environmentOf(stack, runs, started, command);
		// A packed release's figures never replace this checkout's in bench/.
		const outDir = full && !process.env.BENCH_TARBALL ? path.join(ROOT, 'bench') : workDir;
		const analysis = analysisOf(results);
		writeFileSync(
			path.join(outDir, 'results.json'),
			`${JSON.stringify({ environment, cases: results }, null, 2)}\n`,
		);
		writeFileSync(path.join(outDir, 'RESULTS.md'), renderResults(environment, results, analysis));
		log(`wrote ${path.relative(ROOT, path.join(outDir, 'RESULTS.md'))} and results.json`);
		for (const line of analysis) log(line);
	}

	const failed = results.flatMap((result) =>
		result.checks.filter((check) => check.must && !check.ok),
	);
	for (const result of results) {
		for (const check of result.checks) {
			const verdict = check.must
				? check.ok
					? 'PASS (must)'
					: 'FAIL (must)'
				: check.ok
					? 'observed: yes —'
					: 'observed: no —';
			log(`${verdict} ${check.name}: ${check.detail}`);
		}
	}
	if (failed.length > 0) {
		log(`${failed.length} must(s) failed`);
		return 1;
	}
	log('all musts passed');
	return 0;
}

main()
	.then((code) => process.exit(code))
	.catch((error: unknown) => {
		console.error('[bench]', error instanceof Error ? error.stack : error);
		process.exit(1);
	});

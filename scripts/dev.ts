/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * `npm run dev`: builds the package, starts the sandbox CRM and a real n8n with the package installed and a
 * credential ready, and prints where to open it. Then it rebuilds on save, as `n8n-node dev` does: `tsc --watch`
 * writes into the installed package and n8n (N8N_DEV_RELOAD) reloads it, so an edit shows in the running n8n without
 * a restart. Ctrl-C stops all three.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { installedPackageDir, OWNER } from './lib/n8n';
import { ROOT } from './lib/runtime';
import { startStack } from './lib/stack';
import { confirmReload, startWatchBuild, type WatchBuild } from './lib/watch';
import { seedSummaryLines } from '../test/sandbox/seedSummary';

/** How often `npm run dev`'s sandbox creates, changes or archives a lead (the sandbox's activity switch). */
const DEV_ACTIVITY_MS = /^(off|false|none|0)$/i.test(process.env.SANDBOX_ACTIVITY_MS ?? '')
	? 0
	: Number(process.env.SANDBOX_ACTIVITY_MS ?? 30_000);

async function main(): Promise<void> {
	const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
	if (build.status !== 0) process.exit(build.status ?? 1);

	const n8nPort = Number(process.env.N8N_PORT ?? 5678);
	const sandboxPort = Number(process.env.SANDBOX_PORT ?? 5680);
	const userFolder = path.join(ROOT, '.tmp', 'dev-n8n');
	let watchBuild: WatchBuild | undefined;
	const stack = await startStack({
		runtime: (process.env.N8N_RUNTIME as 'current' | 'compat' | undefined) ?? 'current',
		userFolder,
		fresh: process.argv.includes('--fresh'),
		n8nPort,
		// The activity switch: a lead is created, changed or archived every 30 s, so a polling trigger has news.
		sandbox: {
			port: sandboxPort,
			seedLeads: 25,
			activity: DEV_ACTIVITY_MS > 0 ? { everyMs: DEV_ACTIVITY_MS } : false,
		},
		// n8n watches the packages it loaded and reloads one whose files change (what `n8n-node dev` sets too).
		n8nEnv: { N8N_DEV_RELOAD: 'true' },
		// The watch build writes into the installed package's dist/, where n8n loads it from; its first build (the same
		// files as the packed ones) is done before n8n starts, so that n8n never reads a file tsc is writing.
		beforeN8n: async () => {
			watchBuild = startWatchBuild(
				ROOT,
				path.join(installedPackageDir(userFolder), 'dist'),
				(line) => console.log(`[watch] ${line}`),
			);
			await watchBuild.firstBuild;
		},
	}).catch(async (error: unknown) => {
		await watchBuild?.stop();
		throw error;
	});
	// The stack is announced once n8n's watcher has shown that it reloads the package, so a first save is never missed.
	const reloadMs = await confirmReload(
		path.join(installedPackageDir(userFolder), 'dist'),
		stack.logFile,
	).catch(async (error: unknown) => {
		await watchBuild?.stop();
		await stack.stop();
		throw error;
	});

	console.log(`
  n8n ${stack.runtime.n8nVersion} with n8n-nodes-crm-invoicing is running.

  Open        ${stack.n8n.url}
  Sign in     ${OWNER.email} / ${OWNER.password}
  Credential  "${stack.credentials.admin.name}" points at the sandbox CRM (also: "${stack.credentials.readOnly.name}")

  Sandbox CRM ${stack.sandbox.url}/api/v1   (keys: ${stack.sandbox.keys.admin} · read-only ${stack.sandbox.keys.readOnly})
  Requests it received: ${stack.sandbox.url}/__sandbox/requests
  Seeded ids (the same on every start; the examples in examples/ use them):
${seedSummaryLines(stack.sandbox.state, '    ').join('\n')}
  Activity    ${
		DEV_ACTIVITY_MS > 0
			? `every ${DEV_ACTIVITY_MS / 1000} s the sandbox creates, changes or archives a lead (in turn), so a
              "CRM Invoicing Polling Trigger" has something to show (SANDBOX_ACTIVITY_MS=off to stop it)`
			: 'off (SANDBOX_ACTIVITY_MS)'
	}
  n8n log     ${path.relative(ROOT, stack.logFile)}
  Reload      on save: nodes/ and credentials/ are rebuilt ([watch] lines) and n8n reloads the package within
              seconds (N8N_DEV_RELOAD; its watcher answered in ${(reloadMs / 1000).toFixed(1)} s); an open editor picks
              the change up, reopen the node to see it

  Add a "CRM Invoicing" node to a workflow, or import a file from examples/. Ctrl-C stops everything.
`);

	let stopping = false;
	const stop = async (): Promise<void> => {
		if (stopping) return;
		stopping = true;
		console.log('\nStopping the watch build, n8n and the sandbox…');
		await watchBuild?.stop();
		await stack.stop();
		process.exit(0);
	};
	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});

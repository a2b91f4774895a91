/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * `npm run test:ui`: the journeys a new user clicks through, in the real n8n editor of the dev stack, driven in
 * Debian's chromium (installed with apt-get when missing) by playwright-core. Starts the sandbox CRM and n8n with the
 * packed package on free ports, then runs the jest "ui" project (test/ui/) against them; the tests read the stack's
 * details from the file named by E2E_ENV, as the end-to-end tests do.
 *
 * On failure the tests save what the page showed into .tmp/ui/failures/. The demo (test/ui/demo.ui.test.ts, alone:
 * `npm run demo`) records .tmp/demo/crm-invoicing-demo.webm with Debian's ffmpeg (installed when missing).
 * Environment: UI_N8N_PORT (default: a free port), CHROMIUM_PATH. Extra arguments go to jest.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { E2eEnv } from './e2e';
import { ROOT } from './lib/runtime';
import { ensureChromium, ensureFfmpeg } from './lib/services';
import { startStack, type Stack } from './lib/stack';
import { freePort, runJestProject } from './lib/system';
import { playwrightVideoEnv } from './lib/video';

export interface UiEnv extends E2eEnv {
	chromiumPath: string;
	/** Where a failing test saves screenshots. */
	failureDir: string;
	/** Debian's ffprobe, which reads the demo video back (test/ui/demo.ui.test.ts). */
	ffprobePath: string;
	/** Where the demo video is written. */
	demoVideo: string;
}

/** Stack start-up included; past it everything is stopped and the run fails. */
const OVERALL_TIMEOUT_MS = 15 * 60_000;

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const chromiumPath = ensureChromium();
	// The demo's recording: Playwright encodes with Debian's ffmpeg (set before jest loads playwright-core).
	const { ffmpeg, ffprobe } = ensureFfmpeg();
	Object.assign(process.env, playwrightVideoEnv(ffmpeg));
	const workDir = path.join(ROOT, '.tmp', 'ui');
	const failureDir = path.join(workDir, 'failures');
	rmSync(failureDir, { recursive: true, force: true });
	mkdirSync(failureDir, { recursive: true });

	let stack: Stack | undefined;
	const watchdog = setTimeout(() => {
		console.error(`[ui] gave up after ${OVERALL_TIMEOUT_MS / 60_000} min`);
		void (stack?.stop() ?? Promise.resolve()).finally(() => process.exit(1));
	}, OVERALL_TIMEOUT_MS);
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		process.once(
			signal,
			() => void (stack?.stop() ?? Promise.resolve()).finally(() => process.exit(130)),
		);
	}

	const started = Date.now();
	stack = await startStack({
		runtime: 'current',
		userFolder: path.join(workDir, 'n8n'),
		fresh: true,
		n8nPort: Number(process.env.UI_N8N_PORT ?? (await freePort())),
		// Seeded leads give the From List picker pages to load and search; as `npm run dev` does.
		sandbox: { port: 0, seedLeads: 25, rateLimit: { limit: 600, windowMs: 60_000 } },
	});
	console.log(
		`[ui] n8n ${stack.runtime.n8nVersion} and the sandbox are up in ${((Date.now() - started) / 1000).toFixed(1)} s`,
	);

	const env: UiEnv = {
		runtime: 'current',
		scheduler: false,
		n8nVersion: stack.runtime.n8nVersion,
		n8nUrl: stack.n8n.url,
		n8nApiKey: stack.client.apiKey,
		sandboxUrl: stack.sandbox.url,
		sandboxKeys: stack.sandbox.keys,
		credentials: stack.credentials,
		controlUrl: '',
		logFile: stack.logFile,
		chromiumPath,
		failureDir,
		ffprobePath: ffprobe,
		demoVideo: path.join(ROOT, '.tmp', 'demo', 'crm-invoicing-demo.webm'),
	};
	const envFile = path.join(workDir, 'env.json');
	writeFileSync(envFile, JSON.stringify(env, null, 2));

	const code = await runJestProject('ui', envFile, args);
	clearTimeout(watchdog);
	await stack.stop();
	if (code !== 0)
		console.error(
			`[ui] failed; screenshots: ${path.relative(ROOT, failureDir)}/, n8n's log: ${path.relative(ROOT, stack.logFile)}`,
		);
	process.exit(code);
}

main().catch((error: unknown) => {
	console.error('[ui]', error instanceof Error ? error.stack : error);
	process.exit(1);
});

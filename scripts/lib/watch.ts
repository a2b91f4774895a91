/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * `npm run dev`'s watch build, as `n8n-node dev` does it: `tsc --watch` over the shipped code (tsconfig.json, the
 * build's: nodes/, credentials/ and the codex JSON files) and a copy of each icon that changes. It writes straight
 * into the package n8n loaded (the packed package installed in the user folder), so that n8n's own watcher
 * (N8N_DEV_RELOAD) sees the new files there and reloads the package without a restart.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readFileSync,
	rmSync,
	watch,
	writeFileSync,
	type FSWatcher,
} from 'node:fs';
import path from 'node:path';

import { stopChild } from './system';

export interface WatchBuild {
	/** Resolves after tsc's first build into `outDir` (whatever its errors: tsc reports them and keeps watching). */
	firstBuild: Promise<void>;
	stop(): Promise<void>;
}

/** Icons live beside the sources and are copied as they are (gulpfile.js does the same for `npm run build`). */
const ICON = /\.(svg|png)$/;

/**
 * Starts the watch build of the package in `root` into `outDir` (what `npm run build` writes to dist/). Each line tsc
 * prints goes to `log`: the changes it saw, and any type error with its file and line.
 */
export function startWatchBuild(
	root: string,
	outDir: string,
	log: (line: string) => void,
): WatchBuild {
	const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
	const child: ChildProcess = spawn(
		process.execPath,
		[
			tsc,
			'-p',
			'tsconfig.json',
			'--watch',
			'--preserveWatchOutput',
			'--pretty',
			'false',
			'--outDir',
			outDir,
		],
		{ cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let firstDone: () => void = () => undefined;
	const firstBuild = new Promise<void>((resolve, reject) => {
		firstDone = resolve;
		child.once('exit', (code) => reject(new Error(`tsc --watch exited with code ${code}`)));
	});
	let pending = '';
	const onData = (chunk: Buffer) => {
		const lines = (pending + chunk.toString()).split('\n');
		pending = lines.pop() ?? '';
		// --pretty false: plain lines, no colours.
		for (const line of lines.map((text) => text.trimEnd())) {
			if (!line) continue;
			log(line);
			// "Found 0 errors. Watching for file changes." ends each build.
			if (/Watching for file changes/.test(line)) firstDone();
		}
	};
	child.stdout?.on('data', onData);
	child.stderr?.on('data', onData);

	const watchers: FSWatcher[] = ['nodes', 'credentials']
		.filter((folder) => existsSync(path.join(root, folder)))
		.map((folder) =>
			watch(path.join(root, folder), { recursive: true }, (_event, file) => {
				if (!file || !ICON.test(file)) return;
				const source = path.join(root, folder, file);
				if (!existsSync(source)) return;
				const target = path.join(outDir, folder, file);
				mkdirSync(path.dirname(target), { recursive: true });
				copyFileSync(source, target);
				log(`copied ${path.join(folder, file)}`);
			}),
		);

	return {
		firstBuild,
		async stop() {
			for (const watcher of watchers) watcher.close();
			child.removeAllListeners('exit');
			await stopChild(child, 'SIGTERM', 5_000);
		},
	};
}

/** How n8n logs a reload of the package (load-nodes-and-credentials: `Hot reload triggered for <package>`). */
export const RELOAD_LINE = /Hot reload triggered for n8n-nodes-crm-invoicing/g;

/**
 * Resolves once n8n's watcher has been seen to reload the package: n8n starts its file watcher after it reports
 * ready, without waiting for it (server.ts: `void setupHotReload()`), and on a busy machine it subscribes to its
 * own node folders first; an edit saved before the watch is in place is never reloaded. So a probe file is written
 * into the package's dist/ (a file n8n never loads) every 2 s until n8n's log shows a reload, then removed (n8n
 * ignores deletions). Bounded: after `timeoutMs` it rejects, saying so.
 */
export async function confirmReload(
	outDir: string,
	logFile: string,
	timeoutMs = 120_000,
): Promise<number> {
	const reloads = () =>
		(existsSync(logFile) ? readFileSync(logFile, 'utf8') : '').match(RELOAD_LINE)?.length ?? 0;
	const before = reloads();
	const probe = path.join(outDir, '.dev-reload-probe');
	const started = Date.now();
	try {
		for (let tick = 0; Date.now() - started < timeoutMs; tick++) {
			if (tick % 4 === 0) writeFileSync(probe, `${Date.now()}\n`);
			await new Promise((resolve) => setTimeout(resolve, 500));
			if (reloads() > before) return Date.now() - started;
		}
	} finally {
		rmSync(probe, { force: true });
	}
	throw new Error(
		`n8n did not reload the package within ${timeoutMs / 1000} s of a change to its files (N8N_DEV_RELOAD): see ${logFile}`,
	);
}

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * The suites build once: each script that needs dist/ calls `ensureBuild`, which runs `npm run build` only when dist/
 * is missing or older than a file it is built from. CI builds once (beside n8n's build, which it is compared with),
 * and the end-to-end, queue, editor and scan steps after it reuse that dist/.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from './runtime';

/** What `npm run build` reads: the shipped code and icons, and the files that say how to build them. */
const SOURCES = ['nodes', 'credentials', 'package.json', 'tsconfig.json', 'gulpfile.js'];

/** Bounds the walk: the package has a few hundred files. */
const MAX_FILES = 20_000;

function files(start: string): string[] {
	const found: string[] = [];
	const pending = [start];
	while (pending.length > 0 && found.length < MAX_FILES) {
		const next = pending.pop() as string;
		if (!existsSync(next)) continue;
		if (!statSync(next).isDirectory()) {
			found.push(next);
			continue;
		}
		for (const entry of readdirSync(next)) pending.push(path.join(next, entry));
	}
	return found;
}

/**
 * True when every compiled file in `root`/dist is newer than every source. Only the .js files count: gulp copies the
 * icons with their sources' times.
 */
export function buildIsFresh(root: string = ROOT): boolean {
	const built = files(path.join(root, 'dist')).filter((file) => file.endsWith('.js'));
	if (built.length === 0) return false;
	const oldestBuilt = Math.min(...built.map((file) => statSync(file).mtimeMs));
	const sources = SOURCES.flatMap((source) => files(path.join(root, source)));
	return sources.every((file) => statSync(file).mtimeMs <= oldestBuilt);
}

/** Runs `npm run build` unless dist/ is fresh; exits the process with the build's code when it fails. */
export function ensureBuild(): void {
	if (buildIsFresh()) {
		console.log('[build] dist/ is newer than every source: not built again');
		return;
	}
	const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
	if (build.status !== 0) process.exit(build.status ?? 1);
}

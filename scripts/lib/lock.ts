/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * One process at a time: CI installs the pinned n8n runtimes in the background while other steps run, and a suite
 * that needs a runtime meanwhile waits for that install instead of starting a second one into the same folder.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface LockOptions {
	/** How long to wait for another live process's lock before failing. */
	waitMs: number;
	/** Between two looks at the lock. */
	pollMs?: number;
}

function sleepSync(ms: number): void {
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function holderIsAlive(lockDir: string): boolean {
	let pid = 0;
	try {
		pid = Number(readFileSync(path.join(lockDir, 'pid'), 'utf8'));
	} catch {
		// Taken a moment ago, its pid not written yet.
		return true;
	}
	if (!Number.isInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/**
 * Runs `work` while holding the lock folder `lockDir` (made atomically, holding the holder's pid). Waits while another
 * live process holds it, at most `waitMs`; takes over a lock whose process is gone.
 */
export function withLock<T>(lockDir: string, options: LockOptions, work: () => T): T {
	const giveUpAt = Date.now() + options.waitMs;
	let announced = false;
	for (;;) {
		try {
			mkdirSync(lockDir);
			break;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		}
		if (!holderIsAlive(lockDir)) {
			rmSync(lockDir, { recursive: true, force: true });
			continue;
		}
		if (Date.now() >= giveUpAt)
			throw new Error(`${lockDir} is still held by another process after ${options.waitMs} ms`);
		if (!announced) console.log(`[lock] waiting for another process to release ${lockDir}`);
		announced = true;
		sleepSync(options.pollMs ?? 2_000);
	}
	try {
		writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
		return work();
	} finally {
		rmSync(lockDir, { recursive: true, force: true });
	}
}

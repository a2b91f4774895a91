/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** Small process and network helpers shared by the scripts and benchmarks. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';

import { ROOT } from './runtime';

/** A TCP port nobody listens on right now on 127.0.0.1 (the OS picks it). */
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

/**
 * Fails when something already listens on 127.0.0.1:`port`, naming it: a stack must never run its tests against a
 * process another run left there (or another checkout's run is using). Set the script's port variable to move it.
 */
export function assertPortFree(port: number, what: string): Promise<void> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', (error: NodeJS.ErrnoException) =>
			reject(
				new Error(
					`Port ${port} for ${what} is already in use on 127.0.0.1 (${error.code ?? error.message}): another n8n or test run is listening there. Stop it, or choose another port (E2E_N8N_PORT, UI_N8N_PORT, N8N_PORT).`,
				),
			),
		);
		server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
	});
}

/** Sends `signal` to a child that still runs and waits for it to exit; SIGKILL after `timeoutMs`. */
export async function stopChild(
	child: ChildProcess | undefined,
	signal: NodeJS.Signals,
	timeoutMs = 20_000,
): Promise<void> {
	if (!child || child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise((resolve) => child.once('exit', resolve));
	child.kill(signal);
	const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
	await exited;
	clearTimeout(timer);
}

/**
 * Runs one jest project in band against the running stack, whose details are in `envFile` (read by the tests through
 * E2E_ENV). Resolves with jest's exit code.
 */
export async function runJestProject(
	project: string,
	envFile: string,
	args: string[],
): Promise<number> {
	const jestBin = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
	return await new Promise<number>((resolve) => {
		const child = spawn(
			process.execPath,
			[jestBin, '--selectProjects', project, '--runInBand', '--testTimeout=120000', ...args],
			{
				cwd: ROOT,
				env: { ...process.env, E2E_ENV: envFile },
				stdio: 'inherit',
			},
		);
		child.on('exit', (exitCode) => resolve(exitCode ?? 1));
	});
}

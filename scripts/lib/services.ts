/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * PostgreSQL and Redis from Debian's packages, on loopback, for n8n's queue mode (`npm run test:queue`), and the
 * Debian packages the editor suite and the demo use (chromium, ffmpeg). Installed with apt-get when missing; each
 * server runs in the foreground as a child of the calling script, with its data in a fresh temporary folder, and is
 * stopped by it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
	chownSync,
	createWriteStream,
	existsSync,
	mkdtempSync,
	readdirSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createConnection } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { stopChild } from './system';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function log(message: string): void {
	console.log(`[services] ${message}`);
}

/** The newest PostgreSQL server binaries Debian installed (`/usr/lib/postgresql/<major>/bin`), if any. */
function postgresBinDir(): string | undefined {
	const base = '/usr/lib/postgresql';
	if (!existsSync(base)) return undefined;
	const majors = readdirSync(base)
		.filter((entry) => existsSync(path.join(base, entry, 'bin', 'postgres')))
		.sort((a, b) => Number(b) - Number(a));
	return majors.length > 0 ? path.join(base, majors[0], 'bin') : undefined;
}

function redisServerBin(): string | undefined {
	return ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((candidate) =>
		existsSync(candidate),
	);
}

/**
 * Installs the Debian packages whose `present()` says they are missing (CI starts bare) with apt-get, as root or
 * through `sudo -n`, and fails when one is still missing afterwards.
 */
export function ensureDebianPackages(
	wanted: Array<{ name: string; present: () => boolean }>,
): void {
	const missing = wanted.filter((entry) => !entry.present()).map((entry) => entry.name);
	if (missing.length === 0) return;
	const sudo = isRoot ? [] : ['sudo', '-n'];
	const apt = (args: string[]) => {
		const [command, ...rest] = [...sudo, 'apt-get', ...args];
		log(`${command} ${rest.join(' ')}`);
		const result = spawnSync(command, rest, {
			env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
			encoding: 'utf8',
			maxBuffer: 64 * 1024 * 1024,
			timeout: 15 * 60_000,
		});
		if (result.status !== 0) {
			throw new Error(
				`apt-get ${args.join(' ')} failed (${result.status ?? result.signal}):\n${`${result.stdout}\n${result.stderr}`.slice(-4000)}`,
			);
		}
	};
	const started = Date.now();
	apt(['update', '-q']);
	apt(['install', '-y', '-q', '--no-install-recommends', ...missing]);
	log(`installed ${missing.join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	const still = wanted.filter((entry) => !entry.present()).map((entry) => entry.name);
	if (still.length > 0) throw new Error(`${still.join(', ')} still missing after apt-get install`);
}

const SERVICE_PACKAGES = [
	{ name: 'postgresql', present: () => postgresBinDir() !== undefined },
	{ name: 'redis-server', present: () => redisServerBin() !== undefined },
];

/** Where `command` is on PATH, if it is. */
function onPath(command: string): string | undefined {
	const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
	return found.stdout.trim().split('\n')[0] || undefined;
}

function findChromium(): string | undefined {
	return onPath('chromium') ?? onPath('chromium-browser');
}

const CHROMIUM_PACKAGE = {
	name: 'chromium',
	present: () => process.env.CHROMIUM_PATH !== undefined || findChromium() !== undefined,
};

/** Installs Debian's `postgresql` and `redis-server` when their servers are not on the machine (CI starts bare). */
export function ensureServicePackages(): void {
	ensureDebianPackages(SERVICE_PACKAGES);
}

/** Debian's chromium for the editor tests and screenshots: CHROMIUM_PATH, or the one on PATH, installed when missing. */
export function ensureChromium(): string {
	ensureDebianPackages([CHROMIUM_PACKAGE]);
	return process.env.CHROMIUM_PATH ?? (findChromium() as string);
}

/** Debian's ffmpeg: Playwright's video recording encodes with `ffmpeg`; the demo's check reads with `ffprobe`. */
const FFMPEG_PACKAGE = {
	name: 'ffmpeg',
	present: () => onPath('ffmpeg') !== undefined && onPath('ffprobe') !== undefined,
};

/** Debian's `ffmpeg` and `ffprobe` (the demo video: `npm run demo`, and the editor suite that records it). */
export function ensureFfmpeg(): { ffmpeg: string; ffprobe: string } {
	ensureDebianPackages([FFMPEG_PACKAGE]);
	return { ffmpeg: onPath('ffmpeg') as string, ffprobe: onPath('ffprobe') as string };
}

/** Everything the queue-mode and editor suites need from Debian, in one apt-get run (`scripts/ci-prepare.ts`). */
export function ensureSuitePackages(): void {
	ensureDebianPackages([...SERVICE_PACKAGES, CHROMIUM_PACKAGE, FFMPEG_PACKAGE]);
}

/** Resolves when something accepts TCP connections on 127.0.0.1:port. */
async function waitForPort(
	port: number,
	what: string,
	child: ChildProcess,
	timeoutMs = 60_000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null)
			throw new Error(`${what} exited with code ${child.exitCode} while starting`);
		const open = await new Promise<boolean>((resolve) => {
			const socket = createConnection({ host: '127.0.0.1', port }, () => {
				socket.end();
				resolve(true);
			});
			socket.on('error', () => resolve(false));
		});
		if (open) return;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	throw new Error(`${what} did not listen on port ${port} within ${timeoutMs / 1000} s`);
}

/**
 * The `postgres` user's ids when this script is root (PostgreSQL refuses to run as root), for spawn's uid/gid: the
 * server is then this script's own child, so stopping it stops PostgreSQL (a `runuser` in between would not pass
 * the signal on).
 */
function postgresUser(): { uid: number; gid: number } | undefined {
	if (!isRoot) return undefined;
	const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
	const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
	if (uid.status !== 0 || gid.status !== 0)
		throw new Error("There is no `postgres` user: is Debian's postgresql package installed?");
	return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

export interface PostgresOptions {
	port: number;
	logFile: string;
}

export class PostgresServer {
	readonly user = 'postgres';
	readonly password = 'n8n-queue-test-password';
	readonly database = 'n8n';

	private child: ChildProcess | undefined;
	private dataRoot: string | undefined;

	constructor(readonly options: PostgresOptions) {}

	get port(): number {
		return this.options.port;
	}

	async start(): Promise<void> {
		const bin = postgresBinDir();
		if (!bin) throw new Error('PostgreSQL is not installed (ensureServicePackages first)');
		// A folder the postgres user can reach (the checkout may not be), owned by it.
		this.dataRoot = mkdtempSync(path.join(os.tmpdir(), 'crm-queue-pg-'));
		const dataDir = path.join(this.dataRoot, 'data');
		const passwordFile = path.join(this.dataRoot, 'password');
		writeFileSync(passwordFile, `${this.password}\n`, { mode: 0o600 });
		const user = postgresUser();
		if (user) {
			chownSync(this.dataRoot, user.uid, user.gid);
			chownSync(passwordFile, user.uid, user.gid);
		}
		const asUser = {
			...user,
			cwd: this.dataRoot,
			env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
		};

		const init = spawnSync(
			path.join(bin, 'initdb'),
			[
				'-D',
				dataDir,
				'-U',
				this.user,
				'--pwfile',
				passwordFile,
				'--auth-host=scram-sha-256',
				'--auth-local=peer',
				'-E',
				'UTF8',
				'--no-sync',
			],
			{ ...asUser, encoding: 'utf8' },
		);
		if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);

		const args = [
			'-D',
			dataDir,
			'-p',
			String(this.port),
			'-c',
			'listen_addresses=127.0.0.1',
			'-c',
			`unix_socket_directories=${this.dataRoot}`,
			// A throw-away test database: no need to survive a power cut.
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
		];
		const logStream = createWriteStream(this.options.logFile, { flags: 'a' });
		this.child = spawn(path.join(bin, 'postgres'), args, {
			...asUser,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		this.child.stdout?.pipe(logStream);
		this.child.stderr?.pipe(logStream);
		await waitForPort(this.port, 'PostgreSQL', this.child);
		await this.createDatabase();
		log(
			`PostgreSQL ${path.basename(path.dirname(bin))} on 127.0.0.1:${this.port}, database "${this.database}" (pid ${this.child.pid})`,
		);
	}

	private async createDatabase(): Promise<void> {
		const bin = postgresBinDir() as string;
		const deadline = Date.now() + 30_000;
		for (;;) {
			const result = spawnSync(
				path.join(bin, 'psql'),
				[
					'-h',
					'127.0.0.1',
					'-p',
					String(this.port),
					'-U',
					this.user,
					'-d',
					'postgres',
					'-v',
					'ON_ERROR_STOP=1',
					'-c',
					`CREATE DATABASE ${this.database}`,
				],
				{ env: { ...process.env, PGPASSWORD: this.password }, encoding: 'utf8' },
			);
			if (result.status === 0) return;
			// "the database system is starting up": the port opens a moment before it takes queries.
			if (Date.now() > deadline) throw new Error(`CREATE DATABASE failed: ${result.stderr}`);
			await new Promise((resolve) => setTimeout(resolve, 300));
		}
	}

	/** n8n's settings for this database. */
	n8nEnv(): Record<string, string> {
		return {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(this.port),
			DB_POSTGRESDB_DATABASE: this.database,
			DB_POSTGRESDB_USER: this.user,
			DB_POSTGRESDB_PASSWORD: this.password,
		};
	}

	async stop(): Promise<void> {
		// SIGINT is PostgreSQL's "fast shutdown": ends sessions, writes a checkpoint, exits.
		await stopChild(this.child, 'SIGINT');
		this.child = undefined;
		if (this.dataRoot) rmSync(this.dataRoot, { recursive: true, force: true });
		this.dataRoot = undefined;
	}
}

export class RedisServer {
	private child: ChildProcess | undefined;

	constructor(readonly options: { port: number; logFile: string }) {}

	get port(): number {
		return this.options.port;
	}

	async start(): Promise<void> {
		const bin = redisServerBin();
		if (!bin) throw new Error('Redis is not installed (ensureServicePackages first)');
		const logStream = createWriteStream(this.options.logFile, { flags: 'a' });
		// In memory only, loopback only.
		this.child = spawn(
			bin,
			[
				'--port',
				String(this.port),
				'--bind',
				'127.0.0.1',
				'--save',
				'',
				'--appendonly',
				'no',
				'--daemonize',
				'no',
			],
			{
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		this.child.stdout?.pipe(logStream);
		this.child.stderr?.pipe(logStream);
		await waitForPort(this.port, 'Redis', this.child);
		log(`Redis on 127.0.0.1:${this.port} (pid ${this.child.pid})`);
	}

	n8nEnv(): Record<string, string> {
		return { QUEUE_BULL_REDIS_HOST: '127.0.0.1', QUEUE_BULL_REDIS_PORT: String(this.port) };
	}

	async stop(): Promise<void> {
		await stopChild(this.child, 'SIGTERM');
		this.child = undefined;
	}
}

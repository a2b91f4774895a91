/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** What CI relies on: the end-to-end files per n8n version, the one shared build, and the install lock. */

import { spawnSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	rmSync,
	utimesSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { buildIsFresh } from '../../../scripts/lib/build';
import {
	COMPAT_FILES,
	compatFiles,
	e2eJestArgs,
	LANES,
	laneFiles,
} from '../../../scripts/lib/e2eFiles';
import { withLock } from '../../../scripts/lib/lock';

const ROOT = path.join(__dirname, '..', '..', '..');

describe('the end-to-end files each n8n version runs', () => {
	it('2.41.0 runs the whole suite: jest gets only the arguments given', () => {
		expect(e2eJestArgs('current', [])).toEqual([]);
		expect(e2eJestArgs('current', ['-t', 'lead'])).toEqual(['-t', 'lead']);
	});

	it("the lanes split each version's files: every file in exactly one lane of its version, the polling files also under the scheduler", () => {
		const e2eFiles = readdirSync(path.join(ROOT, 'test', 'e2e'))
			.filter((file) => file.endsWith('.e2e.test.ts'))
			.map((file) => `test/e2e/${file}`);
		const polling = e2eFiles.filter((file) => file.startsWith('test/e2e/polling'));
		const ofLanes = (...lanes: string[]) => lanes.flatMap((lane) => laneFiles(lane)).sort();
		expect(ofLanes('current', 'current 2', 'scheduler')).toEqual([...e2eFiles, ...polling].sort());
		expect(laneFiles('scheduler')).toEqual(expect.arrayContaining(polling));
		expect(ofLanes('compat', 'compat 2')).toEqual([...compatFiles()].sort());
		expect(laneFiles('current 2')).toEqual(LANES['current 2'].files?.map((f) => `test/e2e/${f}`));
		expect(e2eJestArgs('current', ['-t', 'lead'], 'current 2')).toEqual([
			'-t',
			'lead',
			...laneFiles('current 2'),
		]);
		expect(e2eJestArgs('current', ['test/e2e/lead.e2e.test.ts'], 'current 2')).toEqual([
			'test/e2e/lead.e2e.test.ts',
		]);
		expect(e2eJestArgs('scheduler', [])).toEqual(['test/e2e/polling']);
	});

	it('1.123.81 runs the listed files, each an existing end-to-end file with a reason; other arguments stay, files named on the command line replace the list', () => {
		const files = e2eJestArgs('compat', []);
		expect(files).toEqual(compatFiles());
		expect(files.length).toBe(Object.keys(COMPAT_FILES).length);
		for (const file of files) {
			expect(file).toMatch(/^test\/e2e\/[\w-]+\.e2e\.test\.ts$/);
			expect(existsSync(path.join(ROOT, file))).toBe(true);
		}
		for (const reason of Object.values(COMPAT_FILES)) expect(reason.length).toBeGreaterThan(20);
		expect(e2eJestArgs('compat', ['-t', 'restart'])).toEqual(['-t', 'restart', ...compatFiles()]);
		expect(e2eJestArgs('compat', ['test/e2e/lead.e2e.test.ts'])).toEqual([
			'test/e2e/lead.e2e.test.ts',
		]);
	});

	it("a file that 1.123.81's list or a lane names but does not exist fails the run instead of being dropped", () => {
		const empty = mkdtempSync(path.join(tmpdir(), 'crm-lists-'));
		mkdirSync(path.join(empty, 'test', 'e2e'), { recursive: true });
		try {
			expect(() => compatFiles(empty)).toThrow(/COMPAT_FILES names files that do not exist/);
			expect(() => laneFiles('current 2', empty)).toThrow(
				/Lane "current 2" names files that do not exist/,
			);
		} finally {
			rmSync(empty, { recursive: true, force: true });
		}
	});
});

describe('one build for every suite', () => {
	let root: string;
	const at = (file: string, seconds: number) => {
		mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
		writeFileSync(path.join(root, file), 'x');
		utimesSync(path.join(root, file), seconds, seconds);
	};

	beforeEach(() => {
		root = mkdtempSync(path.join(tmpdir(), 'crm-build-'));
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	it('is missing until dist/ holds compiled code', () => {
		at('nodes/A/A.node.ts', 1_000);
		expect(buildIsFresh(root)).toBe(false);
		at('dist/nodes/A/icon.svg', 2_000);
		expect(buildIsFresh(root)).toBe(false);
	});

	it('is fresh when every compiled file is newer than every source; an icon copied with its old time does not count', () => {
		at('nodes/A/A.node.ts', 1_000);
		at('nodes/A/icon.svg', 1_000);
		at('package.json', 1_000);
		at('dist/nodes/A/A.node.js', 2_000);
		at('dist/nodes/A/icon.svg', 1_000);
		expect(buildIsFresh(root)).toBe(true);
	});

	it('is stale once a source, an icon or the build configuration is newer than the build', () => {
		at('dist/nodes/A/A.node.js', 2_000);
		for (const source of ['nodes/A/A.node.ts', 'credentials/icon.svg', 'tsconfig.json']) {
			at(source, 3_000);
			expect(buildIsFresh(root)).toBe(false);
			at(source, 1_000);
			expect(buildIsFresh(root)).toBe(true);
		}
	});
});

describe('the install lock', () => {
	let lockDir: string;

	beforeEach(() => {
		lockDir = path.join(mkdtempSync(path.join(tmpdir(), 'crm-lock-')), 'lock');
	});
	afterEach(() => rmSync(path.dirname(lockDir), { recursive: true, force: true }));

	it('runs the work while holding the lock, and releases it, also when the work fails', () => {
		expect(withLock(lockDir, { waitMs: 1_000 }, () => existsSync(lockDir))).toBe(true);
		expect(existsSync(lockDir)).toBe(false);
		const failing = () => {
			throw new Error('install failed');
		};
		expect(() => withLock(lockDir, { waitMs: 1_000 }, failing)).toThrow('install failed');
		expect(existsSync(lockDir)).toBe(false);
	});

	it('takes over a lock whose process is gone', () => {
		const gone = spawnSync(process.execPath, ['-e', '']).pid as number;
		mkdirSync(lockDir);
		writeFileSync(path.join(lockDir, 'pid'), String(gone));
		expect(withLock(lockDir, { waitMs: 1_000 }, () => 'installed')).toBe('installed');
	});

	it("waits for a live process's lock, at most waitMs, then fails naming it", () => {
		mkdirSync(lockDir);
		writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
		expect(() => withLock(lockDir, { waitMs: 200, pollMs: 20 }, () => 'never')).toThrow(
			/still held by another process after 200 ms/,
		);
		expect(existsSync(lockDir)).toBe(true);
	});
});

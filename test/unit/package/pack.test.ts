/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** What `npm publish` would upload: what n8n needs to load the package, nothing else. Builds dist/ first when stale. */

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { buildIsFresh } from '../../../scripts/lib/build';

const ROOT = path.join(__dirname, '..', '..', '..');

interface PackFile {
	path: string;
	size: number;
}

interface PackageJson {
	main?: string;
	files: string[];
	dependencies?: Record<string, string>;
	n8n: { nodes: string[]; credentials: string[] };
}

function run(command: string, args: string[]): string {
	const result = spawnSync(command, args, {
		cwd: ROOT,
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
		timeout: 180_000,
	});
	if (result.status !== 0)
		throw new Error(
			`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stderr}`,
		);
	return result.stdout;
}

/** Every TypeScript file under dir, relative to ROOT, with / separators. */
function sourcesUnder(dir: string): string[] {
	const names = readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' });
	const sources = names.filter((name) => name.endsWith('.ts'));
	return sources.map((name) => `${dir}/${name.split(path.sep).join('/')}`);
}

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as PackageJson;
let files: string[] = [];

beforeAll(() => {
	if (!buildIsFresh()) run('npm', ['run', 'build', '--silent']);
	const output = run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts']);
	const [packed] = JSON.parse(output.slice(output.indexOf('['))) as Array<{ files: PackFile[] }>;
	files = packed.files.map((file) => file.path).sort();
}, 200_000);

describe('the packed tarball', () => {
	it('holds dist/, README.md, LICENSE and package.json, and nothing else', () => {
		const top = ['LICENSE', 'README.md', 'package.json'];
		expect(files).toEqual(expect.arrayContaining(top));
		expect(files.filter((file) => !file.startsWith('dist/') && !top.includes(file))).toEqual([]);
		expect(pkg.files).toEqual(['dist']);
		// n8n reads package.json's "n8n" section; a "main" would be one more file to ship for nothing.
		expect(pkg.main).toBeUndefined();
		expect(pkg.dependencies ?? {}).toEqual({});
	});

	it('holds no tests, sandbox, scripts, TypeScript sources or source maps', () => {
		const unwanted =
			/(^|\/)(test|tests|__tests__|sandbox|scripts|bench|examples|runtime|\.tmp)\/|\.test\.|\.spec\.|(?<!\.d)\.ts$/;
		expect(files.filter((file) => unwanted.test(file))).toEqual([]);
		// A map's "sources" name TypeScript files the tarball does not hold: none are shipped.
		expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
		const mappingComments = files
			.filter((file) => file.endsWith('.js'))
			.filter((file) =>
				/\/\/# sourceMappingURL=(?!data:)/.test(readFileSync(path.join(ROOT, file), 'utf8')),
			);
		expect(mappingComments).toEqual([]);
	});

	it('holds every node and credential package.json names, with its codex file and icons', () => {
		for (const entry of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) expect(files).toContain(entry);
		for (const node of pkg.n8n.nodes) expect(files).toContain(node.replace(/\.js$/, '.json'));
		for (const entry of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
			const source = readFileSync(path.join(ROOT, entry), 'utf8');
			const icons = [...source.matchAll(/file:([\w./-]+\.(?:svg|png))/g)].map((match) =>
				path.posix.join(path.posix.dirname(entry), match[1]),
			);
			expect({ entry, icons: icons.length > 0 }).toEqual({ entry, icons: true });
			for (const icon of icons) expect(files).toContain(icon);
		}
	});

	it('holds a compiled file for every source file and none for a source that no longer exists', () => {
		const sources = [...sourcesUnder('nodes'), ...sourcesUnder('credentials')];
		const compiled = files.filter((file) => file.endsWith('.js'));
		expect(compiled.sort()).toEqual(
			sources.map((file) => `dist/${file.replace(/\.ts$/, '.js')}`).sort(),
		);
	});
});

/**
 * `npm run lint:n8n`: n8n's own `n8n-node lint` (@n8n/node-cli) on the package as it is published.
 *
 * `n8n-node lint` runs ESLint on the whole folder with n8n's default configuration and, for a package marked
 * `"strict": true`, first checks that eslint.config.mjs is exactly n8n's default. This repository's eslint.config.mjs
 * also has to keep tests, scripts and the sandbox out of the community rules, so the check runs in a staging folder
 * (.tmp/n8n-node-lint) that holds what n8n's tooling looks at: package.json, tsconfig.json, nodes/, credentials/ and
 * n8n's default eslint.config.mjs (copied from @n8n/node-cli's own template), with the node_modules of
 * tools/n8n-node-cli: the CLI is installed there (from its own lockfile, on first use) rather than among the package's
 * devDependencies, because its resolver needs an `overrides` entry that n8n's rules forbid in the published package.json.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from './lib/runtime';

const STAGE = path.join(ROOT, '.tmp', 'n8n-node-lint');
const TOOL = path.join(ROOT, 'tools', 'n8n-node-cli');
const TEMPLATE = path.join(
	TOOL,
	'node_modules',
	'@n8n',
	'node-cli',
	'dist',
	'template',
	'templates',
	'shared',
	'default',
	'eslint.config.mjs',
);
const bin = path.join(TOOL, 'node_modules', '.bin', 'n8n-node');

if (!existsSync(bin)) {
	console.log(
		'[lint:n8n] installing @n8n/node-cli into tools/n8n-node-cli (npm ci, from its lockfile)',
	);
	const install = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
		cwd: TOOL,
		stdio: 'inherit',
		timeout: 10 * 60_000,
	});
	if (install.status !== 0) {
		console.error('[lint:n8n] npm ci in tools/n8n-node-cli failed');
		process.exit(1);
	}
}

rmSync(STAGE, { recursive: true, force: true });
mkdirSync(STAGE, { recursive: true });
for (const entry of ['package.json', 'tsconfig.json', 'nodes', 'credentials'])
	cpSync(path.join(ROOT, entry), path.join(STAGE, entry), { recursive: true });
cpSync(TEMPLATE, path.join(STAGE, 'eslint.config.mjs'));
symlinkSync(path.join(TOOL, 'node_modules'), path.join(STAGE, 'node_modules'), 'dir');

const result = spawnSync(bin, ['lint'], { cwd: STAGE, encoding: 'utf8', timeout: 5 * 60_000 });
process.stdout.write(result.stdout ?? '');
process.stderr.write(result.stderr ?? '');
// n8n-node lint prints ESLint's findings and exits non-zero when there are any; a strict-mode violation is only printed.
const output = `${result.stdout}\n${result.stderr}`;
const failed = result.status !== 0 || /Strict mode violation|\d+ problems? \(/.test(output);
console.log(
	failed ? '[lint:n8n] n8n-node lint found problems' : '[lint:n8n] n8n-node lint: no problems',
);
process.exit(failed ? 1 : 0);

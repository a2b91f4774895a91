/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * `npm run scan`: the check n8n runs before it lists a community package, done locally and without a registry.
 * Packs the package, then lints the unpacked tarball (`**\/*.js`, `package.json`) and the source (`package.json`,
 * `{nodes,credentials}/**\/*.{js,ts,json}`) with the configuration of `@n8n/scan-community-package` itself
 * (its `buildScanConfig`, its own versions of both rule sets). Passes only with 0 errors and 0 warnings.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { ensureBuild } from './lib/build';
import { ROOT } from './lib/runtime';

interface LintResult {
	filePath: string;
	errorCount: number;
	warningCount: number;
	messages: Array<{
		line: number;
		column: number;
		ruleId: string | null;
		message: string;
		severity: number;
	}>;
}

async function main(): Promise<void> {
	const scannerDir = path.join(ROOT, 'node_modules', '@n8n', 'scan-community-package', 'scanner');
	const scanner = await import(pathToFileURL(path.join(scannerDir, 'scanner.mjs')).href);
	// The scanner's own ESLint, so the rules run exactly as in n8n's scan.
	const { ESLint } = require(
		require.resolve('eslint', { paths: [scannerDir] }),
	) as typeof import('eslint');

	ensureBuild();

	const work = mkdtempSync(path.join(tmpdir(), 'crm-scan-'));
	const pack = spawnSync('npm', ['pack', '--pack-destination', work, '--loglevel=error'], {
		cwd: ROOT,
		encoding: 'utf8',
	});
	if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
	const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'));
	const unpacked = path.join(work, 'package');
	mkdirSync(unpacked);
	spawnSync(
		'tar',
		['-xzf', path.join(work, tarball ?? ''), '-C', unpacked, '--strip-components=1'],
		{ stdio: 'inherit' },
	);

	const legs: Array<{ name: string; dir: string; patterns: string[]; ignore: string[] }> = [
		{ name: 'published tarball', dir: unpacked, patterns: ['**/*.js', 'package.json'], ignore: [] },
		{
			name: 'source',
			dir: ROOT,
			patterns: scanner.SOURCE_FILE_PATTERNS as string[],
			ignore: ['dist/**', 'runtime/**', '.tmp/**'],
		},
	];

	let errors = 0;
	let warnings = 0;
	for (const leg of legs) {
		const eslint = new ESLint({
			cwd: leg.dir,
			allowInlineConfig: false,
			overrideConfigFile: true,
			overrideConfig: await scanner.buildScanConfig(),
		});
		const fastGlob = require(require.resolve('fast-glob', { paths: [scannerDir] })) as {
			sync: (p: string[], o: object) => string[];
		};
		const files = fastGlob.sync(leg.patterns, {
			cwd: leg.dir,
			absolute: true,
			ignore: ['node_modules/**', '**/package-lock.json', ...leg.ignore],
		});
		const results = (await eslint.lintFiles(files)) as LintResult[];
		const legErrors = results.reduce((sum, result) => sum + result.errorCount, 0);
		const legWarnings = results.reduce((sum, result) => sum + result.warningCount, 0);
		errors += legErrors;
		warnings += legWarnings;
		console.log(
			`scan ${leg.name}: ${files.length} files, ${legErrors} errors, ${legWarnings} warnings`,
		);
		const formatter = await eslint.loadFormatter('stylish');
		const text = await formatter.format(results as never);
		if (text.trim()) console.log(text);
	}
	rmSync(work, { recursive: true, force: true });

	console.log(
		`scan: ${errors === 0 && warnings === 0 ? 'passed' : 'FAILED'} (${errors} errors, ${warnings} warnings)`,
	);
	process.exit(errors === 0 && warnings === 0 ? 0 : 1);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});

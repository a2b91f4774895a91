/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** The CHANGELOG's newest release is package.json's version; releases newest first, each once. */

import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..', '..');
const HEADING = /^## (\d+)\.(\d+)\.(\d+) \((unreleased|\d{4}-\d{2}-\d{2})[^)]*\)/;

function releases(): Array<{ version: [number, number, number]; line: string }> {
	return readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8')
		.split('\n')
		.filter((line) => line.startsWith('## '))
		.map((line) => {
			const match = HEADING.exec(line);
			if (!match)
				throw new Error(
					`CHANGELOG heading "${line}" is not "## X.Y.Z (YYYY-MM-DD or unreleased): …"`,
				);
			return { version: [Number(match[1]), Number(match[2]), Number(match[3])], line };
		});
}

const compare = (a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

describe('CHANGELOG.md', () => {
	it('its newest release is the version in package.json', () => {
		const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
			version: string;
		};
		expect(releases()[0].version.join('.')).toBe(version);
	});

	it('lists its releases newest first, each version once, only the newest possibly unreleased', () => {
		const list = releases();
		expect(list.length).toBeGreaterThanOrEqual(4);
		const versions = list.map((release) => release.version.join('.'));
		expect(new Set(versions).size).toBe(versions.length);
		expect(list).toEqual([...list].sort((a, b) => compare(b.version, a.version)));
		expect(list.slice(1).filter((release) => release.line.includes('(unreleased'))).toEqual([]);
	});
});

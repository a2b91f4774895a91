/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** The register of spec choices (test/fixtures/specChoices.ts) and docs/spec-choices.md agree, and name real code. */

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { SPEC_CHOICES } from '../../fixtures/specChoices';

const ROOT = path.join(__dirname, '..', '..', '..');
const TABLE_FILE = path.join(ROOT, 'docs', 'spec-choices.md');

interface Row {
	id: string;
	section: string;
}

/** The rows of the table whose first column is an id in backticks, e.g. | `lead-patch-response` | §4 PATCH … |. */
function tableRows(markdown: string): Row[] {
	const rows: Row[] = [];
	for (const line of markdown.split('\n')) {
		const match = /^\|\s*`([a-z0-9-]+)`\s*\|([^|]*)\|/.exec(line);
		if (match) rows.push({ id: match[1], section: match[2].trim() });
	}
	return rows;
}

const rows = tableRows(readFileSync(TABLE_FILE, 'utf8'));

describe('the register of spec choices', () => {
	it('has unique ids, each with a section, a summary and at least one function that applies it', () => {
		const ids = SPEC_CHOICES.map((choice) => choice.id);
		expect(new Set(ids).size).toBe(ids.length);
		for (const choice of SPEC_CHOICES) {
			expect(choice.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
			expect(choice.section).toMatch(/^§\d/);
			expect(choice.summary.length).toBeGreaterThan(20);
			expect(choice.appliedBy.length).toBeGreaterThan(0);
		}
	});

	it('matches the table of docs/spec-choices.md in both directions, by id and section', () => {
		// The register's ids are unique (above): a row repeated in the table makes the lists differ.
		const byId = (a: Row, b: Row) => a.id.localeCompare(b.id);
		const register = SPEC_CHOICES.map(({ id, section }) => ({ id, section }));
		expect(rows.length).toBeGreaterThan(0);
		expect([...rows].sort(byId)).toEqual(register.sort(byId));
	});

	it('names, for each choice, functions or constants that exist in the files it names', () => {
		const missing: string[] = [];
		for (const choice of SPEC_CHOICES) {
			for (const reference of choice.appliedBy) {
				const [file, name] = reference.split('#');
				const full = path.join(ROOT, file);
				if (!name || !existsSync(full)) {
					missing.push(`${choice.id}: ${reference} (no such file)`);
					continue;
				}
				const defined = new RegExp(`\\b(function\\*?|class|const|let)\\s+${name}\\b`).test(
					readFileSync(full, 'utf8'),
				);
				if (!defined) missing.push(`${choice.id}: ${reference} (not defined there)`);
			}
		}
		expect(missing).toEqual([]);
	});

	it('keeps the values it names in the register itself, not duplicated in the code that applies them', () => {
		// The subscription-status pattern and the secret pattern used to be written out where they were applied.
		const subscription = readFileSync(
			path.join(ROOT, 'nodes/CrmInvoicing/trigger/subscription.ts'),
			'utf8',
		);
		expect(subscription).toContain('INACTIVE_SUBSCRIPTION_STATUS');
		expect(subscription).not.toMatch(/disabled\|inactive/);
		const shared = readFileSync(
			path.join(ROOT, 'nodes/CrmInvoicing/actions/webhook/shared.ts'),
			'utf8',
		);
		expect(shared).toContain('SECRET_KEY_PATTERN');
		expect(shared).not.toMatch(/\/secret\/i/);
	});
});

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** The polling trigger as n8n loads it: registration, codex, parameters, and the cost notice next to Updated/Archived. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import fc from 'fast-check';
import { NodeHelpers } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { CrmInvoicingPollingTrigger } from '../../../nodes/CrmInvoicing/CrmInvoicingPollingTrigger.node';
import { POLLING, pollBudget } from '../../../nodes/CrmInvoicing/polling/budget';
import {
	changedFields,
	decodePrint,
	encodePrint,
	fingerprint,
	OTHER_FIELDS,
	stableJson,
} from '../../../nodes/CrmInvoicing/polling/leads';

const ROOT = join(__dirname, '..', '..', '..');
const description = new CrmInvoicingPollingTrigger().description;
const property = (name: string) =>
	description.properties.find((candidate) => candidate.name === name);

it('is a polling trigger with the package credential, registered in package.json with its codex (pack.test checks its icons)', () => {
	expect(description).toMatchObject({
		name: 'crmInvoicingPollingTrigger',
		polling: true,
		group: ['trigger'],
		inputs: [],
		credentials: [{ name: 'crmInvoicingApi', required: true }],
	});
	const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
	expect(pkg.n8n.nodes).toContain('dist/nodes/CrmInvoicing/CrmInvoicingPollingTrigger.node.js');
	const codexFile = join(ROOT, 'nodes', 'CrmInvoicing', 'CrmInvoicingPollingTrigger.node.json');
	const codex = JSON.parse(readFileSync(codexFile, 'utf8'));
	expect(codex.node).toBe('n8n-nodes-crm-invoicing.crmInvoicingPollingTrigger');
});

describe('parameters', () => {
	it("offers the three events (New Lead by default), the action node's Simplify switch, the backfill option (off) and the Full Read Interval (60 minutes, 1 to 1440)", () => {
		const events = property('events')!;
		expect(events.default).toEqual(['newLead']);
		const values = (events.options as Array<{ value: string }>).map((option) => option.value);
		expect(values.sort()).toEqual(['archivedLead', 'newLead', 'updatedLead']);
		expect(property('simplify')).toMatchObject({
			displayName: 'Simplify',
			type: 'boolean',
			default: true,
			description: 'Whether to return a simplified version of the response instead of the raw data',
		});
		const options = property('options')!.options as Array<{ name: string; default: unknown }>;
		expect(options).toEqual([
			expect.objectContaining({ name: 'includeExisting', default: false }),
			expect.objectContaining({
				name: 'fullReadInterval',
				type: 'number',
				default: POLLING.fullReadMinutes,
				typeOptions: { minValue: 1, maxValue: 1440 },
			}),
		]);
	});

	it('shows the cost of Updated and Archived next to them, and only then', () => {
		const notice = property('costNotice')!;
		expect(notice.displayName).toMatch(/one request per 100 leads/);
		const shown = (events: string[]) =>
			NodeHelpers.displayParameter(
				{ events, simplify: true, options: {} },
				notice,
				{ typeVersion: 1 } as never,
				description,
			);
		expect(shown(['newLead'])).toBe(false);
		expect(shown(['newLead', 'updatedLead'])).toBe(true);
		expect(shown(['archivedLead'])).toBe(true);
	});
});

// Half the key's rate, rounded down, for each whole minute of n8n's time budget for a poll: n8n 1.x gives none (its
// PollContext's own 5 minutes), n8n 2.41's scheduler 36 s (one minute's share). A rate of 1 leaves none (the poll
// refuses such a credential, poll.test.ts).
it.each([
	[60, undefined, { share: 30, pages: 150 }],
	[60, 10 * 60_000, { share: 30, pages: 300 }],
	[60, 36_000, { share: 30, pages: 30 }],
	[60, 0, { share: 30, pages: 150 }],
	[2, undefined, { share: 1, pages: 5 }],
	[1, undefined, { share: 0, pages: 0 }],
])(
	'the request budget (budget.ts) at %p requests a minute, a budget of %p ms: %p',
	(rate, budgetMs, expected) => {
		expect(pollBudget(rate, budgetMs)).toMatchObject(expected);
	},
);

describe('fingerprints', () => {
	const lead = {
		id: 'lead_1',
		number: 'L-1',
		name: 'Ada',
		archived: false,
		createdAt: '2026-01-01T00:00:00Z',
		customFields: { b: 1, a: 2 },
	};

	it('are short, stable under key order, and name the changed fields', () => {
		const fields: string[] = [];
		const before = fingerprint(lead, fields);
		expect(encodePrint(before).length).toBe(9 + 2 * 5);
		expect(decodePrint(encodePrint(before))).toEqual(before);
		expect(fingerprint({ ...lead, customFields: { a: 2, b: 1 } }, fields)).toEqual(before);
		const after = fingerprint({ ...lead, name: 'Ada L.', archived: true }, fields);
		expect(after.state).toBe('archived');
		expect(after.whole).not.toBe(before.whole);
		expect(changedFields(before, after, fields).sort()).toEqual(['archived', 'name']);
		const added = fingerprint({ ...lead, title: 'CTO' }, fields);
		expect(changedFields(before, added, fields)).toEqual(['title']);
		expect(stableJson({ b: [1, { d: 1, c: 2 }], a: null }, 3)).toBe(
			'{"a":null,"b":[1,{"c":2,"d":1}]}',
		);
	});

	it('stableJson writes what the recursive form wrote (so fingerprints stay those of earlier versions)', () => {
		const recursive = (value: unknown): string => {
			if (value === undefined) return 'undefined';
			if (value === null || typeof value !== 'object') return JSON.stringify(value);
			if (Array.isArray(value)) return `[${value.map(recursive).join(',')}]`;
			const record = value as Record<string, unknown>;
			return `{${Object.keys(record)
				.sort()
				.map((key) => `${JSON.stringify(key)}:${recursive(record[key])}`)
				.join(',')}}`;
		};
		fc.assert(
			fc.property(
				fc.jsonValue({ maxDepth: 8 }),
				(value) => stableJson(value, 10) === recursive(value),
			),
			{ numRuns: 500 },
		);
		expect(stableJson([undefined, { a: undefined }], 2)).toBe(
			recursive([undefined, { a: undefined }]),
		);
	});

	it('stableJson and fingerprints take any nesting JSON.parse accepts (200,000 levels): past the bound a lead is unreadable, named by its field, and remembered the same however it changes deep down', () => {
		const depth = 200_000;
		const deep = (bottom: string): IDataObject =>
			JSON.parse(
				`{"id":"lead_d","customFields":{"x":${'['.repeat(depth)}"${bottom}"${']'.repeat(depth)}}}`,
			);
		expect(stableJson(deep('a'), POLLING.maxEmitDepth)).toBeUndefined();
		const fields: string[] = [];
		const one = fingerprint(deep('a'), fields);
		expect(one).toMatchObject({ state: 'unreadable', deep: 'customFields' });
		expect(encodePrint(fingerprint(deep('b'), fields))).toBe(encodePrint(one));
		// The first field nested past the limit is named (the record is level 1).
		const nested = (levels: number): IDataObject[] =>
			JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`);
		const atLimit = { id: 'x', a: nested(POLLING.maxEmitDepth - 1) };
		expect(fingerprint(atLimit, []).state).toBe('live');
		const past = {
			id: 'x',
			a: 1,
			b: nested(POLLING.maxEmitDepth),
			c: nested(POLLING.maxEmitDepth),
		};
		expect(fingerprint(past, []).deep).toBe('b');
	});

	it(`give at most ${POLLING.maxFieldSlots} field slots; further keys share one`, () => {
		const fields: string[] = [];
		const wide = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, i]));
		const before = fingerprint({ id: 'x', ...wide }, fields);
		expect(fields).toHaveLength(POLLING.maxFieldSlots);
		expect(fields.at(-1)).toBe(OTHER_FIELDS);
		const after = fingerprint({ id: 'x', ...wide, k55: 'changed' }, fields);
		expect(changedFields(before, after, fields)).toEqual([OTHER_FIELDS]);
	});
});

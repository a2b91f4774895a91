/** The polling trigger as n8n loads it: registration, codex, parameters, and the cost notice next to Updated/Archived. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { NodeHelpers } from 'n8n-workflow';

import { CrmInvoicingPollingTrigger } from '../../../nodes/CrmInvoicingPollingTrigger/CrmInvoicingPollingTrigger.node';
import { cronPollsPerMinute, pollBudget, pollsPerMinute } from '../../../nodes/CrmInvoicingPollingTrigger/budget';
import { changedFields, fingerprint, OTHER_FIELDS, POLLING, stableJson } from '../../../nodes/CrmInvoicingPollingTrigger/memory';

const ROOT = join(__dirname, '..', '..', '..');
const description = new CrmInvoicingPollingTrigger().description;
const property = (name: string) => description.properties.find((candidate) => candidate.name === name);

describe('registration', () => {
	it('is a polling trigger with the package credential, registered in package.json with its codex and icons', () => {
		expect(description).toMatchObject({ name: 'crmInvoicingPollingTrigger', polling: true, group: ['trigger'], inputs: [], credentials: [{ name: 'crmInvoicingApi', required: true }] });
		const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
		expect(pkg.n8n.nodes).toContain('dist/nodes/CrmInvoicingPollingTrigger/CrmInvoicingPollingTrigger.node.js');
		const folder = join(ROOT, 'nodes', 'CrmInvoicingPollingTrigger');
		const codex = JSON.parse(readFileSync(join(folder, 'CrmInvoicingPollingTrigger.node.json'), 'utf8'));
		expect(codex.node).toBe('n8n-nodes-crm-invoicing.crmInvoicingPollingTrigger');
		const icon = description.icon as { light: string; dark: string };
		for (const file of [icon.light, icon.dark]) expect(existsSync(join(folder, file.replace('file:', '')))).toBe(true);
	});
});

describe('parameters', () => {
	it('offers the three events, New Lead by default', () => {
		const events = property('events')!;
		expect(events.default).toEqual(['newLead']);
		expect((events.options as Array<{ value: string }>).map((option) => option.value).sort()).toEqual(['archivedLead', 'newLead', 'updatedLead']);
	});

	it('has the action node\'s Simplify switch', () => {
		expect(property('simplify')).toMatchObject({
			displayName: 'Simplify',
			type: 'boolean',
			default: true,
			description: 'Whether to return a simplified version of the response instead of the raw data',
		});
	});

	it('shows the cost of Updated and Archived next to them, and only then', () => {
		const notice = property('costNotice')!;
		expect(notice.displayName).toMatch(/one request per 100 leads/);
		const shown = (events: string[]) =>
			NodeHelpers.displayParameter({ events, simplify: true, options: {} }, notice, { typeVersion: 1 } as never, description);
		expect(shown(['newLead'])).toBe(false);
		expect(shown(['newLead', 'updatedLead'])).toBe(true);
		expect(shown(['archivedLead'])).toBe(true);
	});

	it('has the backfill option, off by default', () => {
		const options = property('options')!.options as Array<{ name: string; default: unknown }>;
		expect(options).toEqual([expect.objectContaining({ name: 'includeExisting', default: false })]);
	});
});

describe('poll times and the request budget', () => {
	it('counts polls per minute for n8n\'s poll modes and custom crons', () => {
		expect(pollsPerMinute({ item: [{ mode: 'everyMinute' }] })).toBe(1);
		expect(pollsPerMinute({ item: [{ mode: 'everyX', value: 5, unit: 'minutes' }] })).toBeCloseTo(0.2);
		expect(pollsPerMinute({ item: [{ mode: 'everyHour' }] })).toBeCloseTo(1 / 60);
		expect(pollsPerMinute({ item: [0, 10, 20, 30, 40, 50].map((second) => ({ mode: 'custom', cronExpression: `${second} * * * * *` })) })).toBe(6);
		expect(cronPollsPerMinute('*/15 * * * *')).toBeCloseTo(1 / 15);
		expect(cronPollsPerMinute('0 9 * * 1-5')).toBeCloseTo(1 / 1440);
		expect(pollsPerMinute({ item: [{ mode: 'custom', cronExpression: 'not a cron' }] })).toBe(1);
		expect(pollsPerMinute(undefined)).toBe(1);
	});

	it('allows the rate per poll, bounded by n8n\'s time budget for one poll', () => {
		expect(pollBudget(60, 1).requestsPerPoll).toBe(60);
		expect(pollBudget(60, 6).requestsPerPoll).toBe(10);
		expect(pollBudget(60, 1 / 10).requestsPerPoll).toBe(600);
		expect(pollBudget(60, 1 / 10, 5 * 60_000).requestsPerPoll).toBe(300);
	});
});

describe('fingerprints', () => {
	const lead = { id: 'lead_1', number: 'L-1', name: 'Ada', archived: false, createdAt: '2026-01-01T00:00:00Z', customFields: { b: 1, a: 2 } };

	it('are short, stable under key order, and name the changed fields', () => {
		const fields: string[] = [];
		const before = fingerprint(lead, fields);
		expect(before.length).toBe(9 + 2 * 5);
		expect(fingerprint({ ...lead, customFields: { a: 2, b: 1 } }, fields)).toBe(before);
		const after = fingerprint({ ...lead, name: 'Ada L.', archived: true }, fields);
		expect(after[0]).toBe('a');
		expect(changedFields(before, after, fields).sort()).toEqual(['archived', 'name']);
		const added = fingerprint({ ...lead, title: 'CTO' }, fields);
		expect(changedFields(before, added, fields)).toEqual(['title']);
		expect(stableJson({ b: [1, { d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[1,{"c":2,"d":1}]}');
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

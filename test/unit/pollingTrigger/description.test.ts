/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** The polling trigger as n8n loads it: registration, codex, parameters, and the cost notice next to Updated/Archived. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import fc from 'fast-check';
import { NodeHelpers } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { CrmInvoicingPollingTrigger } from '../../../nodes/CrmInvoicing/CrmInvoicingPollingTrigger.node';
import { pollBudget, pollSchedule } from '../../../nodes/CrmInvoicing/polling/budget';
import { POLLING } from '../../../nodes/CrmInvoicing/polling/budget';
import {
	changedFields,
	decodePrint,
	encodePrint,
	fieldTooDeep,
	fingerprint,
	OTHER_FIELDS,
	stableJson,
} from '../../../nodes/CrmInvoicing/polling/leads';

const ROOT = join(__dirname, '..', '..', '..');
const description = new CrmInvoicingPollingTrigger().description;
const property = (name: string) =>
	description.properties.find((candidate) => candidate.name === name);

describe('registration', () => {
	it('is a polling trigger with the package credential, registered in package.json with its codex and icons', () => {
		expect(description).toMatchObject({
			name: 'crmInvoicingPollingTrigger',
			polling: true,
			group: ['trigger'],
			inputs: [],
			credentials: [{ name: 'crmInvoicingApi', required: true }],
		});
		const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
		expect(pkg.n8n.nodes).toContain('dist/nodes/CrmInvoicing/CrmInvoicingPollingTrigger.node.js');
		const folder = join(ROOT, 'nodes', 'CrmInvoicing');
		const codex = JSON.parse(
			readFileSync(join(folder, 'CrmInvoicingPollingTrigger.node.json'), 'utf8'),
		);
		expect(codex.node).toBe('n8n-nodes-crm-invoicing.crmInvoicingPollingTrigger');
		const icon = description.icon as { light: string; dark: string };
		for (const file of [icon.light, icon.dark])
			expect(existsSync(join(folder, file.replace('file:', '')))).toBe(true);
	});
});

describe('parameters', () => {
	it('offers the three events, New Lead by default', () => {
		const events = property('events')!;
		expect(events.default).toEqual(['newLead']);
		expect(
			(events.options as Array<{ value: string }>).map((option) => option.value).sort(),
		).toEqual(['archivedLead', 'newLead', 'updatedLead']);
	});

	it("has the action node's Simplify switch", () => {
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

	it('has the backfill option, off by default, and the Full Read Interval, 60 minutes by default, 1 to 1440', () => {
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
});

describe('poll times: the busiest minute and the shortest gap (budget.ts)', () => {
	const sched = (...item: unknown[]) => pollSchedule({ item });
	const custom = (cronExpression: string) => ({ mode: 'custom', cronExpression });

	it.each([
		['every minute', [{ mode: 'everyMinute' }], 1, 60],
		['every 5 minutes', [{ mode: 'everyX', value: 5, unit: 'minutes' }], 1, 300],
		[
			'every 7 minutes (0, 7, …, 56, then 0: 4 minutes at the hour)',
			[{ mode: 'everyX', value: 7, unit: 'minutes' }],
			1,
			240,
		],
		['every hour', [{ mode: 'everyHour', minute: 10 }], 1, 3_600],
		['every 2 hours', [{ mode: 'everyX', value: 2, unit: 'hours' }], 1, 7_200],
		['every day', [{ mode: 'everyDay', hour: 9, minute: 0 }], 1, 86_400],
		[
			'six custom seconds (every 10 s)',
			[0, 10, 20, 30, 40, 50].map((second) => custom(`${second} * * * * *`)),
			6,
			10,
		],
		[
			'"every 5 minutes, 9 to 17" (a daily average says 0.075 a minute)',
			[custom('*/5 9-17 * * *')],
			1,
			300,
		],
		['a cron with 3 seconds in its minutes', [custom('0,20,40 */2 * * * *')], 3, 20],
		[
			'two every-minute poll times (n8n picks their seconds: maybe the same one)',
			[{ mode: 'everyMinute' }, { mode: 'everyMinute' }],
			2,
			0,
		],
		['days of the week are read as every day', [custom('0 9 * * 1-5')], 1, 86_400],
		['a cron it cannot read counts as every minute', [custom('not a cron')], 1, 60],
	])('%s', (_what, items, busiestMinute, gapSeconds) => {
		expect(sched(...items)).toEqual({ busiestMinute, shortestGapMs: gapSeconds * 1_000 });
	});

	it('no poll times (n8n refuses that on activation) count as every minute', () => {
		expect(pollSchedule(undefined)).toEqual({ busiestMinute: 1, shortestGapMs: 60_000 });
	});
});

describe('the request budget (budget.ts)', () => {
	const minute = { busiestMinute: 1, shortestGapMs: 60_000 };
	const fiveMinutes = { busiestMinute: 1, shortestGapMs: 300_000 };
	const tenSeconds = { busiestMinute: 6, shortestGapMs: 10_000 };

	it("leaves half the key's rate to others: polling every minute at 60 a minute allows 30 per poll, not 60", () => {
		expect(pollBudget(60, minute)).toMatchObject({
			share: 30,
			requestsPerPoll: 30,
			requestsPerFullRead: 150,
		});
	});

	it('divides the share among the polls of the busiest minute', () => {
		expect(pollBudget(60, tenSeconds).requestsPerPoll).toBe(5);
		expect(pollBudget(12, tenSeconds).requestsPerPoll).toBe(1);
		expect(pollBudget(6, tenSeconds).requestsPerPoll).toBe(0);
	});

	it("lets a poll go on for the whole minutes until the next poll time, within n8n's time budget for a poll", () => {
		expect(pollBudget(60, fiveMinutes)).toMatchObject({
			requestsPerPoll: 150,
			requestsPerFullRead: 150,
		});
		expect(pollBudget(60, { busiestMinute: 1, shortestGapMs: 3_600_000 })).toMatchObject({
			requestsPerPoll: 150,
			requestsPerFullRead: 150,
		});
		expect(
			pollBudget(60, { busiestMinute: 1, shortestGapMs: 3_600_000 }, 10 * 60_000),
		).toMatchObject({ requestsPerPoll: 300, requestsPerFullRead: 300 });
		// n8n 2.41's scheduler gives a poll 36 s: one minute's share.
		expect(pollBudget(60, fiveMinutes, 36_000)).toMatchObject({
			requestsPerPoll: 30,
			requestsPerFullRead: 30,
		});
	});

	it('half the rate, rounded down: 2 requests a minute give 1; 1 gives none (the poll refuses such a credential, poll.test.ts)', () => {
		expect(pollBudget(2, minute)).toMatchObject({ share: 1, requestsPerPoll: 1 });
		expect(pollBudget(1, minute)).toMatchObject({ share: 0, requestsPerPoll: 0 });
	});
});

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
		expect(stableJson({ b: [1, { d: 1, c: 2 }], a: null })).toBe(
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
			fc.property(fc.jsonValue({ maxDepth: 8 }), (value) => stableJson(value) === recursive(value)),
			{ numRuns: 500 },
		);
		expect(stableJson([undefined, { a: undefined }])).toBe(
			recursive([undefined, { a: undefined }]),
		);
	});

	it('stableJson and fingerprints take any nesting JSON.parse accepts (200,000 levels), and tell two deep leads apart', () => {
		const depth = 200_000;
		const deep = (bottom: string): IDataObject =>
			JSON.parse(
				`{"id":"lead_d","customFields":{"x":${'['.repeat(depth)}"${bottom}"${']'.repeat(depth)}}}`,
			);
		expect(stableJson(deep('a'))).toHaveLength(
			`{"customFields":{"x":"a"},"id":"lead_d"}`.length + 2 * depth,
		);
		const fields: string[] = [];
		const one = fingerprint(deep('a'), fields);
		const two = fingerprint(deep('b'), fields);
		expect(one.whole).not.toBe(two.whole);
		expect(changedFields(one, two, fields)).toEqual(['customFields']);
		expect(fieldTooDeep(deep('a'), POLLING.maxEmitDepth)).toBe('customFields');
	});

	it(`fieldTooDeep names the first field nested past the limit (the record is level 1)`, () => {
		const nested = (levels: number): IDataObject[] =>
			JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`);
		expect(
			fieldTooDeep({ id: 'x', a: nested(POLLING.maxEmitDepth - 1) }, POLLING.maxEmitDepth),
		).toBeUndefined();
		expect(
			fieldTooDeep({ id: 'x', a: 1, b: nested(POLLING.maxEmitDepth) }, POLLING.maxEmitDepth),
		).toBe('b');
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

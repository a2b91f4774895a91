/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** The polling trigger's polls, in n8n-core's real PollContext, against the sandbox CRM (in this process). */
import { sleep } from 'n8n-workflow';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { CrmInvoicingPollingTrigger } from '../../../nodes/CrmInvoicing/CrmInvoicingPollingTrigger.node';
import { POLLING } from '../../../nodes/CrmInvoicing/polling/budget';
import { encodePrint, fingerprint, headOf } from '../../../nodes/CrmInvoicing/polling/leads';
import { remember, saveMemory, type Memory } from '../../../nodes/CrmInvoicing/polling/memory';
import { diff, type PollSettings } from '../../../nodes/CrmInvoicing/polling/poll';
import { SIMPLIFIED_FIELDS } from '../../../nodes/CrmInvoicing/shared/simplify';
import { createPollContext, staticDataChanged } from '../../helpers/harness';
import { lead as leadRecord } from '../../helpers/records';
import {
	startSandbox,
	type ListOrder,
	type Sandbox,
	type SandboxPersonality,
} from '../../sandbox/server';
import { call } from '../../sandbox/helpers';
import { addLead, ADMIN_USER_INTERNAL_ID, type Store } from '../../sandbox/store';

// n8n's sleep as it is, unless a test records it instead (the node's share of the key waits with it).
jest.mock('n8n-workflow', () => {
	const actual = jest.requireActual('n8n-workflow');
	return { ...actual, sleep: jest.fn(actual.sleep) };
});
const sleepMock = jest.mocked(sleep);

const trigger = new CrmInvoicingPollingTrigger();
let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ rateLimit: false });
});
afterAll(async () => {
	await sandbox.close();
});
beforeEach(() => {
	sandbox.reset();
	sandbox.setPersonality('standard');
	setOrder('oldest');
});

const setOrder = (order: ListOrder) => sandbox.setListOrder(order);

interface Poll {
	items: IDataObject[];
	requests: number;
}

/** The warnings the last poll logged, and whether it left the static data marked changed (for a fresh memory object). */
let warnings: string[] = [];
let changed = false;

/** One poll with `memory` as the node's static data (the same object across polls, as n8n keeps it). */
async function poll(
	memory: IDataObject,
	parameters: INodeParameters = {},
	extra: {
		mode?: 'trigger' | 'manual';
		requestsPerMinute?: number;
		workflowId?: string;
		pollBudgetMs?: number;
	} = {},
): Promise<Poll> {
	const { context, workflow } = createPollContext({
		nodeType: trigger,
		parameters: { events: ['newLead'], simplify: false, ...parameters },
		credentials: {
			baseUrl: sandbox.url,
			apiKey: sandbox.keys.admin,
			requestsPerMinute: extra.requestsPerMinute ?? 1_000_000,
		},
		staticData: memory,
		mode: extra.mode,
		pollBudgetMs: extra.pollBudgetMs,
	});
	if (extra.workflowId !== undefined) {
		// Another workflow's polling trigger (another node key), with the same credential.
		const workflow = context.getWorkflow();
		const id = extra.workflowId;
		context.getWorkflow = () => ({ ...workflow, id });
	}
	warnings = [];
	jest.spyOn(context.logger, 'warn').mockImplementation((message: string) => {
		warnings.push(message);
	});
	const before = sandbox.requests.length;
	changed = false;
	const output = await trigger.poll.call(context);
	changed = staticDataChanged(workflow);
	return {
		items: (output?.[0] ?? []).map((item) => item.json),
		requests: sandbox.requests.length - before,
	};
}

/** The memory after a first poll, which emits nothing and remembers the leads that exist. */
async function primed(parameters: INodeParameters = {}): Promise<IDataObject> {
	const memory: IDataObject = {};
	await poll(memory, parameters);
	return memory;
}

/** One poll as n8n 2.41's durable scheduler runs it: the static data is a fresh copy of the stored row, which n8n
 * writes only when the poll marked the static data changed (a change left unmarked would be lost: fails here). */
async function scheduledPoll(
	row: { cursor: string; writes: number },
	parameters: INodeParameters,
	extra: { pollBudgetMs?: number; requestsPerMinute?: number } = {},
): Promise<Poll> {
	const memory = JSON.parse(row.cursor) as IDataObject;
	const result = await poll(memory, parameters, extra);
	const cursor = JSON.stringify(memory);
	if (changed) row.writes++;
	else expect(cursor).toBe(row.cursor);
	row.cursor = cursor;
	return result;
}

const createLead = async (name: string) =>
	(await call<IDataObject>(sandbox, 'POST', '/api/v1/leads', { body: { name } })).body;

async function patchLead(id: string, fields: IDataObject): Promise<void> {
	const answer = await call(sandbox, 'PATCH', `/api/v1/leads/${id}`, { body: fields });
	expect(answer.status).toBeLessThan(300);
}

/** A lead the CRM imports with an old creation date (listed out of order under newest-first by createdAt). */
async function importOld(): Promise<IDataObject> {
	const leads = [{ name: 'Imported 2020', createdAt: '2020-01-01T00:00:00Z' }];
	return (await call<IDataObject[]>(sandbox, 'POST', '/__sandbox/import', { body: { leads } }))
		.body[0];
}

const store = (): Store => sandbox.state as Store;
const leadIds = () =>
	store()
		.leads.values()
		.map((lead) => lead.id)
		.sort();

/** Runs `work` with Date.now `ms` ahead of the real clock. */
async function ahead(ms: number, work: () => Promise<void>): Promise<void> {
	const realNow = Date.now.bind(Date);
	const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + ms);
	try {
		await work();
	} finally {
		clock.mockRestore();
	}
}

/** The CRM's next answer to a list request is one page of `items` (after `delayMs`). */
function listOnce(items: unknown[], delayMs?: number): void {
	const body = { items, hasMore: false, nextCursor: null };
	sandbox.addFault({
		status: 200,
		count: 1,
		method: 'GET',
		pathPrefix: '/api/v1/leads',
		delayMs,
		body,
	});
}

/** Archives a lead in the CRM itself (as its web app would): the alternate PATCH /leads/{id} ignores `archived`. */
function archiveLead(id: string): void {
	store().leads.get(id)!.archived = true;
}
const names = (items: IDataObject[]) => items.map((item) => item.name);

describe.each<[SandboxPersonality, ListOrder]>([
	['standard', 'oldest'],
	['standard', 'newest'],
	['alternate', 'oldest'],
	['alternate', 'newest'],
])('personality %s, list order %s', (personality, order) => {
	beforeEach(() => {
		sandbox.setPersonality(personality);
		setOrder(order);
	});

	it('emits nothing on the first poll and remembers the leads that exist; then each new lead exactly once, oldest first, as Lead → Get gives it, with _event newLead', async () => {
		const memory: IDataObject = {};
		expect((await poll(memory)).items).toEqual([]);
		expect(Object.keys(memory.leads as object).sort()).toEqual(leadIds());
		expect((await poll(memory)).items).toEqual([]);
		const first = await createLead('New One');
		await createLead('New Two');
		await createLead('New Three');
		const next = await poll(memory);
		expect(names(next.items)).toEqual(['New One', 'New Two', 'New Three']);
		expect(next.items.every((item) => item._event === 'newLead')).toBe(true);
		const got = await call<IDataObject>(sandbox, 'GET', `/api/v1/leads/${String(first.id)}`);
		expect(next.items[0]).toEqual({ ...got.body, _event: 'newLead' });
		expect((await poll(memory)).items).toEqual([]);
	});

	// With Archived Lead alone selected, an archived lead is the Archived item alone: diff()'s table below.
	it('emits an edited lead once as updatedLead, naming the changed fields; then, archived, once as archivedLead', async () => {
		const parameters = { events: ['newLead', 'updatedLead', 'archivedLead'] };
		const lead = await createLead('Edit Me');
		const memory = await primed(parameters);
		await patchLead(String(lead.id), { title: 'CFO', value: 750 });
		const edited = (await poll(memory, parameters)).items;
		const updated = { id: lead.id, title: 'CFO', value: 750, _event: 'updatedLead' };
		expect(edited).toEqual([expect.objectContaining(updated)]);
		expect((edited[0]._changedFields as string[]).sort()).toEqual(['title', 'value']);
		archiveLead(String(lead.id));
		const archived = { id: lead.id, archived: true, _event: 'archivedLead' };
		expect((await poll(memory, parameters)).items).toEqual([expect.objectContaining(archived)]);
		expect((await poll(memory, parameters)).items).toEqual([]);
	});
});

const PROTOTYPE_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

it('leads whose ids are Object.prototype names are each emitted once as New Lead, then once as Updated Lead, across a JSON round trip', async () => {
	const parameters = { events: ['newLead', 'updatedLead'] };
	let memory = await primed(parameters);
	for (const id of PROTOTYPE_NAMES)
		addLead(store(), { id, name: `Lead ${id}` }, ADMIN_USER_INTERNAL_ID);
	const added = await poll(memory, parameters);
	expect(added.items.map((item) => [item.id, item._event])).toEqual(
		PROTOTYPE_NAMES.map((id) => [id, 'newLead']),
	);
	// As n8n's database stores the static data (JSON), so that a restart or the next scheduled poll reads it back.
	memory = JSON.parse(JSON.stringify(memory)) as IDataObject;
	expect(Object.keys(memory.leads as object)).toEqual(expect.arrayContaining(PROTOTYPE_NAMES));
	expect((await poll(memory, parameters)).items).toEqual([]);
	await patchLead('constructor', { title: 'Builder' });
	const builder = { id: 'constructor', _event: 'updatedLead', _changedFields: ['title'] };
	expect((await poll(memory, parameters)).items).toEqual([expect.objectContaining(builder)]);
});

describe("under n8n 2.41's durable scheduler with durable cursors", () => {
	it.each(['oldest', 'newest'] as ListOrder[])(
		'listed %s first: n8n stores the memory after each poll that changed it (the first read, a new lead, a changed lead), and after a poll that found nothing it has nothing to store',
		async (order) => {
			setOrder(order);
			const parameters = { events: ['newLead', 'updatedLead'] };
			const row = { cursor: '{}', writes: 0 };
			const stored = () =>
				JSON.parse(row.cursor) as { leads: IDataObject; fields: string[]; fullAt?: number };
			const printOf = async (id: string) => {
				const lead = await call<IDataObject>(sandbox, 'GET', `/api/v1/leads/${id}`);
				return encodePrint(fingerprint(lead.body, stored().fields));
			};
			await scheduledPoll(row, parameters);
			expect([changed, Object.keys(stored().leads).sort()]).toEqual([true, leadIds()]);
			await scheduledPoll(row, parameters);
			expect(changed).toBe(false);
			const id = String((await createLead('Remembered')).id);
			expect((await scheduledPoll(row, parameters)).items).toHaveLength(1);
			expect([changed, stored().leads[id]]).toEqual([true, await printOf(id)]);
			await scheduledPoll(row, parameters);
			expect(changed).toBe(false);
			await patchLead(id, { title: 'Changed' });
			expect((await scheduledPoll(row, parameters)).items).toHaveLength(1);
			expect([changed, stored().leads[id]]).toEqual([true, await printOf(id)]);
			// New Lead alone: under newest first a head read, under oldest first a full read; nothing new either way.
			for (const events of [parameters.events, ['newLead']]) {
				expect((await scheduledPoll(row, { events })).items).toEqual([]);
				expect(changed).toBe(false);
			}
			expect(row.writes).toBe(3);
			// A Full Read Interval on, the full read that finds nothing moves the time of the last full read: only that.
			const before = stored();
			await ahead(POLLING.fullReadMinutes * 60_000, async () => {
				expect((await scheduledPoll(row, { events: ['newLead'] })).items).toEqual([]);
			});
			const { fullAt, ...rest } = stored() as IDataObject;
			expect([changed, rest]).toEqual([true, { ...before, fullAt: undefined }]);
			expect(fullAt).toBeGreaterThan(before.fullAt as number);
		},
	);

	it('a poll that starts with the cursor as it was before the last emission was stored is skipped, without a request; a minute on, the stored cursor is taken as it is', async () => {
		const parameters = { events: ['newLead'] };
		const row = { cursor: '{}', writes: 0 };
		await scheduledPoll(row, parameters);
		await createLead('Stored Late');
		const before = row.cursor;
		expect((await scheduledPoll(row, parameters)).items).toHaveLength(1);
		// The next poll read the row before n8n committed the emission with its execution (at start-up, the poll at
		// activation and the first scheduled poll).
		const stale = { cursor: before, writes: 0 };
		expect(await scheduledPoll(stale, parameters)).toEqual({ items: [], requests: 0 });
		// n8n never stored that emission: a minute on, the lead is emitted again, not lost.
		await ahead(61_000, async () => {
			expect((await scheduledPoll(stale, parameters)).items).toEqual([
				expect.objectContaining({ name: 'Stored Late', _event: 'newLead' }),
			]);
		});
	});
});

describe('requests per poll', () => {
	beforeEach(() => {
		sandbox.seedLeads(247); // 250 leads: 3 pages of 100
	});

	it('newest first, New Lead only: an idle poll reads 1 page, one with 120 new leads 2; the whole list when a new lead sits below the head or the newest remembered lead was deleted', async () => {
		setOrder('newest');
		const memory: IDataObject = {};
		expect((await poll(memory)).requests).toBe(3); // the first poll reads everything
		expect(await poll(memory)).toEqual({ items: [], requests: 1 });
		sandbox.seedLeads(120);
		const busy = await poll(memory);
		expect([busy.items.length, busy.requests]).toEqual([120, 2]);
		expect(await poll(memory)).toEqual({ items: [], requests: 1 });
		const newest = store().leads.values().at(-1)!;
		store().leads.delete(newest.id);
		expect(await poll(memory)).toEqual({ items: [], requests: 4 });
		expect(memory.gone).toEqual({ [newest.id]: expect.any(Number) });
		expect(await poll(memory)).toEqual({ items: [], requests: 1 });
		// Listed first (newest by creation) but stamped in the past: the head no longer proves the order.
		const backdated = { name: 'Backdated', createdAt: '2020-01-01T00:00:00.000Z' };
		addLead(store(), backdated, ADMIN_USER_INTERNAL_ID);
		const found = await poll(memory);
		expect([names(found.items), found.requests]).toEqual([['Backdated'], 4]);
	});

	it('oldest first: every poll reads the whole list (ceil(N/100) requests) and still misses nothing', async () => {
		const memory = await primed();
		expect(await poll(memory)).toEqual({ items: [], requests: 3 });
		await createLead('At The End');
		const next = await poll(memory);
		expect([names(next.items), next.requests]).toEqual([['At The End'], 3]);
	});
});

it('misses and repeats nothing when the API switches its list order between polls', async () => {
	sandbox.seedLeads(247);
	const memory = await primed();
	const seen: string[] = [];
	const orders: ListOrder[] = ['newest', 'oldest', 'newest', 'newest', 'oldest', 'newest'];
	for (const [index, order] of orders.entries()) {
		setOrder(order);
		await createLead(`Switch ${index}`);
		seen.push(...names((await poll(memory)).items).map(String));
	}
	expect(seen).toEqual(orders.map((_, index) => `Switch ${index}`));
});

it('Include Existing Leads on First Poll emits every lead once as New Lead; Simplify gives the simplified lead and _event', async () => {
	const memory: IDataObject = {};
	const parameters = { simplify: true, options: { includeExisting: true } };
	const first = await poll(memory, parameters);
	expect(names(first.items)).toEqual(['John Smith', 'Maria Garcia', 'Old Prospect']);
	expect((await poll(memory, parameters)).items).toEqual([]);
	expect(Object.keys(first.items[0])).toEqual([...SIMPLIFIED_FIELDS.lead, '_event']);
});

describe('memory', () => {
	/** Runs `work` with the memory's cap at `maxLeads`. */
	async function withCap(maxLeads: number, work: () => Promise<void>): Promise<void> {
		const cap = POLLING as { maxLeads: number };
		const saved = cap.maxLeads;
		cap.maxLeads = maxLeads;
		try {
			await work();
		} finally {
			cap.maxLeads = saved;
		}
	}

	it(`fails with a clear error past the cap (${POLLING.maxLeads} leads) and keeps what it remembered`, async () => {
		await withCap(5, async () => {
			const memory = await primed();
			const before = structuredClone(memory);
			await createLead('Four');
			await createLead('Five');
			expect((await poll(memory)).items).toHaveLength(2);
			await createLead('Six');
			// The list reader stops at the cap (it is the list's record cap while the trigger reads).
			await expect(poll(memory)).rejects.toThrow(
				'The list /api/v1/leads holds more than 5 records',
			);
			expect(Object.keys(memory.leads as object)).toHaveLength(5);
			expect(before.v).toBe(1);
		});
	});

	it('past the cap in newest-first head reads too (the list reader is not asked for the whole list)', async () => {
		setOrder('newest');
		await withCap(104, async () => {
			sandbox.seedLeads(100); // 103 leads: two pages
			const memory = await primed();
			await createLead('Lead 104');
			expect(await poll(memory)).toMatchObject({ requests: 1 });
			// A head read does not forget deleted leads: the memory grows while the list does not.
			store().leads.delete(store().leads.values()[0].id);
			await createLead('Lead 105');
			const before = sandbox.requests.length;
			await expect(poll(memory)).rejects.toThrow(
				'The polling trigger would have to remember 105 leads, more than the 104 it can',
			);
			expect(sandbox.requests.length - before).toBe(1);
			expect(Object.keys(memory.leads as object)).toHaveLength(104);
		});
	});
});

it('skips a poll that starts while the previous one still runs, without a request', async () => {
	const memory = await primed();
	listOnce([], 300);
	const slow = poll(memory);
	await new Promise((resolve) => setTimeout(resolve, 50));
	expect(await poll(memory)).toEqual({ items: [], requests: 0 });
	// The log says so, and what to do when it happens at every poll.
	expect(warnings).toEqual([
		expect.stringMatching(
			/^CRM Invoicing Polling Trigger: a poll started while the previous one was still running; it was skipped, and the next poll finds what changed meanwhile\. .*poll less often \(Poll Times\), use New Lead alone, or raise "Requests per Minute"/,
		),
	]);
	await slow;
	// The guard is released: the next poll runs.
	expect(await poll(memory)).toEqual({ items: [], requests: 1 });
});

it(`a lead missing from the list: an empty answer (a flaky proxy) does not make the leads new again when they come back; a deleted lead is forgotten after ${POLLING.forgetAfterMs / 86_400_000} days`, async () => {
	const memory = await primed();
	listOnce([]);
	expect(await poll(memory)).toEqual({ items: [], requests: 1 });
	expect(Object.keys(memory.gone as object)).toHaveLength(3);
	expect(await poll(memory)).toEqual({ items: [], requests: 1 });
	expect(memory.gone).toEqual({});
	const [first] = store().leads.values();
	store().leads.delete(first.id);
	await poll(memory);
	expect(memory.leads).toHaveProperty(first.id);
	(memory.gone as Record<string, number>)[first.id] -= POLLING.forgetAfterMs;
	await poll(memory);
	expect(memory.leads).not.toHaveProperty(first.id);
	expect(memory.gone).toEqual({});
});

describe('Fetch Test Event (manual mode)', () => {
	it.each(['oldest', 'newest'] as ListOrder[])(
		'returns the most recent lead under %s first and leaves the memory alone',
		async (order) => {
			setOrder(order);
			sandbox.seedLeads(247);
			const memory = await primed();
			const snapshot = structuredClone(memory);
			const latest = await createLead('Most Recent');
			const sample = await poll(memory, { events: ['updatedLead'] }, { mode: 'manual' });
			expect(sample.items).toEqual([
				expect.objectContaining({ id: latest.id, _event: 'updatedLead', _changedFields: [] }),
			]);
			expect(sample.requests).toBe(order === 'newest' ? 1 : 3);
			expect(memory).toEqual(snapshot);
			// And the lead is still new for the next real poll.
			expect(names((await poll(memory)).items)).toEqual(['Most Recent']);
		},
	);

	it('without any memory it writes none', async () => {
		const memory: IDataObject = {};
		await poll(memory, {}, { mode: 'manual' });
		expect(memory).toEqual({});
	});
});

describe('no single lead stops the trigger', () => {
	/** A lead whose customFields nest `depth` levels, created through the API (its body written by hand). */
	async function createDeepLead(name: string, depth: number): Promise<string> {
		const raw = `{"name":"${name}","customFields":{"tree":${'['.repeat(depth - 2)}"leaf"${']'.repeat(depth - 2)}}}`;
		expect((await call(sandbox, 'POST', '/api/v1/leads', { rawBody: raw })).status).toBe(200);
		return store().leads.values().at(-1)!.id;
	}

	it.each(['oldest', 'newest'] as ListOrder[])(
		'a lead nested 10,000 deep among new ones (%s first): the others are emitted, it is named in a warning, then emitted once fixed',
		async (order) => {
			setOrder(order);
			const memory = await primed();
			await createLead('Before');
			const deepId = await createDeepLead('Deep', 10_000);
			await createLead('After');
			const atLimit = await createDeepLead('At The Limit', POLLING.maxEmitDepth);

			const next = await poll(memory);
			expect(names(next.items)).toEqual(['Before', 'After', 'At The Limit']);
			expect(next.items[2].id).toBe(atLimit);
			expect(warnings).toEqual([
				`CRM Invoicing Polling Trigger: lead ${deepId} ("Deep") was not emitted: its field "customFields" is nested more than ${POLLING.maxEmitDepth} levels deep, more than n8n can store in an execution. The trigger skipped it and emitted the other leads; it emits it as New Lead once the CRM holds it within that depth.`,
			]);
			// Unchanged: no item, no second warning.
			expect(await poll(memory)).toEqual({ items: [], requests: 1 });
			expect(warnings).toEqual([]);
			// Fixed in the CRM: emitted once, as New Lead.
			store().leads.get(deepId)!.customFields = { tree: 'leaf' };
			const fixed = expect.objectContaining({ id: deepId, _event: 'newLead' });
			expect((await poll(memory)).items).toEqual([fixed]);
			expect((await poll(memory)).items).toEqual([]);
		},
	);

	it('a list entry that is not a JSON object (null, a text), or a lead without an id, is named in a warning and skipped; the others are emitted, and later polls go on', async () => {
		const memory = await primed();
		const lead = await createLead('Next To Null');
		const known = [...store().leads.values()].filter((entry) => entry.id !== lead.id).slice(0, 3);
		listOnce([...known, null, 'oops', { name: 'No Id' }, lead]);
		const next = await poll(memory);
		expect(names(next.items)).toEqual(['Next To Null']);
		expect(warnings).toEqual([
			'CRM Invoicing Polling Trigger: entry 4 of page 1 of the list /api/v1/leads is null, not a lead (a JSON object); the trigger skipped it and read the others. This is a fault of the API or of a proxy in front of it.',
			'CRM Invoicing Polling Trigger: entry 5 of page 1 of the list /api/v1/leads is the text "oops", not a lead (a JSON object); the trigger skipped it and read the others. This is a fault of the API or of a proxy in front of it.',
			'CRM Invoicing Polling Trigger: lead 4 of the list /api/v1/leads, without an id ("No Id"), has no id, so the trigger cannot tell it apart from the others; it skipped it. This is a fault of the API or of a proxy in front of it.',
		]);
		expect((await poll(memory)).items).toEqual([]);
	});
});

describe("the polling triggers' share of the key: at most half the rate in any minute, for all of them together", () => {
	// The key's limiter at 12 a minute keeps the Date.now it was made with: made here, on the real clock, so that a
	// limiter is not left holding a virtual clock's spy once a test below restores Date.now.
	beforeAll(async () => {
		await poll({}, {}, { requestsPerMinute: 12 });
	});

	afterEach(() => {
		sleepMock.mockImplementation(jest.requireActual('n8n-workflow').sleep);
		sandbox.setRateLimit(false);
	});

	/** Runs `work` on a clock (Date.now, `startMs` ahead) that n8n's sleep moves instead of waiting; gives it the times
	 * at which the CRM received a list request. */
	async function onVirtualClock(startMs: number, work: (sent: number[]) => Promise<void>) {
		let offset = startMs;
		const realNow = Date.now.bind(Date);
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
		sleepMock.mockImplementation(async (ms: number) => {
			offset += Math.max(0, ms);
		});
		const sent: number[] = [];
		const push = sandbox.requests.push.bind(sandbox.requests);
		const spy = jest.spyOn(sandbox.requests, 'push').mockImplementation((...entries) => {
			for (const entry of entries) if (entry.path === '/api/v1/leads') sent.push(Date.now());
			return push(...entries);
		});
		// The CRM announces plenty of room (RateLimit-*), so the key's pacer never holds a page back: the share does.
		sandbox.setRateLimit({ limit: 10_000, windowMs: 60_000 });
		try {
			await work(sent);
		} finally {
			clock.mockRestore();
			spy.mockRestore();
		}
	}

	const atMostSixInAnyMinute = (sent: number[]) => {
		for (let index = 6; index < sent.length; index++)
			expect(sent[index] - sent[index - 6]).toBeGreaterThanOrEqual(60_000);
	};
	const everyHour = {
		events: ['updatedLead'],
		pollTimes: { item: [{ mode: 'everyHour', minute: 0 }] },
	};

	it('a full read of 25 pages at 12 requests a minute: never more than 6 pages in any 60 s (on a clock that the waits move)', async () => {
		sandbox.seedLeads(2_497); // 2,500 leads: 25 pages
		await onVirtualClock(0, async (sent) => {
			// Polling every hour: a poll may take the 5 minutes of n8n's time budget, 6 × 5 = 30 requests; it asks for no
			// page that would not arrive within them, and the next poll reads the rest.
			const memory: IDataObject = {};
			const started = Date.now();
			let requests = (await poll(memory, everyHour, { requestsPerMinute: 12 })).requests;
			expect(sent[requests - 1] - started).toBeLessThanOrEqual(5 * 60_000);
			for (let polls = 1; polls < 3 && memory.pass !== undefined; polls++)
				requests += (await poll(memory, everyHour, { requestsPerMinute: 12 })).requests;
			expect([requests, memory.pass]).toEqual([25, undefined]);
			expect(sent).toHaveLength(25);
			atMostSixInAnyMinute(sent);
			// …and no slower than the share needs: 25 pages in a little over 4 minutes.
			expect(sent[24] - sent[0]).toBeLessThan(4 * 60_000 + 5_000);
		});
	});

	it('two polling triggers (two workflows) on one API key: 14 pages at 12 requests a minute, never more than 6 in any 60 s together', async () => {
		sandbox.seedLeads(697); // 700 leads: 7 pages for each trigger's first full read
		// Started past any request of the tests before (the same key's share): this test's window starts empty.
		await onVirtualClock(120_000, async (sent) => {
			const firstRead = async (workflowId: string) =>
				(await poll({}, everyHour, { requestsPerMinute: 12, workflowId })).requests;
			expect([await firstRead('workflow-a'), await firstRead('workflow-b')]).toEqual([7, 7]);
			expect(sent).toHaveLength(14);
			atMostSixInAnyMinute(sent);
		});
	});

	it("under the durable scheduler's 36 s budget: a poll asks for no page whose turn comes after it; n8n stores the cursor of a read that spans polls, nothing after a poll that got no turn, and the read's end without a cursor", async () => {
		sandbox.seedLeads(1_197); // 1,200 leads: 12 pages, 6 a minute at 12 requests a minute
		// An hour past the tests above: this test's window of the key's share starts empty.
		await onVirtualClock(3_600_000, async (sent) => {
			const scheduled = { requestsPerMinute: 12, pollBudgetMs: 36_000 };
			const row = { cursor: '{}', writes: 0 };
			const started = Date.now();
			expect((await scheduledPoll(row, everyHour, scheduled)).requests).toBe(6);
			expect(Date.now() - started).toBeLessThanOrEqual(36_000);
			const part = JSON.parse(row.cursor) as IDataObject;
			expect([changed, part.pass]).toEqual([
				true,
				expect.objectContaining({ cursor: expect.any(String), first: true }),
			]);
			expect((part.pass as IDataObject).read).toHaveLength(600);
			// The next turn is a minute after the first page: not within this poll's 36 s. Nothing sent, nothing lost.
			const polled = Date.now();
			expect(await scheduledPoll(row, everyHour, scheduled)).toEqual({ items: [], requests: 0 });
			expect(Date.now() - polled).toBeLessThanOrEqual(36_000);
			expect(changed).toBe(false);
			expect(warnings).toEqual([expect.stringContaining("got no turn of the API key's share")]);
			await sleep(60_000);
			expect((await scheduledPoll(row, everyHour, scheduled)).requests).toBe(6);
			const whole = JSON.parse(row.cursor) as IDataObject;
			expect([changed, 'pass' in whole]).toEqual([true, false]);
			expect(Object.keys(whole.leads as object)).toHaveLength(1_200);
			expect(row.writes).toBe(2);
			atMostSixInAnyMinute(sent);
		});
	});

	it('a credential whose Requests per Minute leaves no half (1) is refused with an error that says what to set, before any request', async () => {
		const before = sandbox.requests.length;
		await expect(poll({}, {}, { requestsPerMinute: 1 })).rejects.toThrow(
			"The credential's Requests per Minute is 1: the polling trigger uses at most half of it, which leaves it no request",
		);
		expect(sandbox.requests.length).toBe(before);
	});

	it("a full read that does not fit one poll's budget goes on at the next poll from where it stopped: nothing missed, nothing emitted twice", async () => {
		sleepMock.mockImplementation(async () => undefined);
		sandbox.seedLeads(697); // 700 leads: 7 pages; at 2 requests a minute, 1 a minute for 5 minutes: 5 pages a poll
		const memory: IDataObject = {};
		const hourly = { events: ['newLead', 'updatedLead'], pollTimes: everyHour.pollTimes };
		const slow = { requestsPerMinute: 2 };
		// The first read after activation spans two polls, and only remembers.
		expect(await poll(memory, hourly, slow)).toEqual({ items: [], requests: 5 });
		expect(memory.pass).toMatchObject({ first: true });
		expect(await poll(memory, hourly, slow)).toEqual({ items: [], requests: 2 });
		expect(memory.pass).toBeUndefined();
		expect(Object.keys(memory.leads as object)).toHaveLength(700);
		// A lead changed on page 1 and one created on page 8: each emitted once, by the poll that reads its page.
		const first = store().leads.values()[0];
		await patchLead(first.id, { title: 'Changed' });
		const newcomer = await createLead('Newcomer');
		const next = async () => {
			const { items, requests } = await poll(memory, hourly, slow);
			return [requests, items.map((item) => [item.id, item._event])];
		};
		expect(await next()).toEqual([5, [[first.id, 'updatedLead']]]);
		expect(await next()).toEqual([3, [[newcomer.id, 'newLead']]]);
		for (const requests of [5, 3])
			expect(await poll(memory, hourly, slow)).toEqual({ items: [], requests });
	});
});

describe(`a lead listed out of order is found by the periodic full read (Full Read Interval, default ${POLLING.fullReadMinutes} minutes)`, () => {
	const MINUTE = 60_000;

	it.each([
		[POLLING.fullReadMinutes, {}],
		[5, { options: { fullReadInterval: 5 } }],
	])(
		'every %p minutes: newest first by createdAt, an import with an old date on page 3 is found by the first poll an interval after the last full read; idle polls read 1 page',
		async (minutes, options) => {
			setOrder('newestCreated');
			sandbox.seedLeads(247);
			const memory = await primed(options);
			const imported = await importOld();
			expect(await poll(memory, options)).toEqual({ items: [], requests: 1 });
			// A minute before the interval is up: still only the head.
			memory.fullAt = (memory.fullAt as number) - (minutes - 1) * MINUTE;
			expect(await poll(memory, options)).toEqual({ items: [], requests: 1 });
			// The interval is up: the whole list, and the imported lead, once.
			memory.fullAt = (memory.fullAt as number) - MINUTE;
			const lead = { id: imported.id, name: 'Imported 2020', _event: 'newLead' };
			const due = await poll(memory, options);
			expect(due).toEqual({ items: [expect.objectContaining(lead)], requests: 3 });
			expect(memory.fullAt).toBeGreaterThan(Date.now() - MINUTE);
			expect(await poll(memory, options)).toEqual({ items: [], requests: 1 });
		},
	);

	it('Updated or Archived Lead read the whole list (3 pages) at every poll anyway, under newest first too', async () => {
		setOrder('newestCreated');
		sandbox.seedLeads(247);
		const memory = await primed({ events: ['newLead', 'updatedLead'] });
		await importOld();
		const next = await poll(memory, { events: ['newLead', 'updatedLead'] });
		expect(names(next.items)).toEqual(['Imported 2020']);
		expect(next.requests).toBe(3);
	});
});

/** What diff() is given: `events`, no Simplify, no backfill, a full read every minute. */
const settingsFor = (events: PollSettings['events']): PollSettings => ({
	events,
	simplify: false,
	includeExisting: false,
	fullReadEveryMs: 60_000,
});

/** The memory of a poll that read `lead` alone. */
function remembering(lead: IDataObject): Memory {
	const fields: string[] = [];
	const leads = new Map([[String(lead.id), encodePrint(fingerprint(lead, fields))]]);
	return { v: 1, leads, gone: new Map(), fields };
}

it('compares the leads read with the memory without a request, a clock or a log, and leaves the memory as it was', () => {
	const lead = { id: 'l1', name: 'A', archived: false, createdAt: '2026-01-01T00:00:00.000Z' };
	const memory = remembering(lead);
	const remembered = new Map(memory.leads);
	const settings = settingsFor(['newLead', 'updatedLead', 'archivedLead']);
	const read = [
		{ ...lead, name: 'B', archived: true },
		{ id: 'l2', name: 'C', createdAt: '2026-01-02T00:00:00.000Z', title: 'CEO' },
		{ name: 'no id' },
	];
	const result = diff(memory, read, settings);
	expect(result.items.map(({ json }) => [json.id, json._event, json._changedFields])).toEqual([
		['l2', 'newLead', undefined],
		['l1', 'updatedLead', ['name']],
		['l1', 'archivedLead', undefined],
	]);
	expect([...result.seen.keys()]).toEqual(['l1', 'l2']);
	expect(result.newest).toBe(Date.parse('2026-01-02T00:00:00.000Z'));
	expect(result.warnings).toEqual([expect.stringContaining('has no id')]);
	expect(memory.leads).toEqual(remembered);
	expect(memory.fields).toEqual(['name', 'archived', 'createdAt']);
	expect(result.fields).toEqual(['name', 'archived', 'createdAt', 'title']);
});

it('a remembered lead whose stored print is shorter only because another lead gave a new field a slot is unchanged, not updated', () => {
	const lead = { id: 'l1', name: 'A', createdAt: '2026-01-01T00:00:00.000Z' };
	const wider = { id: 'l2', name: 'B', createdAt: '2026-01-02T00:00:00.000Z', title: 'CEO' };
	// l2 is compared first and gives `title` its slot: l1's print now has one slot more than the one remembered.
	const result = diff(remembering(lead), [wider, lead], settingsFor(['newLead', 'updatedLead']));
	expect(result.items.map(({ json }) => [json.id, json._event])).toEqual([['l2', 'newLead']]);
	expect(result.seen.get('l1')).not.toBe(remembering(lead).leads.get('l1'));
});

it('a head read proves the list newest first only down to a lead older than the newest remembered, every lead older than it known (docs: List order)', () => {
	const day = (n: number) => `2026-01-0${n}T00:00:00.000Z`;
	const memory: Memory = {
		v: 1,
		leads: new Map([
			['l1', 'l'],
			['l2', 'l'],
		]),
		gone: new Map(),
		fields: [],
		newest: Date.parse(day(2)),
	};
	const [l3, l2, l1] = [3, 2, 1].map((n) => ({ id: `l${n}`, createdAt: day(n) }));
	expect(headOf([l3, l2, l1], memory)).toBe(true);
	// An unknown lead, or one without an id, older than the newest remembered: listed out of order.
	expect(headOf([l3, l2, { id: 'x', createdAt: day(1) }, l1], memory)).toBe(false);
	expect(headOf([l3, l2, { createdAt: day(1) }, l1], memory)).toBe(false);
});

describe('a lead changed and archived in the same interval', () => {
	const lead = { id: 'l1', name: 'Both', value: 1, archived: false };
	const both: PollSettings['events'] = ['updatedLead', 'archivedLead'];
	/** An item as its event, then the changed fields it names (none for an Archived item). */
	const named = ({ json }: { json: IDataObject }) => {
		const fields = json._changedFields as string[] | undefined;
		return fields ? `${String(json._event)} ${[...fields].sort().join(',')}` : json._event;
	};
	it.each<[PollSettings['events'], IDataObject, string[]]>([
		[both, { value: 999 }, ['updatedLead value', 'archivedLead']],
		[['archivedLead'], { value: 999 }, ['archivedLead']],
		[['updatedLead'], { value: 999 }, ['updatedLead archived,value']],
		[both, {}, ['archivedLead']],
	])('events %j, changed %j: one item per selected event, %j', (events, change, expected) => {
		const read = [{ ...lead, ...change, archived: true }];
		expect(diff(remembering(lead), read, settingsFor(events)).items.map(named)).toEqual(expected);
	});
});

// Last: it holds the event loop for seconds (fingerprints of 10,000 leads), which the sandbox's idle sockets outlast.
// The stored memory grows by one entry per lead (ids of one length): a tenth of the cap takes a tenth of the bound.
it(`the stored memory stays within the documented size at ${POLLING.maxLeads.toLocaleString('en-US')} leads (3.1 MB with the spec's 14 fields, 5.8 MB with 40; 1.2 MB more while a full read spans polls)`, () => {
	const settings = settingsFor(['newLead']);
	for (const [extra, megabytes] of [
		[0, 3.1],
		[26, 5.8],
	]) {
		const records = Array.from({ length: POLLING.maxLeads / 10 }, (_, index) => {
			const record = leadRecord(`lead_${String(index).padStart(15, '0')}`); // an id of 20 characters
			for (const field of ['title', 'email', 'mobile', 'secondaryMobile', 'website', 'value'])
				record[field] = `${field} ${index}`;
			for (const field of ['sourceId', 'stageId', 'customFields']) record[field] = null;
			for (let slot = 0; slot < extra; slot++) record[`custom${slot}`] = index;
			return record;
		});
		const found = diff(undefined, records, settings);
		// Remembered after a full read; and while a full read spans polls, with the ids it read so far (1.2 MB more).
		for (const [reach, more] of [
			['full', 0],
			['part', 1.2],
		] as const) {
			const reading = { ...found, reach, cursor: 'c'.repeat(100), due: true, now: Date.now() };
			const memory: IDataObject = {};
			saveMemory(memory, remember(undefined, reading, 1));
			expect(JSON.stringify(memory).length).toBeLessThanOrEqual((megabytes + more) * 100_000);
		}
	}
});

import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { simplify } from '../CrmInvoicing/helpers/simplify';
import { CREDENTIAL_TYPE, readPages, requestsPerMinuteOf } from '../CrmInvoicing/transport';
import { pollBudget, pollsPerMinute } from './budget';
import {
	changed,
	changedFields,
	fingerprint,
	isArchived,
	loadMemory,
	POLLING,
	saveMemory,
	type ListOrder,
	type Memory,
} from './memory';

/** The events the node emits; each item carries one in EVENT_FIELD. */
export type LeadEvent = 'newLead' | 'updatedLead' | 'archivedLead';

/** The field the trigger adds to each lead: which event it is. Not one of the API's lead fields. */
export const EVENT_FIELD = '_event';
/** The field the trigger adds to an Updated Lead item: the names of the lead's fields that changed. */
export const CHANGED_FIELDS_FIELD = '_changedFields';

export interface PollSettings {
	events: LeadEvent[];
	simplify: boolean;
	/** Emit the leads that already exist as New Lead on the first poll (a backfill). */
	includeExisting: boolean;
}

/** What one poll did, for tests and the benchmark. */
export interface PollReport {
	requests: number;
	/** Whether it read the whole list (else it stopped at the head of a newest-first list). */
	fullRead: boolean;
	order: ListOrder;
	first: boolean;
}

const LIST_PATH = '/api/v1/leads';

const createdAtOf = (record: IDataObject): number => (typeof record.createdAt === 'string' ? Date.parse(record.createdAt) : NaN);

/** The order a whole list is in, by createdAt. */
function orderOf(times: number[]): ListOrder {
	let up = false;
	let down = false;
	for (let i = 1; i < times.length; i++) {
		if (Number.isNaN(times[i]) || Number.isNaN(times[i - 1])) return 'mixed';
		if (times[i] > times[i - 1]) up = true;
		if (times[i] < times[i - 1]) down = true;
	}
	if (up && down) return 'mixed';
	if (down) return 'newest';
	if (up) return 'oldest';
	return 'unknown';
}

function leadIdOf(context: IPollFunctions, record: IDataObject, position: number): string {
	const id = record.id;
	if (typeof id === 'string' && id !== '') return id;
	if (typeof id === 'number' && Number.isFinite(id)) return String(id);
	throw new NodeOperationError(context.getNode(), `The CRM API's list ${LIST_PATH} held a lead without an id (lead ${position})`, {
		description: 'The trigger tells leads apart by their id; a lead without one cannot be watched. This is a fault of the API or of a proxy in front of it. Nothing was emitted.',
	});
}

function item(record: IDataObject, settings: PollSettings, event: LeadEvent, fields?: string[]): INodeExecutionData {
	const json: IDataObject = settings.simplify ? simplify('lead', record) : { ...record };
	json[EVENT_FIELD] = event;
	if (fields !== undefined) json[CHANGED_FIELDS_FIELD] = fields;
	return { json };
}

/**
 * The head of a newest-first list, read page by page: whether the node may stop reading after `page`.
 *
 * It may when this poll's pages prove the list is newest first down to a lead older than every lead it remembers:
 * the first lead is at least as new as the newest remembered, createdAt never increases along the pages read, and the
 * last lead read is older than the newest remembered. Then every lead further down is older still, so none is new.
 * A lead it does not know that is older than the newest remembered breaks that proof (the API does not list by
 * creation, or mixes orders): the node then reads the whole list this poll.
 */
class HeadCheck {
	private previous: number | undefined;
	private broken = false;

	constructor(
		private readonly newest: number | undefined,
		private readonly known: Record<string, string>,
	) {
		if (newest === undefined) this.broken = true;
	}

	/** Takes one page (in list order); true when no further page can hold a new lead. */
	page(records: IDataObject[], ids: string[]): boolean {
		if (this.broken || this.newest === undefined) return false;
		for (let i = 0; i < records.length; i++) {
			const time = createdAtOf(records[i]);
			if (Number.isNaN(time)) return this.break();
			if (this.previous === undefined && time < this.newest) return this.break();
			if (this.previous !== undefined && time > this.previous) return this.break();
			if (time < this.newest && this.known[ids[i]] === undefined) return this.break();
			this.previous = time;
		}
		return this.previous !== undefined && this.previous < this.newest;
	}

	private break(): false {
		this.broken = true;
		return false;
	}
}

/** The error when a poll would need more requests than the API's budget allows at the node's poll times. */
function budgetError(context: IPollFunctions, needed: number, leads: number, allowed: number, rpm: number, polls: number): NodeOperationError {
	const every = polls >= 1 ? `${Math.round(polls * 10) / 10} times a minute` : `every ${Math.round((1 / polls) * 10) / 10} minutes`;
	const minutes = Math.ceil(needed / rpm);
	return new NodeOperationError(
		context.getNode(),
		`One poll needs about ${needed} requests to compare ${leads.toLocaleString('en-US')} leads, more than the ${allowed} the API's rate allows per poll (${rpm} requests a minute, polling ${every})`,
		{
			description: `The trigger did not poll, so that it does not fall behind or starve other workflows using this credential. Poll every ${minutes} minutes or less often (Poll Times), or turn off Updated Lead and Archived Lead: New Lead alone costs 1 request per poll when the API lists the newest leads first. If your plan allows more requests, raise "Requests per Minute" in the credential.`,
		},
	);
}

function capError(context: IPollFunctions, leads: number): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`The polling trigger would have to remember ${leads.toLocaleString('en-US')} leads, more than the ${POLLING.maxLeads.toLocaleString('en-US')} it can`,
		{
			description: 'The trigger keeps one fingerprint per lead in the workflow, and stops at this bound instead of growing without end. Nothing was emitted and what it remembers is unchanged. Use the webhook trigger (CRM Invoicing Trigger) for this workspace, or archive and delete leads you no longer need.',
		},
	);
}

/** The pause between two polls is n8n's business; this only says whether a poll is affordable. */
async function checkBudget(context: IPollFunctions, memory: Memory, settings: PollSettings): Promise<void> {
	const onlyNew = !settings.events.includes('updatedLead') && !settings.events.includes('archivedLead');
	const expected = onlyNew && memory.order === 'newest' ? 1 : Math.max(1, Math.ceil(memory.count / POLLING.pageSize));
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	const rpm = requestsPerMinuteOf(credentials);
	const polls = pollsPerMinute(context.getNodeParameter('pollTimes', {}));
	const budgetMs = typeof context.getPollBudgetMs === 'function' ? context.getPollBudgetMs() : undefined;
	const budget = pollBudget(rpm, polls, budgetMs);
	if (expected > budget.requestsPerPoll) throw budgetError(context, expected, memory.count, budget.requestsPerPoll, rpm, polls);
}

/**
 * One poll. Reads GET /leads through the one list reader (pacing, retries, caps and errors come with it), compares it
 * with what the node remembers, and returns the items to emit (null when there are none). The memory is written
 * only when the poll succeeded.
 */
export async function pollLeads(
	this: IPollFunctions,
	settings: PollSettings,
	report?: (done: PollReport) => void,
): Promise<INodeExecutionData[][] | null> {
	const staticData = this.getWorkflowStaticData('node');
	const before = loadMemory(staticData);
	const first = before === undefined;
	const memory: Memory = before ?? { v: 1, leads: {}, gone: {}, fields: [], order: 'unknown', count: 0 };
	if (!first) await checkBudget(this, memory, settings);

	const wantsNew = settings.events.includes('newLead');
	const wantsUpdated = settings.events.includes('updatedLead');
	const wantsArchived = settings.events.includes('archivedLead');
	const mayStopAtHead = !first && !wantsUpdated && !wantsArchived;
	const head = new HeadCheck(memory.newest, memory.leads);

	const records: IDataObject[] = [];
	const ids: string[] = [];
	let requests = 0;
	let fullRead = true;
	for await (const page of readPages.call(this, {
		path: '/leads',
		pageSize: POLLING.pageSize,
		maxRecords: POLLING.maxLeads,
		narrow: `The polling trigger remembers at most ${POLLING.maxLeads.toLocaleString('en-US')} leads. Use the webhook trigger (CRM Invoicing Trigger) for this workspace, or archive and delete leads you no longer need.`,
	})) {
		requests++;
		const pageIds = page.records.map((record, index) => leadIdOf(this, record, records.length + index + 1));
		records.push(...page.records);
		ids.push(...pageIds);
		if (mayStopAtHead && head.page(page.records, pageIds) && page.nextCursor !== null) {
			fullRead = false;
			break;
		}
	}

	const newItems: Array<{ record: IDataObject; time: number; index: number }> = [];
	const updatedItems: INodeExecutionData[] = [];
	const archivedItems: INodeExecutionData[] = [];
	const seen: Record<string, string> = {};
	// The newest createdAt remembered: after a full read, of the leads listed (a deleted newest lead no longer counts).
	let newest: number | undefined;
	for (let index = 0; index < records.length; index++) {
		const record = records[index];
		const id = ids[index];
		if (seen[id] !== undefined) continue; // The same lead twice in one listing: compared once.
		const print = fingerprint(record, memory.fields);
		seen[id] = print;
		const time = createdAtOf(record);
		if (!Number.isNaN(time) && (newest === undefined || time > newest)) newest = time;
		const old = memory.leads[id];
		if (old === undefined) {
			if (wantsNew && (!first || settings.includeExisting)) newItems.push({ record, time, index });
			continue;
		}
		if (first || !changed(old, print)) continue;
		const becameArchived = !isArchived(old) && isArchived(print);
		let names = changedFields(old, print, memory.fields);
		if (becameArchived && wantsArchived) {
			archivedItems.push(item(record, settings, 'archivedLead'));
			// The Archived Lead item tells of the archived flag; other fields changed in the same interval are an
			// Updated Lead item of their own.
			names = names.filter((name) => name !== 'archived');
			if (names.length === 0) continue;
		}
		if (wantsUpdated) updatedItems.push(item(record, settings, 'updatedLead', names));
	}

	// The new memory: the leads remembered, updated with those read. After a full read, a lead no longer listed is
	// marked gone, and forgotten once it has been gone for POLLING.forgetAfterMs.
	const leads = Object.assign(memory.leads, seen);
	const gone = memory.gone;
	if (fullRead) {
		const now = Date.now();
		for (const id of Object.keys(gone)) if (seen[id] !== undefined) delete gone[id];
		for (const id of Object.keys(leads)) {
			if (seen[id] !== undefined) continue;
			gone[id] ??= now;
			if (now - gone[id] >= POLLING.forgetAfterMs) {
				delete leads[id];
				delete gone[id];
			}
		}
	}
	if (!fullRead && memory.newest !== undefined && (newest === undefined || memory.newest > newest)) newest = memory.newest;
	const count = Object.keys(leads).length;
	if (count > POLLING.maxLeads) throw capError(this, count);
	const order: ListOrder = fullRead ? orderOf(records.map(createdAtOf)) : 'newest';
	saveMemory(staticData, { v: 1, leads, gone, fields: memory.fields, newest, order, count: fullRead ? records.length : Math.max(memory.count, count) });
	report?.({ requests, fullRead, order, first });
	// The first poll learns the list's size: a workflow that cannot afford its next polls fails now, at activation.
	if (first) await checkBudget(this, loadMemory(staticData) ?? memory, settings);

	// New leads oldest first (by createdAt, then by list position), so a workflow sees them in creation order.
	newItems.sort((a, b) => (Number.isNaN(a.time) || Number.isNaN(b.time) || a.time === b.time ? a.index - b.index : a.time - b.time));
	const items = [...newItems.map(({ record }) => item(record, settings, 'newLead')), ...updatedItems, ...archivedItems];
	return items.length > 0 ? [items] : null;
}

/**
 * "Fetch Test Event": the most recent lead (by createdAt), as an item of the first selected event. Reads the first
 * page; when it cannot tell from that page that it holds the newest lead, the whole list. Never reads or writes what
 * the trigger remembers.
 */
export async function sampleLead(this: IPollFunctions, settings: PollSettings): Promise<INodeExecutionData[][]> {
	let best: IDataObject | undefined;
	let bestTime = -Infinity;
	let pageNumber = 0;
	let descending = true;
	let previous = Infinity;
	for await (const page of readPages.call(this, { path: '/leads', pageSize: POLLING.pageSize, maxRecords: POLLING.maxLeads })) {
		pageNumber++;
		for (const record of page.records) {
			const time = createdAtOf(record);
			if (Number.isNaN(time) || time > previous) descending = false;
			previous = Number.isNaN(time) ? previous : time;
			if (best === undefined || time > bestTime) {
				best = record;
				bestTime = Number.isNaN(time) ? bestTime : time;
			}
		}
		// A first page in newest-first order starts with the newest lead: no need to read on.
		if (pageNumber === 1 && descending && page.records.length > 1) {
			const firstTime = createdAtOf(page.records[0]);
			const lastTime = createdAtOf(page.records[page.records.length - 1]);
			if (firstTime > lastTime) break;
		}
	}
	if (best === undefined) {
		throw new NodeOperationError(this.getNode(), 'The CRM has no leads yet, so there is no lead to show as a test event', {
			description: 'Create a lead in the CRM (or with the CRM Invoicing node), then fetch a test event again.',
		});
	}
	const event = settings.events[0] ?? 'newLead';
	return [[item(best, settings, event, event === 'updatedLead' ? [] : undefined)]];
}

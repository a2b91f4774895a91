import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { credentialOf, readPages, simplify } from '../shared';
import {
	budgetAdvice,
	budgetOf,
	checkBudget,
	fullReadCost,
	keyShare,
	minutesText,
	type Budget,
} from './budget';
import { createdAtOf, HeadCheck, orderOf } from './headCheck';
import {
	changed,
	changedFields,
	fieldTooDeep,
	fingerprint,
	isArchived,
	isUnreadable,
	loadMemory,
	POLLING,
	saveMemory,
	unreadable,
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
	/** With New Lead on a newest-first list: a poll reads the whole list when the last full read is this old (ms). */
	fullReadEveryMs: number;
}

const LIST_PATH = '/api/v1/leads';

function item(
	record: IDataObject,
	settings: PollSettings,
	event: LeadEvent,
	fields?: string[],
): INodeExecutionData {
	const json: IDataObject = settings.simplify ? simplify('lead', record) : { ...record };
	json[EVENT_FIELD] = event;
	if (fields !== undefined) json[CHANGED_FIELDS_FIELD] = fields;
	return { json };
}

/** A lead for a message: its id, and its name when it has one. */
function nameOf(record: IDataObject, id?: string): string {
	const name = typeof record.name === 'string' ? ` ("${record.name.slice(0, 80)}")` : '';
	return `${id ?? 'without an id'}${name}`;
}

/** The lead's id, or undefined when it has none the trigger can use (the caller warns and skips it). */
function leadIdOf(record: IDataObject): string | undefined {
	const id = record.id;
	if (typeof id === 'string' && id !== '') return id;
	if (typeof id === 'number' && Number.isFinite(id)) return String(id);
	return undefined;
}

function capError(context: IPollFunctions, leads: number): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`The polling trigger would have to remember ${leads.toLocaleString('en-US')} leads, more than the ${POLLING.maxLeads.toLocaleString('en-US')} it can`,
		{
			description:
				'The trigger keeps one fingerprint per lead in the workflow, and stops at this bound instead of growing without end. Nothing was emitted and what it remembers is unchanged. Use the webhook trigger (CRM Invoicing Trigger) for this workspace, or archive and delete leads you no longer need.',
		},
	);
}

const onlyNew = (settings: PollSettings): boolean =>
	!settings.events.includes('updatedLead') && !settings.events.includes('archivedLead');

/** A warning in n8n's log, under the node's name. */
function warn(context: IPollFunctions, message: string): void {
	context.logger.warn(`${context.getNode().name}: ${message}`);
}

/** The list as the poll reads it: page by page, each page after the node's share of the key allows it (rule 1). */
async function* leadPages(context: IPollFunctions, budget: Budget) {
	const share = keyShare((await credentialOf(context)).keyId, budget.share);
	await share.take();
	const pages = readPages.call(context, {
		path: '/leads',
		pageSize: POLLING.pageSize,
		maxRecords: POLLING.maxLeads,
		// Rule 3: a poll reads at most what fits n8n's time budget for a poll at the node's share of the key.
		maxPages: budget.requestsPerFullRead,
		// No entry of the list stops the trigger: one that is not a lead is named and left out.
		skipEntry: (described, position, page) =>
			warn(
				context,
				`entry ${position} of page ${page} of the list ${LIST_PATH} is ${described}, not a lead (a JSON object); the trigger skipped it and read the others. This is a fault of the API or of a proxy in front of it.`,
			),
		narrow: `The polling trigger remembers at most ${POLLING.maxLeads.toLocaleString('en-US')} leads, and one poll reads at most ${budget.requestsPerFullRead} pages of ${POLLING.pageSize}: half of the credential's Requests per Minute (${budget.share} a minute) for n8n's time budget for one poll. Raise "Requests per Minute" in the credential if your plan allows, or use the webhook trigger (CRM Invoicing Trigger) for this workspace, or archive and delete leads you no longer need.`,
	});
	// A caller that stops reading returns at the `yield`: no turn is taken for a page it does not read.
	for await (const page of pages) {
		yield page;
		if (page.nextCursor !== null) await share.take();
	}
}

/** What a poll found: the items to emit (New Lead oldest first, then Updated, then Archived), and what to remember. */
export interface Diff {
	items: INodeExecutionData[];
	/** Lead id → fingerprint of every lead listed (marked unreadable where it could not be emitted). */
	seen: Record<string, string>;
	/** The newest createdAt among the leads listed. */
	newest?: number;
	/** Leads skipped, and why, for n8n's log. */
	warnings: string[];
}

/**
 * The diff, a pure function: the leads read against what the node remembers (`memory.fields` gains the slots of new
 * top-level keys). No request, no clock, no log: the caller reads before and saves after.
 */
export function diff(
	memory: Memory,
	records: IDataObject[],
	settings: PollSettings,
	first: boolean,
): Diff {
	const wantsNew = settings.events.includes('newLead');
	const wantsUpdated = settings.events.includes('updatedLead');
	const wantsArchived = settings.events.includes('archivedLead');
	const warnings: string[] = [];
	const ids = records.map(leadIdOf);
	const newItems: Array<{ record: IDataObject; time: number; index: number }> = [];
	const updatedItems: INodeExecutionData[] = [];
	const archivedItems: INodeExecutionData[] = [];
	const seen: Record<string, string> = {};
	// The newest createdAt remembered: after a full read, of the leads listed (a deleted newest lead no longer counts).
	let newest: number | undefined;
	for (let index = 0; index < records.length; index++) {
		const record = records[index];
		const id = ids[index];
		if (id === undefined) {
			warnings.push(
				`lead ${index + 1} of the list ${LIST_PATH}, ${nameOf(record)}, has no id, so the trigger cannot tell it apart from the others; it skipped it. This is a fault of the API or of a proxy in front of it.`,
			);
			continue;
		}
		if (seen[id] !== undefined) continue; // The same lead twice in one listing: compared once.
		const time = createdAtOf(record);
		if (!Number.isNaN(time) && (newest === undefined || time > newest)) newest = time;
		const old = memory.leads[id];
		const print = fingerprint(record, memory.fields);
		const deep = fieldTooDeep(record, POLLING.maxEmitDepth);
		if (deep !== undefined) {
			seen[id] = unreadable(print);
			if (old !== seen[id]) {
				warnings.push(
					`lead ${nameOf(record, id)} was not emitted: its field "${deep.slice(0, 80)}" is nested more than ${POLLING.maxEmitDepth} levels deep, more than n8n can store in an execution. The trigger skipped it and emitted the other leads; it emits it as New Lead once the CRM holds it within that depth.`,
				);
			}
			continue;
		}
		seen[id] = print;
		if (old === undefined || isUnreadable(old)) {
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

	// New leads oldest first (by createdAt, then by list position), so a workflow sees them in creation order.
	newItems.sort((a, b) =>
		Number.isNaN(a.time) || Number.isNaN(b.time) || a.time === b.time
			? a.index - b.index
			: a.time - b.time,
	);
	const items = [
		...newItems.map(({ record }) => item(record, settings, 'newLead')),
		...updatedItems,
		...archivedItems,
	];
	return { items, seen, newest, warnings };
}

/**
 * One poll. Reads GET /leads through the one list reader (pacing, retries, caps and errors come with it), compares it
 * with what the node remembers, and returns the items to emit (null when there are none). The memory is written
 * only when the poll succeeded. A lead the trigger cannot emit (no id, nested too deep for n8n to store) is named in
 * a warning in n8n's log and skipped; the others are emitted.
 */
export async function pollLeads(
	this: IPollFunctions,
	settings: PollSettings,
): Promise<INodeExecutionData[][] | null> {
	const staticData = this.getWorkflowStaticData('node');
	const before = loadMemory(staticData);
	const first = before === undefined;
	const memory: Memory = before ?? {
		v: 1,
		leads: {},
		gone: {},
		fields: [],
		order: 'unknown',
		count: 0,
	};
	const budget = await budgetOf(this);
	if (!first) checkBudget(this, memory, onlyNew(settings), budget);

	const now = Date.now();
	// With New Lead alone a poll may stop at the head of a newest-first list, unless a full read is due (the bound on
	// finding a lead listed out of order, e.g. an import that keeps old creation dates).
	const due = memory.fullAt === undefined || now - memory.fullAt >= settings.fullReadEveryMs;
	const mayStopAtHead = !first && onlyNew(settings) && !due;
	const head = new HeadCheck(memory.newest, memory.leads);

	const records: IDataObject[] = [];
	let fullRead = true;
	let fellBack = false;
	for await (const page of leadPages(this, budget)) {
		for (const record of page.records) records.push(record);
		if (mayStopAtHead && !fellBack) {
			if (head.page(page.records, page.records.map(leadIdOf)) && page.nextCursor !== null) {
				fullRead = false;
				break;
			}
			const full = fullReadCost(Math.max(memory.count, records.length));
			if (head.broken && full > budget.requestsPerPoll) {
				// The head did not prove the order: this poll reads the whole list (rule 3 still bounds it), and takes
				// longer than its poll interval at the node's share; poll times that come meanwhile are skipped.
				warn(
					this,
					`this poll reads the whole lead list (about ${full} requests), because its first page does not show the newest leads first; that is more than the ${budget.requestsPerPoll} that fit before the next poll time at half the API's rate, so it takes up to ${minutesText(Math.ceil(full / budget.share))} and poll times meanwhile are skipped. ${budgetAdvice(budget, full)}`,
				);
			}
			fellBack = head.broken;
		}
	}

	const { items, seen, warnings, newest: listed } = diff(memory, records, settings, first);
	for (const message of warnings) warn(this, message);
	let newest = listed;

	// The new memory: the leads remembered, updated with those read. After a full read, a lead no longer listed is
	// marked gone, and forgotten once it has been gone for POLLING.forgetAfterMs.
	const leads = Object.assign(memory.leads, seen);
	const gone = memory.gone;
	if (fullRead) {
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
	if (!fullRead && memory.newest !== undefined && (newest === undefined || memory.newest > newest))
		newest = memory.newest;
	const count = Object.keys(leads).length;
	if (count > POLLING.maxLeads) throw capError(this, count);
	const order: ListOrder = fullRead ? orderOf(records.map(createdAtOf)) : 'newest';
	const next: Memory = {
		v: 1,
		leads,
		gone,
		fields: memory.fields,
		newest,
		order,
		count: fullRead ? records.length : Math.max(memory.count, count),
		fullAt: fullRead ? now : memory.fullAt,
	};
	saveMemory(staticData, next);
	// The first poll learns the list's size: a workflow that cannot afford its next polls fails now, at activation.
	if (first) checkBudget(this, next, onlyNew(settings), budget);

	return items.length > 0 ? [items] : null;
}

/**
 * "Fetch Test Event": the most recent lead (by createdAt), as an item of the first selected event. Reads the first
 * page; when it cannot tell from that page that it holds the newest lead, the whole list, at the node's share of the
 * key like a poll. Never reads or writes what the trigger remembers.
 */
export async function sampleLead(
	this: IPollFunctions,
	settings: PollSettings,
): Promise<INodeExecutionData[][]> {
	const budget = await budgetOf(this);
	let best: IDataObject | undefined;
	let bestTime = -Infinity;
	let pageNumber = 0;
	for await (const page of leadPages(this, budget)) {
		pageNumber++;
		for (const record of page.records) {
			const time = createdAtOf(record);
			if (fieldTooDeep(record, POLLING.maxEmitDepth) !== undefined) continue;
			if (best === undefined || time > bestTime) {
				best = record;
				bestTime = Number.isNaN(time) ? bestTime : time;
			}
		}
		// A first page in newest-first order starts with the newest lead: no need to read on.
		if (pageNumber === 1 && orderOf(page.records.map(createdAtOf)) === 'newest') break;
	}
	if (best === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			'The CRM has no leads yet, so there is no lead to show as a test event',
			{
				description:
					'Create a lead in the CRM (or with the CRM Invoicing node), then fetch a test event again.',
			},
		);
	}
	const event = settings.events[0] ?? 'newLead';
	return [[item(best, settings, event, event === 'updatedLead' ? [] : undefined)]];
}

import {
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type IPollFunctions,
} from 'n8n-workflow';

import { idText, msLeft, readPages, simplify, takeShare } from '../shared';
import { budgetOf, capError, NARROW_TEXT, NO_TURN_TEXT, POLLING } from './budget';
import {
	changedFields,
	createdAtOf,
	decodePrint,
	encodePrint,
	fingerprint,
	type Fingerprint,
	headOf,
	newestFirst,
} from './leads';
import { isStale, loadMemory, nodeData, remember, saveMemory, type Memory } from './memory';

/** Each item carries one in `_event`. */
export type LeadEvent = 'newLead' | 'updatedLead' | 'archivedLead';

export interface PollSettings {
	events: LeadEvent[];
	simplify: boolean;
	/** A backfill on the first poll. */
	includeExisting: boolean;
	/** With New Lead on a newest-first list: the age of the last full read that makes a poll read the whole list. */
	fullReadEveryMs: number;
}

/** `_event` is not one of the API's fields. */
function item(record: IDataObject, settings: PollSettings, event: LeadEvent, fields?: string[]) {
	const json = settings.simplify ? simplify('lead', record) : { ...record };
	json._event = event;
	if (fields) json._changedFields = fields;
	return { json };
}

function nameOf(record: IDataObject, id = 'without an id') {
	if (typeof record.name !== 'string') return id;
	return `${id} ("${record.name.slice(0, 80)}")`;
}

const API_FAULT = 'This is a fault of the API or of a proxy in front of it.';
const isNotArchived = (name: string) => name !== 'archived';

/** Prefixed with the node's name, as n8n's own logs are not. */
export function warn(context: IPollFunctions, message: string) {
	context.logger.warn(`${context.getNode().name}: ${message}`);
}

/** Each page after a turn of the key's share (rule 1); none asked for once the turn comes after the deadline, nor
 * where the next page would not fit the poll's budget (rule 2): a full read goes on from there at the next poll. */
async function* leadPages(context: IPollFunctions, startCursor?: string) {
	const { share, pages, deadline } = await budgetOf(context);
	const list = readPages.call(context, {
		path: '/leads',
		startCursor,
		maxRecords: POLLING.maxLeads,
		deadline,
		narrow: NARROW_TEXT,
		// No entry of the list stops the trigger: one that is not a lead is named and left out.
		skipEntry: (described, position, page) =>
			warn(
				context,
				`entry ${position} of page ${page} of the list /api/v1/leads is ${described}, not a lead (a JSON object); the trigger skipped it and read the others. ${API_FAULT}`,
			),
	});
	let slowest = 0;
	let last = Date.now();
	// Pages of the API's maximum size, the fewest requests (none is asked for before `next`). A caller that stops
	// reading returns at the `yield`: no turn is taken for a page it does not read.
	while (await takeShare(context, share, msLeft(deadline))) {
		const { value: page } = await list.next();
		if (!page) return;
		yield page;
		slowest = Math.max(slowest, Date.now() - last);
		last = Date.now();
		// The list's end, or the budget's.
		if (page.nextCursor === null || page.number >= pages || msLeft(deadline) < slowest) return;
	}
}

/** With `head` (New Lead alone), stops also where the leads read prove the head of a newest-first list (headOf), with
 * no cursor. */
async function readLeads(context: IPollFunctions, head?: Memory, startCursor?: string) {
	const records: IDataObject[] = [];
	let cursor = startCursor;
	for await (const page of leadPages(context, startCursor)) {
		records.push(...page.records);
		if (page.nextCursor === null) return { records, reach: 'full' as const };
		if (headOf(records, head)) return { records, reach: 'part' as const };
		cursor = page.nextCursor;
	}
	return { records, reach: 'part' as const, cursor };
}

function changeOf(old: Fingerprint, print: Fingerprint, record: IDataObject, context: DiffContext) {
	// Slots appended since the lead was remembered make the stored text longer, not the lead changed (its state is
	// one of its fields: the same whole, the same state).
	if (old.whole === print.whole) return;
	let names = changedFields(old, print, context.fields);
	if (
		old.state !== 'archived' &&
		print.state === 'archived' &&
		context.events.includes('archivedLead')
	) {
		context.archived.push(item(record, context, 'archivedLead'));
		// Other fields changed with `archived` make an Updated Lead item of their own.
		names = names.filter(isNotArchived);
		if (names.length === 0) return;
	}
	if (context.events.includes('updatedLead'))
		context.updated.push(item(record, context, 'updatedLead', names));
}

/** The settings, with the field slots and the items of the leads that changed, as diff goes. */
interface DiffContext extends PollSettings {
	fields: string[];
	updated: INodeExecutionData[];
	archived: INodeExecutionData[];
}

/** Pure: no request, no clock, no log, the memory left as it was. `seen` is a Map: any id keys it. */
export function diff(memory: Memory | undefined, records: IDataObject[], settings: PollSettings) {
	// The first read after activation (one poll, or the polls of a full read spread over several) only remembers.
	const first = !memory || memory.pass?.first === true;
	const context: DiffContext = {
		...settings,
		fields: memory?.fields.slice() ?? [],
		updated: [],
		archived: [],
	};
	const warnings: string[] = [];
	const added: Array<{ record: IDataObject; time: number }> = [];
	const seen = new Map<string, string>();
	// The newest createdAt of the leads listed, in this poll and the earlier ones of its pass (after a full read, a
	// deleted newest lead no longer counts).
	let newest = memory?.pass?.newest;
	for (const [index, record] of records.entries()) {
		// '' for a lead without an id (or one of another type): named and skipped.
		const id = idText(record.id);
		if (!id) {
			warnings.push(
				`lead ${index + 1} of the list /api/v1/leads, ${nameOf(record)}, has no id, so the trigger cannot tell it apart from the others; it skipped it. ${API_FAULT}`,
			);
			continue;
		}
		if (seen.has(id)) continue; // The same lead twice in one listing: compared once.
		const time = createdAtOf(record);
		if (time > (newest ?? -Infinity)) newest = time; // NaN (no createdAt) compares false
		const print = fingerprint(record, context.fields);
		const stored = encodePrint(print);
		seen.set(id, stored);
		const before = memory?.leads.get(id);
		if (stored === before) continue; // Nothing changed (the common case: no decoding).
		if (print.deep !== undefined) {
			warnings.push(
				`lead ${nameOf(record, id)} was not emitted: its field "${print.deep.slice(0, 80)}" is nested more than ${POLLING.maxEmitDepth} levels deep, more than n8n can store in an execution. ` +
					'The trigger skipped it and emitted the other leads; it emits it as New Lead once the CRM holds it within that depth.',
			);
			continue;
		}
		const old = decodePrint(before);
		if (!old) {
			if (settings.events.includes('newLead') && (settings.includeExisting || !first))
				added.push({ record, time });
			continue;
		}
		changeOf(old, print, record, context);
	}
	// New leads oldest first (by createdAt, then by list position), so a workflow sees them in creation order.
	// The sort is stable: an equal createdAt, or a missing one (NaN compares as equal), keeps the list's order.
	added.sort((a, b) => a.time - b.time);
	const items = [
		...added.map(({ record }) => item(record, settings, 'newLead')),
		...context.updated,
		...context.archived,
	];
	return { items, seen, fields: context.fields, newest, first, warnings };
}

/** The memory is written only when the poll succeeded. A lead the trigger cannot emit is logged and skipped. */
export async function pollLeads(this: IPollFunctions, settings: PollSettings) {
	const staticData = nodeData(this);
	const memory = loadMemory(staticData);
	const now = Date.now();
	if (isStale(memory)) {
		this.logger.info(
			`${this.getNode().name}: the poll read an older memory than the last poll emitted with (n8n was still storing it); it was skipped, and the next poll goes on from the stored one.`,
		);
		return null;
	}
	// Only the head with New Lead alone, unless a full read is due (the bound on finding a lead listed out of order,
	// e.g. an import that keeps old creation dates) or one begun earlier goes on.
	const due = memory?.fullAt === undefined || now - memory.fullAt >= settings.fullReadEveryMs;
	const onlyNew =
		!settings.events.includes('updatedLead') && !settings.events.includes('archivedLead');
	const head = memory?.pass === undefined && onlyNew && !due ? memory : undefined;
	const read = await readLeads(this, head, memory?.pass?.cursor);
	if (read.reach === 'part' && read.records.length === 0) {
		// No turn of the key's share within the budget (other polling triggers on the key used it): the next poll.
		warn(this, NO_TURN_TEXT);
		return null;
	}
	const found = diff(memory, read.records, settings);
	for (const message of found.warnings) warn(this, message);

	const next = remember(memory, { ...found, ...read, due, now }, POLLING.forgetAfterMs);
	if (next.leads.size > POLLING.maxLeads) throw capError(this, next.leads.size);
	const emitted = found.items.length > 0;
	saveMemory(staticData, next, emitted);
	return emitted ? [found.items] : null;
}

/** A missing createdAt (NaN) is older than any. */
const timeOf = (lead: IDataObject) => createdAtOf(lead) || -Infinity;

/** The most recent lead, at the node's share of the key; never reads or writes what the trigger remembers. */
export async function sampleLead(this: IPollFunctions, settings: PollSettings) {
	let best: IDataObject | undefined;
	for await (const page of leadPages(this)) {
		for (const lead of page.records) {
			if (best && timeOf(lead) <= timeOf(best)) continue;
			if (fingerprint(lead, []).deep === undefined) best = lead;
		}
		// A first page in newest-first order starts with the newest lead: no need to read on.
		if (page.number === 1 && newestFirst(page.records)) break;
	}
	if (!best) {
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

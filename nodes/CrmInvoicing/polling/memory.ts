import { randomUUID } from 'node:crypto';

import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { BoundedMap } from '../shared';

// In a poll the memory lives in Maps, which any id can key (`__proto__`, …); stored, it is the plain objects of
// earlier versions, own keys only read. docs/polling-trigger.md#under-n8ns-durable-scheduler

export interface Memory {
	v: 1;
	leads: Map<string, string>;
	/** When each was first missing: an API that leaves leads out for a while does not make them new again. */
	gone: Map<string, number>;
	/** Slot order; only ever appended. */
	fields: string[];
	/** Leads created later are new. */
	newest?: number;
	/** With New Lead on a newest-first list, the next full read is due a Full Read Interval on. */
	fullAt?: number;
	/** A full read that spans polls: the next poll goes on from its cursor. Whether it is due is asked again at its
	 * end: the time of the last one stays as it was meanwhile, so a read due at its start is due at its end. */
	pass?: {
		cursor: string;
		/** At its end, the leads remembered but not among them are gone. */
		read: string[];
		newest?: number;
		/** Its leads are only remembered (unless Include Existing). */
		first: boolean;
	};
	/** New at each emission: a poll that reads the tag this process last emitted from reads a stale copy. */
	tag?: string;
}

/** A longer cursor is not kept: the next poll starts the full read over. */
const MAX_CURSOR_CHARS = 2_000;

/** The poller's memory is n8n's static data of this node: this file is the one that reaches it. */
export const nodeData = (context: IPollFunctions) => context.getWorkflowStaticData('node');

/** Undefined before the first poll, or after the format changed. */
export function loadMemory(data: IDataObject): Memory | undefined {
	if (data.v !== 1) return undefined;
	// As this trigger wrote it (every version with v wrote leads, gone and fields). 0.3.0's `order` and `count` come
	// along unread: remember() builds the next memory from the named keys alone.
	return {
		...(data as unknown as Memory),
		leads: new Map(Object.entries(Object(data.leads))),
		gone: new Map(Object.entries(Object(data.gone))),
	};
}

export interface Reading {
	seen: Map<string, string>;
	fields: string[];
	newest?: number;
	/** The first read after activation, which only remembers (unless Include Existing); it may span polls. */
	first: boolean;
	/** `part`: a full read cut by the poll's budget, to go on from `cursor`; or, without one, the head of a newest-first
	 * list. */
	reach: 'full' | 'part';
	cursor?: string;
	due: boolean;
	now: number;
}

/** `fullAt` moves only when the periodic full read ends, so a poll that read nothing new leaves the memory as it was
 * (n8n then has nothing to write). */
export function remember(before: Memory | undefined, reading: Reading, forgetAfterMs: number) {
	const { seen, fields, cursor, newest, first, now } = reading;
	const memory: Memory = {
		v: 1,
		leads: before?.leads ?? new Map(),
		gone: before?.gone ?? new Map(),
		fields,
		newest: before?.newest,
		fullAt: before?.fullAt,
		tag: before?.tag ?? randomUUID(),
	};
	const { leads, gone } = memory;
	for (const [id, print] of seen) leads.set(id, print);
	const read = new Set([...(before?.pass?.read ?? []), ...seen.keys()]);
	if (reading.reach === 'part') {
		if (cursor && cursor.length <= MAX_CURSOR_CHARS)
			memory.pass = { cursor, read: [...read], newest, first };
		if (newest !== undefined) memory.newest = Math.max(memory.newest ?? newest, newest);
		return memory;
	}
	// A lead remembered but not read is gone since it was first missing, and forgotten forgetAfterMs on.
	for (const id of leads.keys()) {
		const since = gone.get(id) ?? now;
		if (read.has(id)) gone.delete(id);
		else if (now - since < forgetAfterMs) gone.set(id, since);
		else {
			leads.delete(id);
			gone.delete(id);
		}
	}
	memory.newest = newest;
	if (reading.due) memory.fullAt = now;
	return memory;
}

const COMMIT_WAIT_MS = 60_000;

/** Until when a memory this process emitted from (by its tag), which the emission's memory replaced, is a stale copy. */
const emissions = new BoundedMap<string | undefined, number>(10_000);

/** n8n's durable scheduler can start a poll with a cursor read before the last commit. Only within COMMIT_WAIT_MS:
 * later an emission n8n did not store is emitted again, never lost. */
export function isStale(memory: Memory | undefined) {
	return Date.now() < (emissions.peek(memory?.tag) ?? 0);
}

/** Each key whole, so n8n notices; any other dropped (0.4.0's `order`). Nothing when it is as stored: any set or
 * delete, even of the same value, makes n8n write the static data, and a poll that changed nothing writes nothing.
 * Object.fromEntries defines even `__proto__` as an own property. */
export function saveMemory(data: IDataObject, memory: Memory, emitted = false) {
	// The memory stored with an emission gets a new tag; the one it was read with is a stale copy's (isStale).
	if (emitted) {
		emissions.set(memory.tag, Date.now() + COMMIT_WAIT_MS);
		memory.tag = randomUUID();
	}
	const stored = {
		...memory,
		leads: Object.fromEntries(memory.leads),
		gone: Object.fromEntries(memory.gone),
	};
	if (JSON.stringify(stored) === JSON.stringify(data)) return;
	for (const key of Object.keys(data)) delete data[key];
	Object.assign(data, stored);
}

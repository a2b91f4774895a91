import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { BoundedMap, isText } from '../shared';

/**
 * What the polling trigger remembers between polls, in the node's static data: one short fingerprint per lead, by
 * lead id, and what the last poll learned of the list. n8n saves it with the workflow, or, under n8n 2.41's durable
 * scheduler with durable cursors, as the node's cursor row (re-read before each poll, written when a poll changed it).
 * In a poll it lives in Maps, which any id can key (`constructor`, `__proto__`, `toString`, …); the stored form is the
 * plain objects of earlier versions, whose own keys only are read.
 */

export interface Memory {
	v: 1;
	/** Lead id → fingerprint, as stored (lead.ts: encodePrint). */
	leads: Map<string, string>;
	/**
	 * Leads remembered that the last full reads did not list, with when they were first missing (ms). They are
	 * forgotten after POLLING.forgetAfterMs: an API or proxy that leaves leads out for a while (or answers an empty
	 * list) does not make them new again when they come back.
	 */
	gone: Map<string, number>;
	/** The names of the fingerprints' field slots, in slot order (slots are only ever appended). */
	fields: string[];
	/** The latest createdAt (ms) of any lead remembered; leads created later are new. */
	newest?: number;
	/** When the last full read was (ms): with New Lead on a newest-first list, the next is due a Full Read Interval on. */
	fullAt?: number;
	/** A full read that did not fit one poll's budget: the next poll goes on from its cursor. */
	pass?: Pass;
	/** This memory's own id, made when it is first written, and how many polls emitted with it (poll.ts: a poll that
	 * reads an older generation of the same memory reads a stale copy). */
	id?: string;
	gen?: number;
}

/** A full read spread over several polls. */
export interface Pass {
	/** The list's cursor after the last page read: the next poll reads on from there. */
	cursor: string;
	/** The ids read so far in this full read: at its end, the leads remembered but not among them are gone. */
	read: string[];
	/** The newest createdAt (ms) read so far in this full read. */
	newest?: number;
	/** Whether this full read was the periodic one (Full Read Interval): its end sets `fullAt`. */
	due: boolean;
	/** The first read after activation: the leads it finds are only remembered (unless Include Existing). */
	first: boolean;
}

/** The longest list cursor a pass keeps (a longer one is not kept: the next poll starts the full read over). */
const MAX_CURSOR_CHARS = 2_000;

/** A stored object's own entries whose values have the type wanted (anything else is not the trigger's). */
function mapOf<T extends string | number>(
	stored: unknown,
	type: 'string' | 'number',
): Map<string, T> {
	const map = new Map<string, T>();
	if (!stored || typeof stored !== 'object') return map;
	for (const [key, value] of Object.entries(stored))
		if (typeof value === type) map.set(key, value as T);
	return map;
}

const numberOr = (value: unknown): number | undefined =>
	typeof value === 'number' && Number.isFinite(value) ? value : undefined;

function passOf(stored: unknown): Pass | undefined {
	if (!stored || typeof stored !== 'object') return undefined;
	const { cursor, read, newest, due, first } = stored as IDataObject;
	if (typeof cursor !== 'string' || cursor === '' || !Array.isArray(read)) return undefined;
	const ids = read.filter(isText);
	return { cursor, read: ids, newest: numberOr(newest), due: due === true, first: first === true };
}

/** The memory in the node's static data, or undefined before the first poll (or after the format changed). */
export function loadMemory(data: IDataObject): Memory | undefined {
	if (data.v !== 1 || !data.leads || typeof data.leads !== 'object') return undefined;
	const fields = Array.isArray(data.fields) ? data.fields.filter(isText) : [];
	return {
		v: 1,
		leads: mapOf<string>(data.leads, 'string'),
		gone: mapOf<number>(data.gone, 'number'),
		fields,
		newest: numberOr(data.newest),
		fullAt: numberOr(data.fullAt),
		pass: passOf(data.pass),
		id: typeof data.id === 'string' ? data.id : undefined,
		gen: numberOr(data.gen),
	};
}

/** What one poll read (diff's result, and how far it got), for `remember`. */
export interface Reading {
	/** Each lead read, by id: its fingerprint as stored. */
	seen: Map<string, string>;
	fields: string[];
	/** The newest createdAt read. */
	newest?: number;
	/** `full`: the list to its end (or the rest of a pass); `head`: the head of a newest-first list; `part`: part of a
	 * full read that the poll's budget cut, to go on from `cursor`. */
	reach: 'full' | 'head' | 'part';
	cursor?: string;
	/** This read is (or goes on with) the periodic full read. */
	due: boolean;
	now: number;
}

/** Leads not read by a whole full read are gone; gone for POLLING.forgetAfterMs, forgotten. */
function markGone(
	memory: Memory,
	read: Set<string>,
	reading: Reading,
	forgetAfterMs: number,
): void {
	for (const id of [...memory.leads.keys()]) {
		if (read.has(id)) {
			memory.gone.delete(id);
			continue;
		}
		const since = memory.gone.get(id) ?? reading.now;
		memory.gone.set(id, since);
		if (reading.now - since >= forgetAfterMs) {
			memory.leads.delete(id);
			memory.gone.delete(id);
		}
	}
}

function later(a?: number, b?: number): number | undefined {
	if (a === undefined) return b;
	if (b === undefined) return a;
	return Math.max(a, b);
}

/**
 * The memory after a poll: the leads remembered, updated with those read. A full read (whole, or the last part of a
 * pass) marks the leads it did not list gone and sets the newest createdAt to the newest listed; a part of one keeps
 * its place (`pass`) for the next poll. `fullAt` moves only when the periodic full read ends, so a poll that read
 * nothing new leaves the memory as it was (n8n then has nothing to write).
 */
export function remember(
	before: Memory | undefined,
	reading: Reading,
	forgetAfterMs: number,
): Memory {
	const memory: Memory = {
		v: 1,
		leads: before?.leads ?? new Map(),
		gone: before?.gone ?? new Map(),
		fields: reading.fields,
		newest: before?.newest,
		fullAt: before?.fullAt,
		id: before?.id ?? randomUUID(),
		gen: before?.gen,
	};
	for (const [id, print] of reading.seen) memory.leads.set(id, print);
	const pass = before?.pass;
	const read = new Set([...(pass?.read ?? []), ...reading.seen.keys()]);
	const newest = later(pass?.newest, reading.newest);
	if (reading.reach === 'part') {
		const kept = reading.cursor !== undefined && reading.cursor.length <= MAX_CURSOR_CHARS;
		const first = before === undefined || pass?.first === true;
		const cursor = reading.cursor as string;
		if (kept) memory.pass = { cursor, read: [...read], newest, due: reading.due, first };
		memory.newest = later(memory.newest, newest);
		return memory;
	}
	if (reading.reach === 'head') {
		memory.newest = later(memory.newest, newest);
		return memory;
	}
	markGone(memory, read, reading, forgetAfterMs);
	memory.newest = newest;
	if (reading.due || pass?.due === true) memory.fullAt = reading.now;
	return memory;
}

/** A Map as a stored object: every key an own property (Object.fromEntries defines even `__proto__` as one). */
const objectOf = (map: Map<string, string | number>): IDataObject => Object.fromEntries(map);

/**
 * Writes the memory into the static data, each key whole (so n8n notices), dropping any other (0.4.0's `order`).
 * Under the durable scheduler n8n writes the cursor row only when it differs from the one read before the poll.
 */
export function saveMemory(data: IDataObject, memory: Memory): void {
	const stored: IDataObject = {
		v: memory.v,
		leads: objectOf(memory.leads),
		gone: objectOf(memory.gone),
		fields: memory.fields,
		newest: memory.newest,
		fullAt: memory.fullAt,
		pass: memory.pass === undefined ? undefined : { ...memory.pass },
		id: memory.id,
		gen: memory.gen,
	};
	for (const key of Object.keys(data)) delete data[key];
	for (const [key, value] of Object.entries(stored)) if (value !== undefined) data[key] = value;
}

/** How long a poll takes a stored memory older than this process's last emission for one n8n has not stored yet. */
const COMMIT_WAIT_MS = 60_000;

/** Each node's memory (id and generation) at its last emission in this process, and when. */
const emissions = new BoundedMap<string, { id?: string; gen: number; at: number }>(10_000);

/**
 * Whether the memory read is older than the one this process last emitted with, less than COMMIT_WAIT_MS ago: n8n's
 * durable scheduler can start a poll with a cursor it read before the last execution's commit (at start-up, the poll
 * at activation and the first scheduled poll). Later, the stored memory is taken as it is: an emission n8n did not
 * store is emitted again, never lost.
 */
export function isStale(key: string, memory: Memory | undefined, now: number): boolean {
	const last = emissions.peek(key);
	if (memory === undefined || last === undefined || memory.id !== last.id) return false;
	return now - last.at < COMMIT_WAIT_MS && (memory.gen ?? 0) < last.gen;
}

/** The memory a poll emits with: its next generation, noted for `isStale`. */
export function markEmitted(key: string, memory: Memory, now: number): void {
	memory.gen = (memory.gen ?? 0) + 1;
	emissions.set(key, { id: memory.id, gen: memory.gen, at: now });
}

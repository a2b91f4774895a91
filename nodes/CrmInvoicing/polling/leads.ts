import type { IDataObject } from 'n8n-workflow';

import { sha256 } from '../shared';
import { POLLING } from './budget';
import type { Memory } from './memory';

/** What the trigger reads of the leads: ids, createdAt and the list's order, how deep a lead nests, fingerprints. */

/** The lead's id, or undefined when it has none the trigger can use (the caller warns and skips it). */
export function leadIdOf(record: IDataObject): string | undefined {
	const id = record.id;
	if (typeof id === 'string' && id !== '') return id;
	if (typeof id === 'number' && Number.isFinite(id)) return String(id);
	return undefined;
}

/** A lead's createdAt in ms, or NaN when it has none the trigger can read. */
export const createdAtOf = (record: IDataObject): number =>
	typeof record.createdAt === 'string' ? Date.parse(record.createdAt) : NaN;

/** Whether leads (in list order) show the newest first: createdAt never increases along them, and decreases. */
export function newestFirst(records: IDataObject[]): boolean {
	const times = records.map(createdAtOf);
	let down = false;
	for (let i = 1; i < times.length; i++) {
		if (!(times[i] <= times[i - 1])) return false; // NaN, or later than the one before
		down ||= times[i] < times[i - 1];
	}
	return down;
}

/**
 * The head of a newest-first list: whether the leads read so far (in list order) let the poll stop reading
 * (`enough`): they prove the list newest first down to a lead older than every lead remembered (the first is at least
 * as new as the newest remembered, createdAt never increases, the last is older), so none further down is new by its
 * createdAt. A lead it does not know that is older than the newest remembered breaks the proof (`broken`): the poll
 * reads the whole list. Leads listed out of order further down are the periodic full read's (docs: List order).
 */
export function headOf(records: IDataObject[], memory: Memory): 'enough' | 'more' | 'broken' {
	const newest = memory.newest;
	if (newest === undefined) return 'broken';
	let previous: number | undefined;
	for (const record of records) {
		const time = createdAtOf(record);
		const id = leadIdOf(record);
		if (Number.isNaN(time) || (previous === undefined ? time < newest : time > previous))
			return 'broken';
		if (time < newest && (id === undefined || !memory.leads.has(id))) return 'broken';
		previous = time;
	}
	return previous !== undefined && previous < newest ? 'enough' : 'more';
}

/**
 * JSON with object keys sorted, so that the same value always gives the same text (key order is not meaningful), or
 * undefined when an object or array sits more than `levels` levels down (`value` itself is level 1). The recursion is
 * bounded by `levels`, so a lead nested past any stack costs no more than one at the bound; the text is that of
 * earlier versions (`undefined` written as `undefined`), so fingerprints stay theirs.
 */
export function stableJson(value: unknown, levels: number): string | undefined {
	if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
	if (levels < 1) return undefined;
	const array = Array.isArray(value);
	const parts: string[] = [];
	for (const key of array ? value.keys() : Object.keys(value).sort()) {
		const text = stableJson((value as Record<string | number, unknown>)[key], levels - 1);
		if (text === undefined) return undefined;
		parts.push(array ? text : `${JSON.stringify(key)}:${text}`);
	}
	return array ? `[${parts.join(',')}]` : `{${parts.join(',')}}`;
}

/** The slot that stands for every top-level key past POLLING.maxFieldSlots. */
export const OTHER_FIELDS = '(other fields)';

/** What the trigger remembers of a lead between polls. */
export interface Fingerprint {
	/** `unreadable`: seen, but nested too deep to emit; when it changes into one the trigger can emit, it is new. */
	state: 'live' | 'archived' | 'unreadable';
	/** 8 characters (48 bits) of the SHA-256 of the whole record: whether anything changed. */
	whole: string;
	/** Two characters per field slot (the memory's `fields`, in order): which fields changed. */
	slots: string[];
	/** Of an `unreadable` lead: its first field nested past POLLING.maxEmitDepth (`whole` and `slots` are empty). */
	deep?: string;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The slot of a field the lead does not have. Not in ALPHABET, so never equal to a value's slot. */
const ABSENT = '..';

/**
 * 12 bits of FNV-1a (32-bit) of a field's text, as two base64url characters (ABSENT for a field the lead does not
 * have): enough to name a changed field, and cheap where SHA-256 is not (a poll of 10,000 leads hashes about 140,000
 * field values).
 */
function fieldPair(text: string | undefined): string {
	if (text === undefined) return ABSENT;
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193);
	}
	hash >>>= 0;
	return ALPHABET[hash & 63] + ALPHABET[(hash >>> 6) & 63];
}

/** A lead's fingerprint. `fields` gains the record's new top-level keys as slots (slots are only ever appended). */
export function fingerprint(record: IDataObject, fields: string[]): Fingerprint {
	// Each field is written once: the whole record's text (stableJson's) is made of the fields' texts.
	const keys = Object.keys(record);
	const text = new Map<string, string>();
	for (const key of keys) {
		// A field's value may nest POLLING.maxEmitDepth - 1 levels (the record is level 1).
		const json = stableJson(record[key], POLLING.maxEmitDepth - 1);
		// Too deep to emit: remembered by that alone, so it is named once, not at every poll while it stays so.
		if (json === undefined) return { state: 'unreadable', whole: '', slots: [], deep: key };
		text.set(key, json);
	}
	const whole = [...keys].sort().map((key) => `${JSON.stringify(key)}:${text.get(key)}`);
	// A new top-level key takes the next slot while there is one; the keys past them share the last, OTHER_FIELDS.
	const others: string[] = [];
	for (const key of keys) {
		if (key === 'id' || fields.includes(key)) continue;
		if (fields.length < POLLING.maxFieldSlots - 1) fields.push(key);
		else others.push(`${key}=${text.get(key)}`);
	}
	if (others.length > 0 && !fields.includes(OTHER_FIELDS)) fields.push(OTHER_FIELDS);
	const slotText = (field: string) =>
		field !== OTHER_FIELDS ? text.get(field) : others.sort().join('\n') || undefined;
	return {
		state: record.archived === true ? 'archived' : 'live',
		whole: sha256(`{${whole.join(',')}}`, 8),
		slots: fields.map((field) => fieldPair(slotText(field))),
	};
}

/**
 * The names of the fields whose slots differ between two fingerprints of one lead. Rarely (1 in 4,096 per changed
 * field) a change is not seen in its slot; `whole` still tells it, and the list may then be empty.
 */
export const changedFields = (
	before: Fingerprint,
	after: Fingerprint,
	fields: string[],
): string[] =>
	fields.filter((_, slot) => (before.slots[slot] ?? ABSENT) !== (after.slots[slot] ?? ABSENT));

/**
 * A fingerprint as the memory stores it (about 40 characters for a lead of the spec's 14 fields): the state's
 * letter, `whole`, then the slots. The format of earlier versions, so an upgrade finds every lead unchanged.
 */
const LETTER = { live: 'l', archived: 'a', unreadable: 'x' } as const;

export const encodePrint = (print: Fingerprint): string =>
	LETTER[print.state] + print.whole + print.slots.join('');

const STATE_OF: Record<string, Fingerprint['state'] | undefined> = {
	a: 'archived',
	x: 'unreadable',
};

export function decodePrint(text: string): Fingerprint {
	const state = STATE_OF[text[0]] ?? 'live';
	return { state, whole: text.slice(1, 9), slots: text.slice(9).match(/../g) ?? [] };
}

import type { IDataObject } from 'n8n-workflow';

import { sha256 } from '../shared';
import { POLLING } from './budget';
import type { ListOrder, Memory } from './memory';

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

/** The order a whole list is in, by createdAt. */
export function orderOf(records: IDataObject[]): ListOrder {
	const times = records.map(createdAtOf);
	let up = false;
	let down = false;
	for (let i = 1; i < times.length; i++) {
		if (Number.isNaN(times[i]) || Number.isNaN(times[i - 1])) return 'mixed';
		up ||= times[i] > times[i - 1];
		down ||= times[i] < times[i - 1];
	}
	return up && down ? 'mixed' : down ? 'newest' : up ? 'oldest' : 'unknown';
}

/**
 * The head of a newest-first list: whether the leads read so far (in list order) let the poll stop reading.
 *
 * It may (`enough`) when they prove the list is newest first down to a lead older than every lead remembered: the
 * first lead is at least as new as the newest remembered, createdAt never increases along them, and the last is older
 * than the newest remembered. Then every lead further down is older still, so none is new by its createdAt. A lead it
 * does not know that is older than the newest remembered breaks that proof (`broken`: the API does not list by
 * creation, or mixes orders), and the poll reads the whole list. A lead listed out of order further down (an import
 * that keeps old creation dates) is found by the periodic full read (Full Read Interval).
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
		if (time < newest && (id === undefined || memory.leads[id] === undefined)) return 'broken';
		previous = time;
	}
	return previous !== undefined && previous < newest ? 'enough' : 'more';
}

/**
 * The first top-level field of a record nested deeper than `limit` levels (the record itself is level 1), or
 * undefined. Iterative, and it stops at the first value past the limit.
 */
export function fieldTooDeep(record: IDataObject, limit: number): string | undefined {
	for (const field of Object.keys(record)) {
		const stack: Array<[unknown, number]> = [[record[field], 2]];
		for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
			const [value, depth] = entry;
			if (value === null || typeof value !== 'object') continue;
			if (depth > limit) return field;
			for (const child of Array.isArray(value) ? value : Object.values(value))
				stack.push([child, depth + 1]);
		}
	}
	return undefined;
}

/** Text stableJson writes as it is (a bracket, a comma, a key), told apart from the values still to write. */
class Raw {
	constructor(readonly text: string) {}
}
const COMMA = new Raw(',');

/**
 * JSON with object keys sorted, so that the same value always gives the same text (key order is not meaningful).
 * Iterative: any nesting JSON.parse accepts is written without recursion, as the same text the recursive form gave
 * (`undefined` written as `undefined`), so fingerprints stay those of earlier versions.
 */
export function stableJson(value: unknown): string {
	const out: string[] = [];
	const todo: unknown[] = [value];
	while (todo.length > 0) {
		const next = todo.pop();
		if (next instanceof Raw) out.push(next.text);
		else if (next === undefined) out.push('undefined');
		else if (next === null || typeof next !== 'object') out.push(JSON.stringify(next));
		else {
			const array = Array.isArray(next) ? (next as unknown[]) : undefined;
			const object = next as Record<string, unknown>;
			const keys = array ? array.keys() : Object.keys(object).sort();
			const parts: unknown[] = [new Raw(array ? '[' : '{')];
			for (const key of keys) {
				if (parts.length > 1) parts.push(COMMA);
				if (array) parts.push(array[key as number]);
				else parts.push(new Raw(`${JSON.stringify(key)}:`), object[key as string]);
			}
			parts.push(new Raw(array ? ']' : '}'));
			for (let index = parts.length - 1; index >= 0; index--) todo.push(parts[index]);
		}
	}
	return out.join('');
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
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The slot of a field the lead does not have. Not in ALPHABET, so never equal to a value's slot. */
const ABSENT = '..';

/**
 * 12 bits of FNV-1a (32-bit) of a text, as two base64url characters: enough to name a changed field, and cheap
 * where SHA-256 is not (a poll of 10,000 leads hashes about 140,000 field values).
 */
function fieldPair(text: string): string {
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
	const text = new Map(keys.map((key) => [key, stableJson(record[key])]));
	const whole = [...keys].sort().map((key) => `${JSON.stringify(key)}:${text.get(key)}`);
	const texts = new Map<string, string[]>();
	for (const key of keys) {
		if (key === 'id') continue;
		if (!fields.includes(key)) {
			if (fields.length < POLLING.maxFieldSlots - 1) fields.push(key);
			else if (!fields.includes(OTHER_FIELDS)) fields.push(OTHER_FIELDS);
		}
		const slot = fields.includes(key) ? key : OTHER_FIELDS;
		const list = texts.get(slot) ?? [];
		list.push(slot === OTHER_FIELDS ? `${key}=${text.get(key)}` : (text.get(key) as string));
		texts.set(slot, list);
	}
	return {
		state: record.archived === true ? 'archived' : 'live',
		whole: sha256(`{${whole.join(',')}}`, 8),
		slots: fields.map((field) => {
			const values = texts.get(field);
			return values === undefined ? ABSENT : fieldPair(values.sort().join('\n'));
		}),
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

export function decodePrint(text: string): Fingerprint {
	const state = text[0] === 'a' ? 'archived' : text[0] === 'x' ? 'unreadable' : 'live';
	return { state, whole: text.slice(1, 9), slots: text.slice(9).match(/../g) ?? [] };
}

import type { IDataObject } from 'n8n-workflow';

import { idText, sha256 } from '../shared';
import { POLLING } from './budget';
import type { Memory } from './memory';

export const createdAtOf = (record: IDataObject) =>
	typeof record.createdAt === 'string' ? Date.parse(record.createdAt) : NaN;

/** createdAt never increases along them, and decreases (the first is later than the last). */
export function newestFirst(records: IDataObject[]) {
	const times = records.map(createdAtOf);
	for (let i = 1; i < times.length; i++) if (!(times[i] <= times[i - 1])) return false; // NaN, or later
	return times[0] > times[times.length - 1];
}

/** Whether the leads read prove the list newest first down to one older than every lead remembered (no memory: no
 * head read, no). It answers no at
 * the first lead that disproves it (near the head, and there still when pages are added), so asking again at each
 * page costs little; an unknown lead older than the newest remembered disproves it for good. */
export function headOf(records: IDataObject[], memory?: Memory) {
	const newest = memory?.newest;
	if (newest === undefined) return false;
	let previous: number | undefined;
	for (const record of records) {
		const time = createdAtOf(record);
		if (Number.isNaN(time) || (previous === undefined ? time < newest : time > previous))
			return false;
		// A lead without an id ('') is not remembered either.
		if (time < newest && !memory?.leads.has(idText(record.id))) return false;
		previous = time;
	}
	return previous !== undefined && previous < newest;
}

/** Keys sorted (their order is not meaningful); undefined past `levels`, so recursion is bounded. The text is that of
 * earlier versions (`undefined` written out), so fingerprints stay theirs. */
export function stableJson(value: unknown, levels: number): string | undefined {
	if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
	if (levels < 1) return undefined;
	const array = Array.isArray(value);
	const parts: string[] = [];
	for (const key of array ? value.keys() : Object.keys(value).sort()) {
		const text = stableJson((value as IDataObject)[key], levels - 1);
		if (text === undefined) return undefined;
		parts.push(array ? text : `${JSON.stringify(key)}:${text}`);
	}
	return array ? `[${parts.join(',')}]` : `{${parts.join(',')}}`;
}

export const OTHER_FIELDS = '(other fields)';

export interface Fingerprint {
	/** `unreadable`: too deeply nested to emit; when it changes into one the trigger can emit, it is new. */
	state: 'live' | 'archived' | 'unreadable';
	/** 48 bits of SHA-256 of the whole record: whether anything changed. */
	whole: string;
	/** Two characters per field slot: which fields changed. */
	slots: string[];
	/** Its first field nested past POLLING.maxEmitDepth. */
	deep?: string;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Not in ALPHABET, so never equal to a value's slot. */
const ABSENT = '..';

/** 12 bits of FNV-1a: enough to name a changed field, and cheap where SHA-256 is not (10,000 leads: ~140,000 values). */
function fieldPair(text: string | undefined) {
	if (text === undefined) return ABSENT;
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193);
	}
	// `&` and `>>>` read the same 32 bits whatever the sign.
	return ALPHABET[hash & 63] + ALPHABET[(hash >>> 6) & 63];
}

/** Slots are only ever appended. */
export function fingerprint(record: IDataObject, fields: string[]): Fingerprint {
	// Each field is written once: the record's text is made of the fields' texts.
	const keys = Object.keys(record);
	const text = new Map<string, string>();
	const others: string[] = [];
	for (const key of keys) {
		// A field's value may nest POLLING.maxEmitDepth - 1 levels (the record is level 1).
		const json = stableJson(record[key], POLLING.maxEmitDepth - 1);
		// Remembered by that alone, so it is named once, not at every poll while it stays so.
		if (json === undefined) return { state: 'unreadable', whole: '', slots: [], deep: key };
		text.set(key, json);
		// A new top-level key takes the next slot while there is one; the keys past them share the last, OTHER_FIELDS.
		if (key === 'id' || fields.includes(key)) continue;
		if (fields.length < POLLING.maxFieldSlots - 1) fields.push(key);
		else others.push(`${key}=${json}`);
	}
	const whole = keys.sort().map((key) => `${JSON.stringify(key)}:${text.get(key)}`);
	if (others.length > 0 && !fields.includes(OTHER_FIELDS)) fields.push(OTHER_FIELDS);
	const otherText = others.sort().join('\n') || undefined;
	return {
		state: record.archived === true ? 'archived' : 'live',
		whole: sha256(`{${whole.join(',')}}`, 8),
		slots: fields.map((field) => fieldPair(field === OTHER_FIELDS ? otherText : text.get(field))),
	};
}

/** Rarely (1 in 4,096 per changed field) a slot misses a change; `whole` still tells it, and the list may be empty.
 * `after` is made against `fields` (a slot for each), `before` perhaps against fewer. */
export const changedFields = (before: Fingerprint, after: Fingerprint, fields: string[]) =>
	fields.filter((_, slot) => (before.slots[slot] ?? ABSENT) !== after.slots[slot]);

// Earlier versions' format, so that an upgrade finds every lead unchanged.
const LETTER = { live: 'l', archived: 'a', unreadable: 'x' };

export const encodePrint = (print: Fingerprint) =>
	LETTER[print.state] + print.whole + print.slots.join('');

/** Undefined for a lead not remembered, or remembered unreadable: either way it is new. */
export function decodePrint(text?: string): Fingerprint | undefined {
	if (!text || text[0] === LETTER.unreadable) return undefined;
	return {
		state: text[0] === LETTER.archived ? 'archived' : 'live',
		whole: text.slice(1, 9),
		slots: text.slice(9).match(/../g) ?? [],
	};
}

import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

/**
 * What the polling trigger remembers between polls, in the workflow's static data (saved by n8n with the workflow,
 * so it survives restarts): one short fingerprint per lead, by lead id, and what the last poll learned of the list.
 */
export const POLLING = {
	/**
	 * Most leads the trigger remembers (and the most the list may hold while it polls). Past it a poll fails with an
	 * error that says so; the memory never grows without bound. Measured (bench/POLLING-RESULTS.md, ids of 21
	 * characters): 62 bytes per lead of the spec's 14 fields (3.1 MB at the cap), 116 with 40 fields or more (5.8 MB);
	 * a fingerprint is at most 89 characters (1 + 8 + 2 × 40 slots), so a lead never costs more than that, its id and
	 * 6 characters of JSON; a lead deleted in the last 7 days (`gone`) costs its id and about 17 characters more.
	 */
	maxLeads: 50_000,
	/** Records per page the trigger asks for (the API's maximum: the fewest requests). */
	pageSize: 100,
	/** How long a lead missing from the list (deleted) is still remembered, in ms: 7 days. */
	forgetAfterMs: 7 * 24 * 3_600_000,
	/** Most field slots a fingerprint names; further top-level keys share one slot, OTHER_FIELDS. */
	maxFieldSlots: 40,
	/**
	 * Deepest nesting of a lead the trigger emits. n8n stores an execution's items with recursive code (JSON.stringify
	 * fails near 5,000 levels on Node's default stack), so a lead nested deeper would make the whole execution fail
	 * to save, the other leads with it. 512 is PHP's json_encode default depth, far beyond any CRM's custom fields.
	 */
	maxEmitDepth: 512,
	/** Default of the Full Read Interval option, in minutes: the bound on finding a lead listed out of order. */
	fullReadMinutes: 60,
} as const;

/** The slot that stands for every top-level key past POLLING.maxFieldSlots. */
export const OTHER_FIELDS = '(other fields)';

/** The order the last poll saw GET /leads in. */
export type ListOrder = 'newest' | 'oldest' | 'mixed' | 'unknown';

export interface Memory {
	/** Format version. */
	v: 1;
	/**
	 * Leads remembered that the last full reads did not list, with when they were first missing (ms). They are
	 * forgotten after POLLING.forgetAfterMs: an API or proxy that leaves leads out for a while (or answers an empty
	 * list) does not make them new again when they come back.
	 */
	gone: Record<string, number>;
	/** Lead id → fingerprint (see fingerprint()). */
	leads: Record<string, string>;
	/** The names of the fingerprints' field slots, in slot order (slots are only ever appended). */
	fields: string[];
	/** The latest createdAt (ms) of any lead remembered; leads created later are new. */
	newest?: number;
	/** The order the last poll that read the whole list (or its head) found. */
	order: ListOrder;
	/** Leads in the list at the last full read. */
	count: number;
	/** When the last full read of the list was (ms): with New Lead on a newest-first list, the next is due after Full Read Interval. */
	fullAt?: number;
}

const MEMORY_KEYS = ['v', 'leads', 'gone', 'fields', 'newest', 'order', 'count', 'fullAt'] as const;

/** The memory in the node's static data, or undefined before the first poll (or after the format changed). */
export function loadMemory(staticData: IDataObject): Memory | undefined {
	if (staticData.v !== 1 || !staticData.leads || typeof staticData.leads !== 'object')
		return undefined;
	const leads = staticData.leads as Record<string, string>;
	return {
		v: 1,
		// One plain copy: n8n's static data is an observable proxy, slow to walk key by key.
		leads: { ...leads },
		gone:
			staticData.gone && typeof staticData.gone === 'object'
				? { ...(staticData.gone as Record<string, number>) }
				: {},
		fields: Array.isArray(staticData.fields) ? (staticData.fields as string[]).slice() : [],
		newest: typeof staticData.newest === 'number' ? staticData.newest : undefined,
		order:
			(['newest', 'oldest', 'mixed', 'unknown'] as const).find(
				(order) => order === staticData.order,
			) ?? 'unknown',
		count: typeof staticData.count === 'number' ? staticData.count : Object.keys(leads).length,
		fullAt: typeof staticData.fullAt === 'number' ? staticData.fullAt : undefined,
	};
}

/** Writes the memory into the node's static data (replacing each key whole, so n8n notices and saves it). */
export function saveMemory(staticData: IDataObject, memory: Memory): void {
	for (const key of MEMORY_KEYS) {
		const value = memory[key];
		if (value === undefined) delete staticData[key];
		else staticData[key] = value as IDataObject[keyof IDataObject];
	}
}

/** An array or object being written by stableJson: its keys (objects, sorted) and the next one to write. */
interface Open {
	value: Record<string, unknown> | unknown[];
	keys: string[] | undefined;
	next: number;
}

/**
 * JSON with object keys sorted, so that the same value always gives the same text (key order is not meaningful).
 * Iterative: any nesting JSON.parse accepts is written without recursion, as the same text the recursive form gave
 * (`undefined` written as `undefined`), so fingerprints stay those of earlier versions.
 */
export function stableJson(value: unknown): string {
	const out: string[] = [];
	const open: Open[] = [];
	let pending: { value: unknown } | undefined = { value };
	for (;;) {
		if (pending !== undefined) {
			const current = pending.value;
			pending = undefined;
			if (current === undefined) out.push('undefined');
			else if (current === null || typeof current !== 'object') out.push(JSON.stringify(current));
			else if (Array.isArray(current)) {
				out.push('[');
				open.push({ value: current, keys: undefined, next: 0 });
			} else {
				out.push('{');
				open.push({
					value: current as Record<string, unknown>,
					keys: Object.keys(current).sort(),
					next: 0,
				});
			}
		}
		const top = open[open.length - 1];
		if (top === undefined) return out.join('');
		const size = top.keys ? top.keys.length : (top.value as unknown[]).length;
		if (top.next >= size) {
			out.push(top.keys ? '}' : ']');
			open.pop();
			continue;
		}
		if (top.next > 0) out.push(',');
		if (top.keys) {
			const key = top.keys[top.next];
			out.push(`${JSON.stringify(key)}:`);
			pending = { value: (top.value as Record<string, unknown>)[key] };
		} else pending = { value: (top.value as unknown[])[top.next] };
		top.next++;
	}
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

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The pair of a field the lead does not have. Not in ALPHABET, so never equal to a value's pair. */
const ABSENT = '..';

/** 12 bits of FNV-1a (32-bit) of a text, as two base64url characters: cheap, and enough to name a changed field. */
function fieldPair(text: string): string {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193);
	}
	hash >>>= 0;
	return ALPHABET[hash & 63] + ALPHABET[(hash >>> 6) & 63];
}

/**
 * A lead's fingerprint: `a` (archived) or `l` (live), 8 characters (48 bits) of the SHA-256 of the whole record
 * (which tells whether anything changed), then two characters per field slot (which tell which fields changed).
 * About 40 characters for a lead of the spec's 14 fields. `fields` gains the record's new top-level keys as slots.
 */
export function fingerprint(record: IDataObject, fields: string[]): string {
	const whole = createHash('sha256').update(stableJson(record)).digest('base64url').slice(0, 8);
	const slots = new Map<string, string[]>();
	for (const key of Object.keys(record)) {
		if (key === 'id') continue;
		let slot = fields.includes(key) ? key : undefined;
		if (slot === undefined) {
			if (fields.length < POLLING.maxFieldSlots - 1) fields.push(key);
			else if (!fields.includes(OTHER_FIELDS)) fields.push(OTHER_FIELDS);
			slot = fields.includes(key) ? key : OTHER_FIELDS;
		}
		const texts = slots.get(slot) ?? [];
		texts.push(
			slot === OTHER_FIELDS ? `${key}=${stableJson(record[key])}` : stableJson(record[key]),
		);
		slots.set(slot, texts);
	}
	let pairs = '';
	for (const field of fields) {
		const texts = slots.get(field);
		pairs += texts === undefined ? ABSENT : fieldPair(texts.sort().join('\n'));
	}
	return `${record.archived === true ? 'a' : 'l'}${whole}${pairs}`;
}

export const isArchived = (print: string): boolean => print.startsWith('a');

/**
 * A fingerprint marked as a lead the trigger saw but could not emit (nested too deep): `x` in place of the flag. The
 * lead is known, so it is not new at each poll; when it changes into one the trigger can emit, it is New Lead then.
 */
export const unreadable = (print: string): string => `x${print.slice(1)}`;

export const isUnreadable = (print: string): boolean => print.startsWith('x');

/** Whether anything of the record changed between two fingerprints (the flag and the whole-record hash). */
export const changed = (before: string, after: string): boolean =>
	before.slice(0, 9) !== after.slice(0, 9);

/**
 * The names of the fields whose slots differ between two fingerprints of one lead. Rarely (1 in 4,096 per changed
 * field) a change is not seen in its slot; `changed()` still sees it, and the list may then be empty.
 */
export function changedFields(before: string, after: string, fields: string[]): string[] {
	const names: string[] = [];
	for (let slot = 0; slot < fields.length; slot++) {
		const at = 9 + slot * 2;
		const old = before.length >= at + 2 ? before.slice(at, at + 2) : ABSENT;
		const now = after.length >= at + 2 ? after.slice(at, at + 2) : ABSENT;
		if (old !== now) names.push(fields[slot]);
	}
	return names;
}

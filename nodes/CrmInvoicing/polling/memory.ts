import type { IDataObject } from 'n8n-workflow';

/**
 * What the polling trigger remembers between polls, in the workflow's static data (saved by n8n with the workflow,
 * so it survives restarts): one short fingerprint per lead, by lead id, and what the last poll learned of the list.
 */

/** The order the last poll saw GET /leads in. */
export type ListOrder = 'newest' | 'oldest' | 'mixed' | 'unknown';

export interface Memory {
	v: 1;
	/** Lead id → fingerprint, as stored (lead.ts: encodePrint). */
	leads: Record<string, string>;
	/**
	 * Leads remembered that the last full reads did not list, with when they were first missing (ms). They are
	 * forgotten after POLLING.forgetAfterMs: an API or proxy that leaves leads out for a while (or answers an empty
	 * list) does not make them new again when they come back.
	 */
	gone: Record<string, number>;
	/** The names of the fingerprints' field slots, in slot order (slots are only ever appended). */
	fields: string[];
	/** The latest createdAt (ms) of any lead remembered; leads created later are new. */
	newest?: number;
	/** The order the last poll that read the whole list (or its head) found. */
	order: ListOrder;
	/** Leads in the list at the last full read. */
	count: number;
	/** When the last full read was (ms): with New Lead on a newest-first list, the next is due a Full Read Interval on. */
	fullAt?: number;
}

const ORDERS: ListOrder[] = ['newest', 'oldest', 'mixed', 'unknown'];
const KEYS = ['v', 'leads', 'gone', 'fields', 'newest', 'order', 'count', 'fullAt'] as const;
const numberOr = <T>(value: unknown, otherwise: T): number | T =>
	typeof value === 'number' ? value : otherwise;

/** The memory in the node's static data, or undefined before the first poll (or after the format changed). */
export function loadMemory(data: IDataObject): Memory | undefined {
	if (data.v !== 1 || !data.leads || typeof data.leads !== 'object') return undefined;
	// One plain copy of each: n8n's static data is an observable proxy, slow to walk key by key.
	const leads = { ...(data.leads as Record<string, string>) };
	return {
		v: 1,
		leads,
		gone: data.gone && typeof data.gone === 'object' ? { ...(data.gone as IDataObject) } : {},
		fields: Array.isArray(data.fields) ? (data.fields as string[]).slice() : [],
		newest: numberOr(data.newest, undefined),
		order: ORDERS.find((order) => order === data.order) ?? 'unknown',
		count: numberOr(data.count, Object.keys(leads).length),
		fullAt: numberOr(data.fullAt, undefined),
	} as Memory;
}

/** Writes the memory into the node's static data (replacing each key whole, so n8n notices and saves it). */
export function saveMemory(data: IDataObject, memory: Memory): void {
	for (const key of KEYS) {
		if (memory[key] === undefined) delete data[key];
		else data[key] = memory[key] as IDataObject[keyof IDataObject];
	}
}

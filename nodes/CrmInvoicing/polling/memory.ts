import type { IDataObject } from 'n8n-workflow';

/**
 * What the polling trigger remembers between polls, in the workflow's static data (saved by n8n with the workflow,
 * so it survives restarts): one short fingerprint per lead, by lead id, and what the last poll learned of the list.
 */

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
	/** When the last full read was (ms): with New Lead on a newest-first list, the next is due a Full Read Interval on. */
	fullAt?: number;
}

/** The memory in the node's static data, or undefined before the first poll (or after the format changed). */
export function loadMemory(data: IDataObject): Memory | undefined {
	if (data.v !== 1 || !data.leads || typeof data.leads !== 'object') return undefined;
	// One plain copy of each: n8n's static data is an observable proxy, slow to walk key by key.
	const memory = { ...data } as unknown as Memory;
	memory.leads = { ...memory.leads };
	memory.gone = { ...memory.gone };
	memory.fields = [...(memory.fields ?? [])];
	return memory;
}

/** Writes the memory into the static data, each key whole (so n8n notices), dropping any other (0.4.0's `order`). */
export function saveMemory(data: IDataObject, memory: Memory): void {
	for (const key of Object.keys(data)) delete data[key];
	for (const [key, value] of Object.entries(memory)) if (value !== undefined) data[key] = value;
}

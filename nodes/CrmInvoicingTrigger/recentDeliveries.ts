import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

/**
 * A bounded memory of the `webhook-id`s this trigger accepted, so a retry of a delivery that already started an
 * execution (same `webhook-id`, spec §6) is answered 200 and not emitted again.
 *
 * Two layers, each bounded to the last RECENT_DELIVERIES_LIMIT ids of one subscription:
 * - the node's static data (`recentDeliveries`), which n8n saves in its database when the delivery is answered
 *   (delivery.ts answers before the execution starts so that n8n 2.x saves it too): read by every n8n process
 *   (main, webhook processes, after a restart) on the next delivery.
 * - this module's memory, keyed by workflow, node and subscription: checked and updated synchronously, so two
 *   deliveries handled at the same moment by one n8n process can never both pass (each request reads its own copy
 *   of the static data). Lost on restart, not shared between n8n processes.
 * What neither layer can promise (n8n saves static data as a whole, last writer wins, with no lock): two webhook
 * processes receiving the same id within the few milliseconds before either has saved; see README, "Running at
 * scale".
 *
 * Ids are kept as short SHA-256 fingerprints: a fixed 22 characters each, whatever length the API's ids have.
 */
export const RECENT_DELIVERIES_LIMIT = 1000;

/** How many subscriptions the module memory keeps (the least recently used go first). */
const MAX_SUBSCRIPTIONS_IN_MEMORY = 200;

const memory = new Map<string, Set<string>>();

/** The module-memory key of one node's subscription: workflow id, node id, subscription id. */
export function deliveryMemoryKey(
	context: { getWorkflow(): { id?: string | number }; getNode(): { id?: string; name: string } },
	subscriptionId: string,
): string {
	const node = context.getNode();
	return `${String(context.getWorkflow().id ?? '')}:${node.id ?? node.name}:${subscriptionId}`;
}

export function fingerprint(webhookId: string): string {
	return createHash('sha256').update(webhookId, 'utf8').digest('base64url').slice(0, 22);
}

function memoryFor(key: string): Set<string> {
	let set = memory.get(key);
	if (set) {
		memory.delete(key);
	} else {
		set = new Set();
	}
	memory.set(key, set);
	while (memory.size > MAX_SUBSCRIPTIONS_IN_MEMORY) {
		const oldest = memory.keys().next().value;
		if (oldest === undefined) break;
		memory.delete(oldest);
	}
	return set;
}

/** Whether `webhookId` was accepted already (in this process or in the stored list), without recording anything. */
export function wasAccepted(staticData: IDataObject, memoryKey: string, webhookId: string): boolean {
	const print = fingerprint(webhookId);
	if (memory.get(memoryKey)?.has(print)) return true;
	return Array.isArray(staticData.recentDeliveries) && (staticData.recentDeliveries as unknown[]).includes(print);
}

/**
 * Records `webhookId` as accepted and tells whether it already was. Synchronous, so two deliveries handled by the
 * same process cannot both pass.
 */
export function acceptOnce(staticData: IDataObject, memoryKey: string, webhookId: string): boolean {
	const print = fingerprint(webhookId);
	const inMemory = memoryFor(memoryKey);
	const stored = Array.isArray(staticData.recentDeliveries)
		? (staticData.recentDeliveries as unknown[]).filter((entry): entry is string => typeof entry === 'string')
		: [];
	if (inMemory.has(print) || stored.includes(print)) return false;

	inMemory.add(print);
	while (inMemory.size > RECENT_DELIVERIES_LIMIT) {
		const oldest = inMemory.values().next().value;
		if (oldest === undefined) break;
		inMemory.delete(oldest);
	}
	// A new array (not a push), so n8n notices the change and saves the static data.
	staticData.recentDeliveries = [...stored, print].slice(-RECENT_DELIVERIES_LIMIT);
	return true;
}

/** Forgets the module memory of one subscription (after it was deleted or replaced). */
export function forgetDeliveries(memoryKey: string): void {
	memory.delete(memoryKey);
}

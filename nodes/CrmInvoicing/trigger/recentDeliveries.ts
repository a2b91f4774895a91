import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { BoundedMap } from '../shared';
import { nodeKey, type NodeContext } from './identity';
import { readState, recordDelivery, RECENT_DELIVERIES_LIMIT } from './state';

/**
 * A bounded memory of the deliveries (their `webhook-id`s) this trigger accepted, so a retry of a delivery that
 * already started an execution (same `webhook-id`, spec §6) is answered 200 and not emitted again.
 *
 * Two layers, each bounded to the last RECENT_DELIVERIES_LIMIT ids of one subscription:
 * - the stored state (state.ts, `recentDeliveries`), which n8n saves in its database when the delivery is answered
 *   (delivery.ts answers before the execution starts so that n8n 2.x saves it too): read by every n8n process (main,
 *   webhook processes, after a restart) on the next delivery.
 * - this module's memory, by node and subscription: checked and updated synchronously, so two deliveries handled at the
 *   same moment by one n8n process can never both pass (each request reads its own copy of the static data). Lost on
 *   restart, not shared between n8n processes.
 * What neither layer can promise (n8n saves static data as a whole, last writer wins, with no lock): two webhook
 * processes receiving the same id within the few milliseconds before either has saved; see docs/scale.md.
 *
 * Ids are kept as short SHA-256 fingerprints: a fixed 22 characters each, whatever length the API's ids have.
 */

/** How many subscriptions the module memory keeps (the least recently used go first). */
const MAX_SUBSCRIPTIONS_IN_MEMORY = 200;

const memory = new BoundedMap<string, BoundedMap<string, true>>(MAX_SUBSCRIPTIONS_IN_MEMORY);

export function deliveryMemoryKey(context: NodeContext, subscriptionId: string): string {
	return `${nodeKey(context)}:${subscriptionId}`;
}

export function fingerprint(deliveryId: string): string {
	return createHash('sha256').update(deliveryId, 'utf8').digest('base64url').slice(0, 22);
}

/** Whether `deliveryId` was accepted already (in this process or in the stored list), without recording anything. */
export function wasAccepted(staticData: IDataObject, memoryKey: string, deliveryId: string): boolean {
	const print = fingerprint(deliveryId);
	return memory.peek(memoryKey)?.has(print) === true || readState(staticData).recentDeliveries.includes(print);
}

/** Records `deliveryId` as accepted; false when it was accepted already (synchronous: see the module's comment). */
export function acceptOnce(staticData: IDataObject, memoryKey: string, deliveryId: string): boolean {
	if (wasAccepted(staticData, memoryKey, deliveryId)) return false;
	const print = fingerprint(deliveryId);
	memory.getOrSet(memoryKey, () => new BoundedMap<string, true>(RECENT_DELIVERIES_LIMIT)).set(print, true);
	recordDelivery(staticData, print);
	return true;
}

/** Forgets the module memory of one subscription (after it was deleted or replaced). */
export function forgetDeliveries(memoryKey: string): void {
	memory.delete(memoryKey);
}

import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { BoundedMap, nodeKey, type NodeIdentityContext } from '../shared';
import { readState, recordDelivery, RECENT_DELIVERIES_LIMIT } from './state';

/**
 * The last RECENT_DELIVERIES_LIMIT `webhook-id`s accepted per subscription (SHA-256 fingerprints), so that a retry is
 * answered 200, not emitted again (spec §6): stored for every process once n8n saved them, and in this process's
 * memory, updated synchronously, as each delivery reads its own copy of the static data. Limits: docs/scale.md.
 */

/** How many subscriptions the module memory keeps (the least recently used go first). */
const MAX_SUBSCRIPTIONS_IN_MEMORY = 200;

const memory = new BoundedMap<string, BoundedMap<string, true>>(MAX_SUBSCRIPTIONS_IN_MEMORY);

export function deliveryMemoryKey(context: NodeIdentityContext, subscriptionId: string): string {
	return `${nodeKey(context)}:${subscriptionId}`;
}

export function fingerprint(deliveryId: string): string {
	return createHash('sha256').update(deliveryId, 'utf8').digest('base64url').slice(0, 22);
}

function known(staticData: IDataObject, memoryKey: string, print: string): boolean {
	return (
		memory.peek(memoryKey)?.has(print) === true ||
		readState(staticData).recentDeliveries.includes(print)
	);
}

export function wasAccepted(
	staticData: IDataObject,
	memoryKey: string,
	deliveryId: string,
): boolean {
	return known(staticData, memoryKey, fingerprint(deliveryId));
}

/** Records `deliveryId` as accepted; false when it was accepted already (synchronous: see the module's comment). */
export function acceptOnce(
	staticData: IDataObject,
	memoryKey: string,
	deliveryId: string,
): boolean {
	const print = fingerprint(deliveryId);
	if (known(staticData, memoryKey, print)) return false;
	memory
		.getOrSet(memoryKey, () => new BoundedMap<string, true>(RECENT_DELIVERIES_LIMIT))
		.set(print, true);
	recordDelivery(staticData, print);
	return true;
}

export function forgetDeliveries(memoryKey: string): void {
	memory.delete(memoryKey);
}

import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { BoundedMap, nodeKey, type NodeIdentityContext } from '../shared';

/**
 * The trigger's stored state (the subscription with named fields, the wrapped secret, retired subscriptions and the
 * recent delivery ids), in the node's static data: n8n keeps it apart for production and test listening, saves it
 * when a hook or an answered delivery changed it, and gives every process the saved copy. This module is its only
 * reader and writer: the secret only wrapped, no name shared by a subscription's id and a delivery's, and data of 0.1
 * to 0.3 (EARLIER) rewritten in the current form at the next change (docs/security.md#what-it-stores).
 */

export interface StoredSubscription {
	id: string;
	/** The URL it delivers to: this node's webhook URL when it was created. */
	url?: string;
	/** The event names subscribed to, sorted. */
	events?: string[];
	secretWrapped?: string;
	/** The signing secret in clear, as 0.1 and 0.2 stored it; read until it is wrapped, never written anew. */
	clearSecret?: string;
	/** The owner tag (identity.ts) it was created with; data of 0.1 has none. */
	ownerTag?: string;
}

/** This node's earlier subscription, kept for delivering elsewhere; a delivery its secret verifies gets 410. */
export interface RetiredSubscription {
	id: string;
	url: string;
	/** Its secret, wrapped for its own id; absent when none was held. */
	secretWrapped?: string;
}

export interface TriggerState {
	subscription?: StoredSubscription;
	retired: RetiredSubscription[];
	/** Fingerprints of the most recent accepted `webhook-id`s, oldest first (acceptOnce, below). */
	recentDeliveries: string[];
}

/** How many retired subscriptions are remembered (the oldest are forgotten first; the CRM keeps them). */
export const MAX_RETIRED = 3;

export const RECENT_DELIVERIES_LIMIT = 1000;

const FIELDS = {
	id: 'subscriptionId',
	url: 'subscriptionUrl',
	events: 'subscriptionEvents',
	secretWrapped: 'secretWrapped',
	ownerTag: 'ownerTag',
	retired: 'retiredSubscriptions',
	recentDeliveries: 'recentDeliveries',
} as const;

/** The names of 0.1 to 0.3, read and then removed. */
const EARLIER = {
	id: 'webhookId',
	url: 'webhookUrl',
	events: 'webhookEvents',
	secretWrapped: 'webhookSecretWrapped',
	clearSecret: 'webhookSecret',
	ownerTag: 'webhookOwner',
	retired: 'webhookRetired',
} as const;

const ALL_KEYS = [...Object.values(FIELDS), ...Object.values(EARLIER)];

const text = (value: unknown): string | undefined =>
	typeof value === 'string' && value !== '' ? value : undefined;
const texts = (value: unknown): string[] | undefined =>
	Array.isArray(value)
		? value.filter((entry): entry is string => typeof entry === 'string')
		: undefined;

function retiredOf(value: unknown): RetiredSubscription[] {
	if (!Array.isArray(value)) return [];
	const retired: RetiredSubscription[] = [];
	for (const entry of value.slice(-MAX_RETIRED)) {
		if (!entry || typeof entry !== 'object') continue;
		const raw = entry as IDataObject;
		const id = text(raw.id) ?? text(raw.webhookId);
		const url = text(raw.url) ?? text(raw.webhookUrl);
		const secretWrapped = text(raw.secretWrapped) ?? text(raw.webhookSecretWrapped);
		if (id !== undefined && url !== undefined)
			retired.push({ id, url, ...(secretWrapped ? { secretWrapped } : {}) });
	}
	return retired;
}

export function readState(staticData: IDataObject): TriggerState {
	const at = (current: string, earlier: string): unknown =>
		staticData[current] ?? staticData[earlier];
	const id = text(at(FIELDS.id, EARLIER.id));
	return {
		subscription:
			id === undefined
				? undefined
				: {
						id,
						url: text(at(FIELDS.url, EARLIER.url)),
						events: texts(at(FIELDS.events, EARLIER.events)),
						secretWrapped: text(at(FIELDS.secretWrapped, EARLIER.secretWrapped)),
						clearSecret: text(staticData[EARLIER.clearSecret]),
						ownerTag: text(at(FIELDS.ownerTag, EARLIER.ownerTag)),
					},
		retired: retiredOf(at(FIELDS.retired, EARLIER.retired)),
		recentDeliveries: texts(staticData[FIELDS.recentDeliveries]) ?? [],
	};
}

/** Writes the whole state in the current form (new arrays, so that n8n notices the change). */
function writeState(staticData: IDataObject, state: TriggerState): void {
	for (const key of ALL_KEYS) delete staticData[key];
	const { subscription, retired, recentDeliveries } = state;
	if (subscription) {
		staticData[FIELDS.id] = subscription.id;
		if (subscription.url !== undefined) staticData[FIELDS.url] = subscription.url;
		if (subscription.events !== undefined) staticData[FIELDS.events] = [...subscription.events];
		if (subscription.secretWrapped !== undefined)
			staticData[FIELDS.secretWrapped] = subscription.secretWrapped;
		else if (subscription.clearSecret !== undefined)
			staticData[EARLIER.clearSecret] = subscription.clearSecret;
		if (subscription.ownerTag !== undefined) staticData[FIELDS.ownerTag] = subscription.ownerTag;
	}
	if (retired.length > 0) {
		staticData[FIELDS.retired] = retired
			.slice(-MAX_RETIRED)
			.map((entry) => ({ ...entry })) as unknown as IDataObject[];
	}
	if (subscription && recentDeliveries.length > 0) {
		staticData[FIELDS.recentDeliveries] = recentDeliveries.slice(-RECENT_DELIVERIES_LIMIT);
	}
}

function change(staticData: IDataObject, update: (state: TriggerState) => TriggerState): void {
	writeState(staticData, update(readState(staticData)));
}

export function storeSubscription(
	staticData: IDataObject,
	subscription: Required<Omit<StoredSubscription, 'clearSecret'>>,
): void {
	change(staticData, (state) => ({
		...state,
		subscription: { ...subscription },
		recentDeliveries: [],
	}));
}

/** Forgets the current subscription (nothing at the CRM is touched); retired subscriptions stay. */
export function clearSubscription(staticData: IDataObject): void {
	change(staticData, (state) => ({ ...state, subscription: undefined, recentDeliveries: [] }));
}

export function updateSubscription(
	staticData: IDataObject,
	changes: Pick<StoredSubscription, 'secretWrapped' | 'ownerTag'>,
): void {
	change(staticData, (state) => {
		if (!state.subscription) return state;
		const subscription = { ...state.subscription, ...changes };
		if (changes.secretWrapped !== undefined) delete subscription.clearSecret;
		return { ...state, subscription };
	});
}

export function retireSubscription(staticData: IDataObject, entry: RetiredSubscription): void {
	change(staticData, (state) => ({
		...state,
		retired: [...state.retired.filter((known) => known.id !== entry.id), { ...entry }],
	}));
}

export function keepRetired(
	staticData: IDataObject,
	keep: (entry: RetiredSubscription) => boolean,
): void {
	const state = readState(staticData);
	const kept = state.retired.filter(keep);
	if (kept.length !== state.retired.length) writeState(staticData, { ...state, retired: kept });
}

export function recordDelivery(staticData: IDataObject, print: string): void {
	change(staticData, (state) => ({
		...state,
		recentDeliveries: [...state.recentDeliveries, print],
	}));
}

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

import type { IDataObject } from 'n8n-workflow';

/**
 * The trigger's stored state, in the node's static data (`getWorkflowStaticData('node')`): this module is its only
 * reader and writer. n8n keeps production and "Listen for test event" static data apart (one subscription each), saves
 * it in its database when a hook or a delivery changed it (a delivery's change once the node answered it), and hands
 * every process (main, webhook processes, after a restart) the saved copy.
 *
 * Fields (0.4): FIELDS below; the secret only wrapped. A subscription's id and a delivery's id are never called by the
 * same name.
 *
 * Earlier versions are read too, and written in the current form at the next change:
 * - 0.1: `webhookId`, `webhookSecret` (clear), `webhookUrl`, `webhookEvents`, no owner tag;
 * - 0.2: as 0.1 plus `webhookOwner`;
 * - 0.3: `webhookSecretWrapped` instead of the clear secret, and `webhookRetired` ([{ webhookId, webhookUrl,
 *   webhookSecretWrapped }]).
 * A clear secret is kept (under its old name) only until something can wrap it: the first hook or accepted delivery.
 */

/** The subscription the node holds now. */
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

/**
 * An earlier subscription of this node kept at the CRM because it delivers to another URL than the node's own (a
 * WEBHOOK_URL change, a restored copy). A delivery verified only by its secret is answered 410 (answers.ts).
 */
export interface RetiredSubscription {
	id: string;
	url: string;
	/** Its secret, wrapped for its own id; absent when none was held. */
	secretWrapped?: string;
}

export interface TriggerState {
	subscription?: StoredSubscription;
	retired: RetiredSubscription[];
	/** Fingerprints of the most recent accepted `webhook-id`s, oldest first (recentDeliveries.ts). */
	recentDeliveries: string[];
}

/** How many retired subscriptions are remembered (the oldest are forgotten first; the CRM keeps them). */
export const MAX_RETIRED = 3;

/** How many accepted `webhook-id`s are remembered per subscription. */
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

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const texts = (value: unknown): string[] | undefined =>
	Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : undefined;

function retiredOf(value: unknown): RetiredSubscription[] {
	if (!Array.isArray(value)) return [];
	const retired: RetiredSubscription[] = [];
	for (const entry of value.slice(-MAX_RETIRED)) {
		if (!entry || typeof entry !== 'object') continue;
		const raw = entry as IDataObject;
		const id = text(raw.id) ?? text(raw.webhookId);
		const url = text(raw.url) ?? text(raw.webhookUrl);
		const secretWrapped = text(raw.secretWrapped) ?? text(raw.webhookSecretWrapped);
		if (id !== undefined && url !== undefined) retired.push({ id, url, ...(secretWrapped ? { secretWrapped } : {}) });
	}
	return retired;
}

export function readState(staticData: IDataObject): TriggerState {
	const at = (current: string, earlier: string): unknown => staticData[current] ?? staticData[earlier];
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
		if (subscription.secretWrapped !== undefined) staticData[FIELDS.secretWrapped] = subscription.secretWrapped;
		else if (subscription.clearSecret !== undefined) staticData[EARLIER.clearSecret] = subscription.clearSecret;
		if (subscription.ownerTag !== undefined) staticData[FIELDS.ownerTag] = subscription.ownerTag;
	}
	if (retired.length > 0) {
		staticData[FIELDS.retired] = retired.slice(-MAX_RETIRED).map((entry) => ({ ...entry })) as unknown as IDataObject[];
	}
	if (subscription && recentDeliveries.length > 0) {
		staticData[FIELDS.recentDeliveries] = recentDeliveries.slice(-RECENT_DELIVERIES_LIMIT);
	}
}

function change(staticData: IDataObject, update: (state: TriggerState) => TriggerState): void {
	writeState(staticData, update(readState(staticData)));
}

/** A new subscription: it replaces the current one and its delivery memory; retired subscriptions stay. */
export function storeSubscription(staticData: IDataObject, subscription: Required<Omit<StoredSubscription, 'clearSecret'>>): void {
	change(staticData, (state) => ({ ...state, subscription: { ...subscription }, recentDeliveries: [] }));
}

/** Forgets the current subscription (nothing at the CRM is touched); retired subscriptions stay. */
export function clearSubscription(staticData: IDataObject): void {
	change(staticData, (state) => ({ ...state, subscription: undefined, recentDeliveries: [] }));
}

/** Changes fields of the current subscription: its secret wrapped anew (the clear copy goes), its tag adopted. */
export function updateSubscription(staticData: IDataObject, changes: Pick<StoredSubscription, 'secretWrapped' | 'ownerTag'>): void {
	change(staticData, (state) => {
		if (!state.subscription) return state;
		const subscription = { ...state.subscription, ...changes };
		if (changes.secretWrapped !== undefined) delete subscription.clearSecret;
		return { ...state, subscription };
	});
}

/** Remembers `entry` as retired (once per id; the oldest beyond MAX_RETIRED are forgotten). */
export function retireSubscription(staticData: IDataObject, entry: RetiredSubscription): void {
	change(staticData, (state) => ({ ...state, retired: [...state.retired.filter((known) => known.id !== entry.id), { ...entry }] }));
}

export function keepRetired(staticData: IDataObject, keep: (entry: RetiredSubscription) => boolean): void {
	const state = readState(staticData);
	const kept = state.retired.filter(keep);
	if (kept.length !== state.retired.length) writeState(staticData, { ...state, retired: kept });
}

/** Adds an accepted delivery's fingerprint to the stored list (the last RECENT_DELIVERIES_LIMIT are kept). */
export function recordDelivery(staticData: IDataObject, print: string): void {
	change(staticData, (state) => ({ ...state, recentDeliveries: [...state.recentDeliveries, print] }));
}

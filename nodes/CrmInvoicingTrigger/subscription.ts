import type { IDataObject } from 'n8n-workflow';

import { INACTIVE_SUBSCRIPTION_STATUS } from '../CrmInvoicing/apiChoices';
import { eventNamesOf } from '../CrmInvoicing/helpers/events';
import { httpStatusOf } from '../CrmInvoicing/transport';

/**
 * What the trigger keeps in the node's static data (`getWorkflowStaticData('node')`) about its subscription.
 * n8n keeps production and "Listen for test event" static data apart, so each URL has its own subscription.
 */
export interface StoredSubscription {
	/** The API's subscription id. */
	webhookId?: string;
	/**
	 * The `whsec_` signing secret in clear, as version 0.2 stored it. Read only to migrate it (activation wraps it and
	 * deletes it); never written any more.
	 */
	webhookSecret?: string;
	/** The signing secret, wrapped (secretAtRest.ts). Never output, never logged, never stored in clear. */
	webhookSecretWrapped?: string;
	/** The URL the subscription delivers to (this node's webhook URL when it was created). */
	webhookUrl?: string;
	/** The event names subscribed to, sorted. */
	webhookEvents?: string[];
	/** The owner tag (ownership.ts) the subscription was created with: which n8n, workflow, node and mode it is for. */
	webhookOwner?: string;
	/** Fingerprints of the most recent accepted `webhook-id`s, oldest first (see recentDeliveries.ts). */
	recentDeliveries?: string[];
	/**
	 * Earlier subscriptions of this node left in place because their URL still answered as a registered n8n webhook
	 * (lifecycle.ts: a restored copy, or an old address of this n8n). A delivery verified only by one of their secrets
	 * is answered 410, so the CRM disables that endpoint and no event runs this trigger twice. At most MAX_RETIRED.
	 */
	webhookRetired?: RetiredSubscription[];
}

export interface RetiredSubscription {
	webhookId: string;
	webhookUrl: string;
	/** Its secret, wrapped for its own id (secretAtRest.ts); may be absent (0.2 data without a secret). */
	webhookSecretWrapped?: string;
}

/** How many retired subscriptions are remembered (the oldest are forgotten first; the CRM keeps them). */
export const MAX_RETIRED = 3;

const STORED_KEYS: Array<keyof StoredSubscription> = [
	'webhookId',
	'webhookSecret',
	'webhookSecretWrapped',
	'webhookUrl',
	'webhookEvents',
	'webhookOwner',
	'recentDeliveries',
	'webhookRetired',
];

export function readSubscription(staticData: IDataObject): StoredSubscription {
	const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
	const list = (value: unknown) =>
		Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : undefined;
	return {
		webhookId: text(staticData.webhookId),
		webhookSecret: text(staticData.webhookSecret),
		webhookSecretWrapped: text(staticData.webhookSecretWrapped),
		webhookUrl: text(staticData.webhookUrl),
		webhookEvents: list(staticData.webhookEvents),
		webhookOwner: text(staticData.webhookOwner),
		recentDeliveries: list(staticData.recentDeliveries),
		webhookRetired: retiredOf(staticData.webhookRetired),
	};
}

function retiredOf(value: unknown): RetiredSubscription[] | undefined {
	if (!Array.isArray(value)) return undefined;
	const retired: RetiredSubscription[] = [];
	for (const entry of value.slice(-MAX_RETIRED)) {
		if (!entry || typeof entry !== 'object') continue;
		const { webhookId, webhookUrl, webhookSecretWrapped } = entry as IDataObject;
		if (typeof webhookId !== 'string' || webhookId === '' || typeof webhookUrl !== 'string') continue;
		retired.push({
			webhookId,
			webhookUrl,
			...(typeof webhookSecretWrapped === 'string' ? { webhookSecretWrapped } : {}),
		});
	}
	return retired;
}

/** What create stores: the wrapped secret, never the clear one; retired subscriptions are kept as they are. */
export type NewSubscription = Required<
	Omit<StoredSubscription, 'recentDeliveries' | 'webhookSecret' | 'webhookRetired'>
>;

export function storeSubscription(staticData: IDataObject, subscription: NewSubscription): void {
	const retired = readSubscription(staticData).webhookRetired;
	clearSubscription(staticData);
	staticData.webhookId = subscription.webhookId;
	staticData.webhookSecretWrapped = subscription.webhookSecretWrapped;
	staticData.webhookUrl = subscription.webhookUrl;
	staticData.webhookEvents = [...subscription.webhookEvents];
	staticData.webhookOwner = subscription.webhookOwner;
	if (retired && retired.length > 0) setRetired(staticData, retired);
}

/** Replaces the retired list (a new array, so that n8n notices the change); removes it when empty. */
export function setRetired(staticData: IDataObject, retired: RetiredSubscription[]): void {
	if (retired.length === 0) {
		delete staticData.webhookRetired;
		return;
	}
	staticData.webhookRetired = retired.slice(-MAX_RETIRED).map((entry) => ({ ...entry })) as unknown as IDataObject[];
}

/** Clears the current subscription and keeps the retired list. */
export function clearCurrent(staticData: IDataObject): void {
	const retired = readSubscription(staticData).webhookRetired;
	clearSubscription(staticData);
	if (retired && retired.length > 0) setRetired(staticData, retired);
}

export function clearSubscription(staticData: IDataObject): void {
	for (const key of STORED_KEYS) delete staticData[key];
}

/** The events to subscribe to: the selected ones plus the custom names, each once, sorted. */
export function subscribedEvents(events: unknown, customEvents: unknown): string[] {
	return eventNamesOf(events, customEvents).sort();
}

/** Whether two event lists hold the same names (order and repetition aside). */
export function sameEvents(a: readonly unknown[] | undefined, b: readonly string[]): boolean {
	if (!a) return false;
	const left = subscribedEvents(a, undefined);
	return left.length === b.length && left.every((name, index) => name === b[index]);
}

/**
 * Whether a subscription's status says the CRM delivers nothing to it. The spec names no status value (§3), so this
 * is the choice subscription-status in apiChoices.ts; a missing or unknown status counts as active.
 */
export function isInactiveStatus(status: unknown): boolean {
	return typeof status === 'string' && INACTIVE_SUBSCRIPTION_STATUS.test(status);
}

/** Whether an error from the transport is the API's 404 (the subscription is gone). */
export function isNotFound(error: unknown): boolean {
	return httpStatusOf(error) === 404;
}

import type { IDataObject } from 'n8n-workflow';

import { INACTIVE_SUBSCRIPTION_STATUS } from '../CrmInvoicing/apiChoices';
import { eventNamesOf } from '../CrmInvoicing/helpers/events';

/**
 * What the trigger keeps in the node's static data (`getWorkflowStaticData('node')`) about its subscription.
 * n8n keeps production and "Listen for test event" static data apart, so each URL has its own subscription.
 */
export interface StoredSubscription {
	/** The API's subscription id. */
	webhookId?: string;
	/** The `whsec_` signing secret, returned once at creation. Never output, never logged. */
	webhookSecret?: string;
	/** The URL the subscription delivers to (this node's webhook URL when it was created). */
	webhookUrl?: string;
	/** The event names subscribed to, sorted. */
	webhookEvents?: string[];
	/** The owner tag (ownership.ts) the subscription was created with: which n8n, workflow, node and mode it is for. */
	webhookOwner?: string;
	/** Fingerprints of the most recent accepted `webhook-id`s, oldest first (see recentDeliveries.ts). */
	recentDeliveries?: string[];
}

const STORED_KEYS: Array<keyof StoredSubscription> = [
	'webhookId',
	'webhookSecret',
	'webhookUrl',
	'webhookEvents',
	'webhookOwner',
	'recentDeliveries',
];

export function readSubscription(staticData: IDataObject): StoredSubscription {
	const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
	const list = (value: unknown) =>
		Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : undefined;
	return {
		webhookId: text(staticData.webhookId),
		webhookSecret: text(staticData.webhookSecret),
		webhookUrl: text(staticData.webhookUrl),
		webhookEvents: list(staticData.webhookEvents),
		webhookOwner: text(staticData.webhookOwner),
		recentDeliveries: list(staticData.recentDeliveries),
	};
}

export function storeSubscription(staticData: IDataObject, subscription: Required<Omit<StoredSubscription, 'recentDeliveries'>>): void {
	clearSubscription(staticData);
	staticData.webhookId = subscription.webhookId;
	staticData.webhookSecret = subscription.webhookSecret;
	staticData.webhookUrl = subscription.webhookUrl;
	staticData.webhookEvents = [...subscription.webhookEvents];
	staticData.webhookOwner = subscription.webhookOwner;
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
	if (!error || typeof error !== 'object') return false;
	const candidate = error as { httpCode?: unknown; context?: { httpCode?: unknown } };
	return String(candidate.httpCode ?? candidate.context?.httpCode ?? '') === '404';
}

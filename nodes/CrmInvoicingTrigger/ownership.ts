import { createHash } from 'node:crypto';

/**
 * Which subscriptions are this trigger's own. A subscription counts as ours only when it carries our owner tag:
 * a short hash of n8n's instance id, the workflow id, the node id and the mode (production or "Listen for test
 * event"). The tag ends the subscription's name (`… [n8n:<tag>]`) and is kept in the node's static data. The trigger
 * deletes nothing else: not another n8n's subscription (a workflow imported with its static data keeps the other
 * instance's tag), not another workflow's or node's, not one made by hand.
 *
 * The tag is a hash: it tells nothing about the instance and holds no secret.
 */

const TAG_LENGTH = 16;
const TAG_PATTERN = /\[n8n:([A-Za-z0-9_-]{8,43})\]\s*$/;

/** The parts of n8n's hook and webhook contexts the owner tag is built from. */
export interface OwnerContext {
	getInstanceId?: () => string;
	getWorkflow(): { id?: string | number };
	getNode(): { id?: string; name: string };
	getMode?: () => string;
	getNodeWebhookUrl?: (name: 'default') => string | undefined;
}

/** n8n's instance id (n8n 1.x and 2.x give it to every node context); empty if this n8n does not. */
function instanceIdOf(context: OwnerContext): string {
	try {
		const id = typeof context.getInstanceId === 'function' ? context.getInstanceId() : '';
		return typeof id === 'string' ? id : '';
	} catch {
		return '';
	}
}

/**
 * "test" while n8n listens for a test event, else "production": each has its own subscription and tag. n8n starts
 * test listening in mode "manual" but ends it (Stop Listening, or after the event) in mode "internal", as when it
 * deactivates a workflow; the webhook URL tells them apart, since n8n builds it from the registration
 * (`/webhook-test/…` while test listening).
 */
function modeOf(context: OwnerContext): 'test' | 'production' {
	if (context.getMode?.() === 'manual') return 'test';
	try {
		return /\/webhook-test\//.test(context.getNodeWebhookUrl?.('default') ?? '') ? 'test' : 'production';
	} catch {
		return 'production';
	}
}

/** This node's owner tag for the current mode. */
export function ownerTag(context: OwnerContext): string {
	const node = context.getNode();
	const parts = [
		'crm-invoicing-trigger',
		instanceIdOf(context),
		String(context.getWorkflow().id ?? ''),
		node.id ?? node.name,
		modeOf(context),
	];
	return createHash('sha256').update(parts.join('\u0000'), 'utf8').digest('base64url').slice(0, TAG_LENGTH);
}

/** The subscription name with the owner tag at its end. */
export function taggedName(name: string, tag: string): string {
	return `${name} [n8n:${tag}]`;
}

/** The owner tag at the end of a subscription's name, if any. */
export function tagOfName(name: unknown): string | undefined {
	if (typeof name !== 'string') return undefined;
	return TAG_PATTERN.exec(name)?.[1];
}

// ---------------------------------------------------------------------------------------------------------------------
// Within one n8n process

/** One node's key in this process's memory (mode aside: deliveries do not know it). */
function nodeKey(context: OwnerContext): string {
	const node = context.getNode();
	return `${String(context.getWorkflow().id ?? '')}:${node.id ?? node.name}`;
}

const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `work` after every earlier call for the same node and tag in this process has finished: two activations of
 * one trigger that race in one n8n process subscribe one after the other, so the second one's sweep finds and removes
 * the first one's subscription and exactly one remains. `work` is bounded (its API calls are).
 */
export async function oneAtATime<T>(context: OwnerContext, tag: string, work: () => Promise<T>): Promise<T> {
	const key = `${nodeKey(context)}:${tag}`;
	const previous = queues.get(key) ?? Promise.resolve();
	const current = previous.then(work, work);
	const settled = current.then(
		() => undefined,
		() => undefined,
	);
	queues.set(key, settled);
	try {
		return await current;
	} finally {
		if (queues.get(key) === settled) queues.delete(key);
	}
}

/**
 * How long after subscribing anew a signature mismatch on stale static data is answered 503 (retry) instead of 401.
 */
export const RENEWAL_WINDOW_MS = 120_000;
const MAX_RENEWALS_IN_MEMORY = 500;
const renewals = new Map<string, { subscriptionId: string; at: number }>();

/** Notes that this node just subscribed anew with `subscriptionId` (its new secret may not be saved yet). */
export function markSubscribed(context: OwnerContext, subscriptionId: string, now = Date.now()): void {
	const key = nodeKey(context);
	renewals.delete(key);
	renewals.set(key, { subscriptionId, at: now });
	while (renewals.size > MAX_RENEWALS_IN_MEMORY) {
		const oldest = renewals.keys().next().value;
		if (oldest === undefined) break;
		renewals.delete(oldest);
	}
}

/**
 * Whether the static data a delivery read is older than this process's newest subscription for the node: this node
 * subscribed anew within the renewal window, and the stored subscription is not that one (n8n has not saved the new
 * one's secret yet). Once the new one is saved, a mismatch is a plain 401 again.
 */
export function readsStaleSubscription(context: OwnerContext, storedSubscriptionId: string | undefined, now = Date.now()): boolean {
	const renewal = renewals.get(nodeKey(context));
	if (!renewal || now - renewal.at < 0 || now - renewal.at >= RENEWAL_WINDOW_MS) return false;
	return renewal.subscriptionId !== storedSubscriptionId;
}

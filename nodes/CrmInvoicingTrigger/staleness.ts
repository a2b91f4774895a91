import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { apiRequest } from '../CrmInvoicing/transport';
import { isInactiveStatus, isNotFound } from './subscription';

/**
 * Whether the subscription a delivery found in the node's static data is still this trigger's current one, asked of
 * the CRM: the test that tells a stale reader from a forger when a signature does not match.
 *
 * A process may read static data that is older than the subscription the CRM now delivers for: a queue-mode webhook
 * process reads it from the database before main saved the new secret, and a stale copy can be written back (README,
 * "Running at scale"). Its stored subscription is then no longer current: create deletes the old subscription before
 * it subscribes anew (so a new secret exists only once the old subscription is gone), and one left in place at
 * another URL (lifecycle.ts, settleOldUrl) no longer delivers to this node's URL. So:
 * - `current` (the CRM has the stored subscription, active, at this node's URL): a mismatch is a forgery: 401;
 * - `stale` (404, another URL, disabled): the delivery may be signed with a secret this process has not read yet: 503,
 *   and the CRM's retry reads the saved one;
 * - `unknown` (the CRM did not answer in time): 503 too; a forged delivery never executes either way.
 *
 * The CRM is asked at most once per CHECK_INTERVAL_MS per process and subscription, whatever the number of
 * deliveries (concurrent ones share the one question): the API cost a forger can cause is bounded by that, not by
 * the number of requests sent.
 */

export type Currency = 'current' | 'stale' | 'unknown';

export const CHECK_INTERVAL_MS = 30_000;
/** The question's time limit: a delivery waiting for it must still be answered within the CRM's 20 s. */
export const CHECK_TIME_LIMIT_MS = 5_000;
const MAX_REMEMBERED = 500;

const verdicts = new Map<string, { at: number; verdict: Promise<Currency> }>();

function keyOf(context: IWebhookFunctions, subscriptionId: string): string {
	const node = context.getNode();
	return `${String(context.getWorkflow().id ?? '')}:${node.id ?? node.name}:${subscriptionId}`;
}

async function ask(context: IWebhookFunctions, subscriptionId: string): Promise<Currency> {
	let remote: IDataObject;
	try {
		remote = await apiRequest.call(context, {
			method: 'GET',
			path: `/webhooks/${encodeURIComponent(subscriptionId)}`,
			timeLimitMs: CHECK_TIME_LIMIT_MS,
		});
	} catch (error) {
		return isNotFound(error) ? 'stale' : 'unknown';
	}
	let url: string | undefined;
	try {
		url = context.getNodeWebhookUrl('default');
	} catch {
		url = undefined;
	}
	if (typeof remote.url === 'string' && url !== undefined && remote.url !== url) return 'stale';
	if (isInactiveStatus(remote.status)) return 'stale';
	return 'current';
}

/** The stored subscription's currency; see the module's comment. Never throws. */
export async function storedSubscriptionCurrency(
	context: IWebhookFunctions,
	subscriptionId: string,
	now = Date.now(),
): Promise<Currency> {
	const key = keyOf(context, subscriptionId);
	const known = verdicts.get(key);
	if (known && now - known.at >= 0 && now - known.at < CHECK_INTERVAL_MS) return await known.verdict;
	const verdict = ask(context, subscriptionId).catch((): Currency => 'unknown');
	verdicts.delete(key);
	verdicts.set(key, { at: now, verdict });
	while (verdicts.size > MAX_REMEMBERED) {
		const oldest = verdicts.keys().next().value;
		if (oldest === undefined) break;
		verdicts.delete(oldest);
	}
	return await verdict;
}

/** Forgets every remembered verdict (tests; and after this process subscribed anew). */
export function forgetCurrency(): void {
	verdicts.clear();
}

import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { BoundedMap } from '../shared';
import { refuse, UNUSABLE_SECRET_REASON, type DeliveryRequest } from './answers';
import { Deadline, RENEWAL_TIME_LIMIT_MS } from './deadline';
import { nodeKey } from './identity';
import { readState, type StoredSubscription } from './state';
import { subscribe } from './subscription';

/**
 * A delivery that finds the stored secret unreadable: wrapped under another API key than the credential's, and held
 * by no memory of this process (the credential's key changed and n8n restarted before any delivery re-wrapped it;
 * secret.ts). No delivery through that subscription can ever be verified again, and on n8n 2.41 nothing else would
 * run the trigger's hooks. So the delivery that finds out subscribes anew at this node's own URL (subscription.ts:
 * the old subscription is deleted, since it is this node's at its URL, and the new one stored), then answers 503 and
 * logs what happened and why.
 *
 * Once, bounded: one attempt per node per process at a time and per RENEWAL_INTERVAL_MS, within
 * RENEWAL_TIME_LIMIT_MS (the CRM waits 20 s for its answer); concurrent deliveries are answered 503 at once. Not on
 * the test URL (test listening subscribes anew each time anyway). What is lost: the event(s) delivered through the
 * old subscription before the new one existed, whose signatures nothing can check (docs/trigger.md).
 */

export const RENEWAL_INTERVAL_MS = 60_000;

const MAX_NODES_REMEMBERED = 500;

/** When each node last tried to subscribe anew from a delivery, in this process. */
const lastAttempt = new BoundedMap<string, number>(MAX_NODES_REMEMBERED);

function mayTry(key: string, now = Date.now()): boolean {
	const last = lastAttempt.get(key);
	if (last !== undefined && now >= last && now - last < RENEWAL_INTERVAL_MS) return false;
	lastAttempt.set(key, now);
	return true;
}

async function renew(context: IWebhookFunctions, stored: StoredSubscription, limitMs: number): Promise<void> {
	const meta = { workflowId: context.getWorkflow().id, nodeName: context.getNode().name };
	const why = `the stored signing secret of webhook subscription ${stored.id} cannot be read with the credential's API key (the key changed while no n8n process held the secret in memory, for example across a restart), so no delivery through it can be verified`;
	try {
		const id = await subscribe(context, new Deadline(context.getNode(), 'subscribe anew', limitMs));
		context.logger.warn(
			`CRM Invoicing Trigger: ${why}. Subscribed anew at this node's URL as webhook subscription ${id} (subscription ${stored.id} was deleted if it delivered to this URL). Events delivered through ${stored.id} until now are not run: look in the CRM for events of that time.`,
			{ ...meta, subscriptionId: id },
		);
	} catch (error) {
		// Failed before the old subscription was let go of: its deliveries go on, and one tries again. After: nothing
		// delivers here any more, and only the hooks (re-publishing; on 1.x and 2.38 also a restart) subscribe anew.
		const still = readState(context.getWorkflowStaticData('node')).subscription !== undefined;
		context.logger.warn(
			`CRM Invoicing Trigger: ${why}. Subscribing anew failed (${(error as Error).message}); ${still ? `a delivery tries again in ${RENEWAL_INTERVAL_MS / 1000} s at the earliest, or re-publish the workflow` : 'this trigger now holds no subscription: re-publish the workflow (deactivate, then activate) once the cause is fixed'}.`,
			meta,
		);
	}
}

/** Answers a delivery whose stored secret is unreadable (503), after subscribing anew when this delivery may. */
export async function refuseUnreadable(
	context: IWebhookFunctions,
	stored: StoredSubscription,
	request: DeliveryRequest,
	limitMs = RENEWAL_TIME_LIMIT_MS,
): Promise<IWebhookResponseData> {
	if (context.getMode() !== 'manual' && mayTry(nodeKey(context))) await renew(context, stored, limitMs);
	return refuse(context, 503, UNUSABLE_SECRET_REASON, request);
}

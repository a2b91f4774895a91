import type { IHookFunctions } from 'n8n-workflow';

import { ownerTag, tagOfName } from './identity';
import { deliveryMemoryKey, forgetDeliveries } from './recentDeliveries';
import { apiKeyOf, keepWrappedUnderKey, readSecret, secretOwner } from './secret';
import { clearSubscription, readState, updateSubscription, type StoredSubscription } from './state';
import {
	Deadline,
	eventsOf,
	forgetForeign,
	isInactiveStatus,
	letGo,
	lookUpSubscription,
	ownUrl,
	sameEvents,
	subscribe,
} from './subscription';

/**
 * The trigger's three hooks, which n8n runs on activation (checkExists, then create when it answers false), on
 * deactivation and when test listening ends (delete). What they may delete follows the one rule of subscription.ts.
 */

/**
 * The longest time one hook may take, every request, retry and wait included (n8n calls them with no argument, so with
 * this limit). n8n activates workflows one after the other, so a CRM that accepts connections and never answers holds
 * up the activation of every later workflow for at most this long; the trigger's own activation then fails with an
 * error that says so. Each request gets what is left of it as its time limit (`timeLimitMs`).
 */
export const HOOK_TIME_LIMIT_MS = 20_000;

/**
 * Whether the stored subscription can go on: it is this node's, exists at the CRM, delivers to this node's URL for
 * the current mode with the selected events, is not disabled, and its secret can be read (wrapped anew under the
 * credential's current key when needed). When not, it is let go of (deleted only where the rule allows) and false
 * is returned, so that n8n runs create. Data of earlier versions is migrated here.
 */
export async function checkExists(this: IHookFunctions, limitMs = HOOK_TIME_LIMIT_MS): Promise<boolean> {
	const deadline = new Deadline(this.getNode(), 'check its webhook subscription', limitMs);
	return await deadline.run(async () => await checkStored(this, deadline));
}

async function checkStored(context: IHookFunctions, deadline: Deadline): Promise<boolean> {
	const staticData = context.getWorkflowStaticData('node');
	const stored = readState(staticData).subscription;
	if (!stored) {
		// Also brings retired subscriptions stored by an earlier version to the current form.
		clearSubscription(staticData);
		return false;
	}
	const tag = ownerTag(context);
	if (stored.ownerTag !== undefined && stored.ownerTag !== tag) {
		forgetForeign(context, stored.id, 'its owner tag is not this n8n instance\'s, workflow\'s and node\'s (for example a workflow imported from another n8n)');
		clearSubscription(staticData);
		return false;
	}
	const url = ownUrl(context);
	const remote = await lookUpSubscription(context, stored.id, deadline.left());
	if (remote === 'gone') {
		forgetDeliveries(deliveryMemoryKey(context, stored.id));
		clearSubscription(staticData);
		return false;
	}
	// Data of 0.1 carries no tag: it is this node's when the CRM says it delivers to exactly this node's URL. A tag in
	// the CRM's name that is not this node's: someone else's (renamed, or a re-used id).
	const remoteTag = tagOfName(remote.name);
	if ((stored.ownerTag === undefined && remote.url !== url) || (remoteTag !== undefined && remoteTag !== tag)) {
		forgetForeign(context, stored.id, 'it is not provably this trigger\'s own');
		clearSubscription(staticData);
		return false;
	}
	// The CRM's own URL and events decide; where its answer lacks them, what was stored at creation does.
	const held: StoredSubscription = { ...stored, ownerTag: tag, url: typeof remote.url === 'string' ? remote.url : stored.url };
	const events = Array.isArray(remote.events) ? (remote.events as unknown[]) : stored.events;
	const readable = held.url === url && (await secretReadable(context, held));
	if (readable && sameEvents(events, eventsOf(context)) && !isInactiveStatus(remote.status)) {
		updateSubscription(staticData, { ownerTag: tag });
		return true;
	}
	// At another URL it is kept (retired, and named by create's sweep); at this node's URL, stale or unreadable, deleted.
	await letGo(context, held, deadline, false);
	return false;
}

/** Whether the stored secret can be read (with the credential's key, or from this process's memory, then re-wrapped). */
async function secretReadable(context: IHookFunctions, stored: StoredSubscription): Promise<boolean> {
	const apiKey = await apiKeyOf(context);
	const read = await readSecret(stored, secretOwner(context, stored.id), async () => apiKey);
	if (read.kind === 'secret') {
		await keepWrappedUnderKey(context, stored, read, async () => apiKey, true);
		return true;
	}
	context.logger.warn(
		read.kind === 'unusable'
			? `CRM Invoicing Trigger: the stored signing secret of webhook subscription ${stored.id} cannot be read with this credential's API key (the key changed while no n8n process held the secret, or the workflow's data was copied from another workflow); this trigger deletes that subscription and subscribes anew`
			: `CRM Invoicing Trigger: no signing secret is stored for webhook subscription ${stored.id}; this trigger deletes that subscription and subscribes anew`,
		{ workflowId: context.getWorkflow().id, nodeName: context.getNode().name },
	);
	return false;
}

export async function create(this: IHookFunctions, limitMs = HOOK_TIME_LIMIT_MS): Promise<boolean> {
	await subscribe(this, new Deadline(this.getNode(), 'create its webhook subscription', limitMs));
	return true;
}

/**
 * Lets go of the stored subscription (letGo: deleted only where the rule allows; at another URL, as a restored copy's
 * static data names production's, kept). When the delete fails (no answer in time, an answer that is not a deletion),
 * the stored subscription is kept and `false` returned, so the next activation reuses or replaces it, not orphans it.
 */
export async function deleteSubscription(this: IHookFunctions, limitMs = HOOK_TIME_LIMIT_MS): Promise<boolean> {
	const staticData = this.getWorkflowStaticData('node');
	const stored = readState(staticData).subscription;
	if (!stored) return true;
	try {
		await letGo(this, stored, new Deadline(this.getNode(), 'delete its webhook subscription', limitMs));
	} catch (error) {
		this.logger.warn(
			`CRM Invoicing Trigger: could not delete webhook subscription ${stored.id}; it is kept and cleaned up on the next activation (${(error as Error).message})`,
			{ workflowId: this.getWorkflow().id, nodeName: this.getNode().name },
		);
		return false;
	}
	return true;
}

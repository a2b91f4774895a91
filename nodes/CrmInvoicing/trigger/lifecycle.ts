import type { IHookFunctions } from 'n8n-workflow';

import { ownerTag, tagOfName } from './identity';
import { apiKeyOf, keepWrappedUnderKey, readSecret, secretOwner } from './secret';
import {
	clearSubscription,
	deliveryMemoryKey,
	forgetDeliveries,
	readState,
	updateSubscription,
	type StoredSubscription,
} from './store';
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
 * The three hooks: n8n runs checkExists on activation (then create when it answers false), and delete on deactivation
 * and when test listening ends. They delete only by subscription.ts's rule, and each ends within HOOK_TIME_LIMIT_MS,
 * as n8n calls them without `limitMs` and activates workflows one by one (docs/trigger.md#activation-is-bounded).
 */

export const HOOK_TIME_LIMIT_MS = 20_000;

/** Whether the stored subscription can go on as it is; if not, it is let go of and false returned: n8n runs create. */
export async function checkExists(
	this: IHookFunctions,
	limitMs = HOOK_TIME_LIMIT_MS,
): Promise<boolean> {
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
		forgetForeign(
			context,
			stored.id,
			"its owner tag is not this n8n instance's, workflow's and node's (for example a workflow imported from another n8n)",
		);
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
	if (
		(stored.ownerTag === undefined && remote.url !== url) ||
		(remoteTag !== undefined && remoteTag !== tag)
	) {
		forgetForeign(context, stored.id, "it is not provably this trigger's own");
		clearSubscription(staticData);
		return false;
	}
	const held: StoredSubscription = {
		...stored,
		ownerTag: tag,
		url: typeof remote.url === 'string' ? remote.url : stored.url,
	};
	const events = Array.isArray(remote.events) ? (remote.events as unknown[]) : stored.events;
	const readable = held.url === url && (await secretReadable(context, held));
	if (readable && sameEvents(events, eventsOf(context)) && !isInactiveStatus(remote.status)) {
		updateSubscription(staticData, { ownerTag: tag });
		return true;
	}
	await letGo(context, held, deadline, false);
	clearSubscription(staticData);
	return false;
}

async function secretReadable(
	context: IHookFunctions,
	stored: StoredSubscription,
): Promise<boolean> {
	const apiKey = await apiKeyOf(context);
	const read = await readSecret(stored, secretOwner(context, stored.id), async () => apiKey);
	if (read.kind === 'secret') {
		await keepWrappedUnderKey(context, stored, read, async () => apiKey);
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

/** Lets go of the stored subscription; a failed delete keeps it and returns false, so the next activation finds it. */
export async function deleteSubscription(
	this: IHookFunctions,
	limitMs = HOOK_TIME_LIMIT_MS,
): Promise<boolean> {
	const staticData = this.getWorkflowStaticData('node');
	const stored = readState(staticData).subscription;
	if (!stored) return true;
	try {
		await letGo(
			this,
			stored,
			new Deadline(this.getNode(), 'delete its webhook subscription', limitMs),
		);
		clearSubscription(staticData);
	} catch (error) {
		this.logger.warn(
			`CRM Invoicing Trigger: could not delete webhook subscription ${stored.id}; it is kept and cleaned up on the next activation (${(error as Error).message})`,
			{ workflowId: this.getWorkflow().id, nodeName: this.getNode().name },
		);
		return false;
	}
	return true;
}

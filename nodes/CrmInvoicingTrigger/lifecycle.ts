import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IHookFunctions, INode } from 'n8n-workflow';

import { listWebhookSubscriptions } from '../CrmInvoicing/helpers/webhookList';
import { DOCUMENTED_EVENTS } from '../CrmInvoicing/apiChoices';
import { apiRequest } from '../CrmInvoicing/transport';
import { markSubscribed, oneAtATime, ownerTag, tagOfName, taggedName } from './ownership';
import { deliveryMemoryKey, forgetDeliveries } from './recentDeliveries';
import {
	clearSubscription,
	isInactiveStatus,
	isNotFound,
	readSubscription,
	sameEvents,
	storeSubscription,
	subscribedEvents,
	type StoredSubscription,
} from './subscription';

/** This node's webhook URL for the current mode: the test URL while listening for a test event, else production. */
function webhookUrlOf(context: IHookFunctions): string {
	const url = context.getNodeWebhookUrl('default');
	if (!url) {
		throw new NodeOperationError(context.getNode(), 'n8n did not give this trigger a webhook URL', {
			description: 'Save the workflow and try again.',
		});
	}
	return url;
}

/** The event names the node's parameters ask for: the selected events plus the custom ones. */
export function eventsOf(context: IHookFunctions): string[] {
	const options = context.getNodeParameter('options', {}) as IDataObject;
	return subscribedEvents(context.getNodeParameter('events', []), options.customEvents);
}

/** The transport throws NodeApiError already; anything else is wrapped so n8n shows it as the node's error. */
function nodeError(node: INode, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : String(error));
}

/** DELETE /webhooks/{id}. True when it is gone (a 404 counts as gone); other errors are thrown. */
async function deleteRemote(context: IHookFunctions, id: string): Promise<true> {
	try {
		await apiRequest.call(context, { method: 'DELETE', path: `/webhooks/${encodeURIComponent(id)}` });
	} catch (error) {
		if (!isNotFound(error)) throw nodeError(context.getNode(), error);
	}
	return true;
}

/**
 * Whether the stored subscription is provably this node's: created by this n8n instance for this workflow's node in
 * this mode. Static data written by 0.1 (no owner tag) counts as ours only when the API says it delivers to exactly
 * this node's URL; static data that came with an imported workflow holds the other instance's tag and is not ours.
 */
function storedIsOurs(stored: StoredSubscription, tag: string, remoteUrl: unknown, url: string): boolean {
	if (stored.webhookOwner !== undefined) return stored.webhookOwner === tag;
	return remoteUrl === url;
}

/**
 * The stored subscription still exists on the API, is ours, delivers to this node's URL for the current mode, and has
 * the selected events. When it does not (404, or the URL or events changed, or the API disabled it), the stored data
 * is cleared, and a subscription of ours that is still there is deleted, so `create` leaves no orphan behind. A
 * subscription that is not provably ours is left alone: only our copy of its data is forgotten.
 */
export async function checkExists(this: IHookFunctions): Promise<boolean> {
	const staticData = this.getWorkflowStaticData('node');
	const stored = readSubscription(staticData);
	if (!stored.webhookId) {
		clearSubscription(staticData);
		return false;
	}
	const tag = ownerTag(this);
	if (stored.webhookOwner !== undefined && stored.webhookOwner !== tag) {
		forgetForeign(this, stored, 'its owner tag is not this n8n instance\'s, workflow\'s and node\'s');
		clearSubscription(staticData);
		return false;
	}
	const url = webhookUrlOf(this);
	const events = eventsOf(this);

	let remote: IDataObject;
	try {
		remote = await apiRequest.call(this, {
			method: 'GET',
			path: `/webhooks/${encodeURIComponent(stored.webhookId)}`,
			expect: 'record',
		});
	} catch (error) {
		if (!isNotFound(error)) throw nodeError(this.getNode(), error);
		forgetDeliveries(deliveryMemoryKey(this, stored.webhookId));
		clearSubscription(staticData);
		return false;
	}

	// A tag in the API's name that is not ours: someone else's (renamed, or re-used id). Never deleted.
	const remoteTag = tagOfName(remote.name);
	if (!storedIsOurs(stored, tag, remote.url, url) || (remoteTag !== undefined && remoteTag !== tag)) {
		forgetForeign(this, stored, 'it is not provably this trigger\'s own');
		clearSubscription(staticData);
		return false;
	}

	// The API's own url and events decide; where its answer lacks them, what we stored at creation does.
	const remoteUrl = typeof remote.url === 'string' ? remote.url : stored.webhookUrl;
	const remoteEvents = Array.isArray(remote.events) ? (remote.events as unknown[]) : stored.webhookEvents;
	const current =
		remoteUrl === url &&
		sameEvents(remoteEvents, events) &&
		!isInactiveStatus(remote.status) &&
		stored.webhookSecret !== undefined;
	if (current) {
		if (stored.webhookOwner === undefined) staticData.webhookOwner = tag;
		return true;
	}

	await deleteRemote(this, stored.webhookId);
	forgetDeliveries(deliveryMemoryKey(this, stored.webhookId));
	clearSubscription(staticData);
	return false;
}

/** Forgets a stored subscription that is not ours, without touching it in the CRM, and says so in n8n's log. */
function forgetForeign(context: IHookFunctions, stored: StoredSubscription, why: string): void {
	context.logger.info(
		`CRM Invoicing Trigger: left webhook subscription ${stored.webhookId ?? ''} alone because ${why} (for example a workflow imported from another n8n); this trigger subscribes anew`,
		{ workflowId: context.getWorkflow().id, nodeName: context.getNode().name },
	);
}

/**
 * Deletes this node's own leftovers: subscriptions whose name carries this node's owner tag, other than `keep`. They
 * are left behind when n8n's URL changed (WEBHOOK_URL, a tunnel), when n8n stopped while listening for a test event,
 * or when a delete failed. Nothing without our tag is touched. Best effort: a failure is logged as a warning and does
 * not stop the new subscription.
 */
async function sweepLeftovers(context: IHookFunctions, tag: string, keep?: string): Promise<void> {
	let subscriptions: IDataObject[];
	try {
		subscriptions = await listWebhookSubscriptions(context);
	} catch (error) {
		context.logger.warn(
			`CRM Invoicing Trigger: could not list webhook subscriptions to remove this trigger's leftovers (${(error as Error).message})`,
		);
		return;
	}
	for (const subscription of subscriptions) {
		const id = typeof subscription.id === 'string' || typeof subscription.id === 'number' ? String(subscription.id) : '';
		if (id === '' || id === keep || tagOfName(subscription.name) !== tag) continue;
		try {
			await deleteRemote(context, id);
			forgetDeliveries(deliveryMemoryKey(context, id));
		} catch (error) {
			context.logger.warn(
				`CRM Invoicing Trigger: could not delete this trigger's leftover webhook subscription ${id} (${(error as Error).message})`,
			);
		}
	}
}

/**
 * The error for a 400 to POST /webhooks when event names the API's documentation does not name were asked for: the
 * API most likely refused those. Undefined when only documented names were asked for (the 400 is about something else).
 */
function refusedEventsError(node: INode, error: unknown, events: string[]): NodeOperationError | undefined {
	const status = String((error as { httpCode?: unknown }).httpCode ?? '');
	if (status !== '400') return undefined;
	const undocumented = events.filter((name) => !(DOCUMENTED_EVENTS as readonly string[]).includes(name));
	if (undocumented.length === 0) return undefined;
	const apiText = (error as Error).message.replace(/^The CRM API answered /, '').slice(0, 300);
	// The names the API's message mentions, when it names any; else every undocumented name asked for.
	const named = undocumented.filter((name) => apiText.includes(name));
	const refused = named.length > 0 ? named : undocumented;
	return new NodeOperationError(
		node,
		`The API refused the event names ${refused.join(', ')} (${apiText}). The API's documentation names only ${DOCUMENTED_EVENTS.join(', ')}.`,
		{
			description:
				'Remove these names from "Events" and "Custom Event Names", or replace them with the names your CRM uses for these events, then activate the workflow again. No subscription was created.',
		},
	);
}

/** POST /webhooks with a tagged name, this node's URL and the events; keeps id, secret, URL, events and tag. */
export async function create(this: IHookFunctions): Promise<boolean> {
	const node = this.getNode();
	const events = eventsOf(this);
	if (events.length === 0) {
		throw new NodeOperationError(node, 'Select at least one event to subscribe to', {
			description: 'Choose events under "Events", or enter event names under "Options > Custom Event Names".',
		});
	}
	const url = webhookUrlOf(this);
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const customName = typeof options.subscriptionName === 'string' ? options.subscriptionName.trim() : '';
	const tag = ownerTag(this);
	const name = taggedName(customName || `n8n: ${this.getWorkflow().name ?? 'workflow'}`, tag);
	const staticData = this.getWorkflowStaticData('node');

	return await oneAtATime(this, tag, async () => {
		const previous = readSubscription(staticData);
		if (previous.webhookId) {
			// checkExists cleared what it found stale or foreign; anything still stored and ours is replaced, not orphaned.
			if (previous.webhookOwner === tag) {
				await deleteRemote(this, previous.webhookId);
				forgetDeliveries(deliveryMemoryKey(this, previous.webhookId));
			}
			clearSubscription(staticData);
		}
		await sweepLeftovers(this, tag);

		let response: IDataObject;
		try {
			response = await apiRequest.call(this, { method: 'POST', path: '/webhooks', body: { name, url, events } });
		} catch (error) {
			throw refusedEventsError(node, error, events) ?? nodeError(node, error);
		}
		const id = typeof response.id === 'string' || typeof response.id === 'number' ? String(response.id) : '';
		const secret = typeof response.secret === 'string' ? response.secret : '';
		if (id === '' || !secret.startsWith('whsec_') || secret.length <= 'whsec_'.length) {
			if (id !== '') {
				// Without its secret no delivery can be verified: remove it rather than leave it behind.
				try {
					await deleteRemote(this, id);
				} catch (error) {
					this.logger.warn(
						`CRM Invoicing Trigger: could not delete webhook subscription ${id} that came without a secret (${(error as Error).message})`,
					);
				}
			}
			throw new NodeOperationError(
				node,
				id === ''
					? 'The CRM API did not return an id for the new webhook subscription'
					: 'The CRM API did not return a signing secret (whsec_…) for the new webhook subscription',
				{
					description:
						'The trigger needs both to receive and verify deliveries. Check that the Base URL of the credential points at the CRM API, then activate the workflow again.',
				},
			);
		}

		storeSubscription(staticData, {
			webhookId: id,
			webhookSecret: secret,
			webhookUrl: url,
			webhookEvents: events,
			webhookOwner: tag,
		});
		forgetDeliveries(deliveryMemoryKey(this, id));
		markSubscribed(this, id);
		return true;
	});
}

/**
 * DELETE /webhooks/{id} of our own stored subscription; a 404 counts as already deleted. A stored subscription that is
 * not provably ours (another instance's tag, or none) is only forgotten. When the API cannot be reached, the stored subscription is
 * kept (and `false` returned), so the next activation finds and reuses or replaces it instead of orphaning it.
 */
export async function deleteSubscription(this: IHookFunctions): Promise<boolean> {
	const staticData = this.getWorkflowStaticData('node');
	const stored = readSubscription(staticData);
	// Static data of 0.1 (no tag) was given our tag on the first activation after the upgrade (checkExists).
	const ours = stored.webhookOwner === ownerTag(this);
	if (stored.webhookId && ours) {
		try {
			await deleteRemote(this, stored.webhookId);
		} catch (error) {
			this.logger.warn(
				`CRM Invoicing Trigger: could not delete webhook subscription ${stored.webhookId}; it is kept and cleaned up on the next activation (${(error as Error).message})`,
			);
			return false;
		}
		forgetDeliveries(deliveryMemoryKey(this, stored.webhookId));
	}
	clearSubscription(staticData);
	return true;
}

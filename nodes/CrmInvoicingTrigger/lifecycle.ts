import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IHookFunctions, INode } from 'n8n-workflow';

import { apiRequest, paginateV1 } from '../CrmInvoicing/transport';
import { deliveryMemoryKey, forgetDeliveries } from './recentDeliveries';
import {
	clearSubscription,
	isInactiveStatus,
	isNotFound,
	readSubscription,
	sameEvents,
	storeSubscription,
	subscribedEvents,
} from './subscription';

/** Lists at most this many pages of subscriptions when looking for leftovers at our URL (100 per page). */
const SWEEP_MAX_PAGES = 10;

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
 * The stored subscription still exists on the API, delivers to this node's URL for the current mode, and has the
 * selected events. When it does not (404, or the URL or events changed, or the API disabled it), the stored data is
 * cleared and a subscription that is still there is deleted, so `create` leaves no orphan behind.
 */
export async function checkExists(this: IHookFunctions): Promise<boolean> {
	const staticData = this.getWorkflowStaticData('node');
	const stored = readSubscription(staticData);
	if (!stored.webhookId) {
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
		});
	} catch (error) {
		if (!isNotFound(error)) throw nodeError(this.getNode(), error);
		forgetDeliveries(deliveryMemoryKey(this, stored.webhookId));
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
	if (current) return true;

	await deleteRemote(this, stored.webhookId);
	forgetDeliveries(deliveryMemoryKey(this, stored.webhookId));
	clearSubscription(staticData);
	return false;
}

/**
 * Deletes subscriptions that deliver to exactly this node's URL but are not ours any more: left behind when n8n
 * stopped while listening for a test event, or when a delete failed. Nobody else can receive at this URL, and
 * without their secret every delivery would be refused, so they are of no use. Best effort: a failure here does
 * not stop the new subscription.
 */
async function sweepLeftovers(context: IHookFunctions, url: string): Promise<void> {
	let subscriptions: IDataObject[];
	try {
		subscriptions = await paginateV1.call(
			context,
			{ path: '/webhooks' },
			{ returnAll: false, limit: SWEEP_MAX_PAGES * 100 },
		);
	} catch (error) {
		context.logger.warn(
			`CRM Invoicing Trigger: could not list webhook subscriptions to remove leftovers (${(error as Error).message})`,
		);
		return;
	}
	for (const subscription of subscriptions) {
		if (subscription.url !== url || typeof subscription.id !== 'string' || subscription.id === '') continue;
		try {
			await deleteRemote(context, subscription.id);
		} catch (error) {
			context.logger.warn(
				`CRM Invoicing Trigger: could not delete leftover webhook subscription ${subscription.id} (${(error as Error).message})`,
			);
		}
	}
}

/** POST /webhooks with name, this node's URL and the events; keeps id, secret, URL and events in static data. */
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
	const name = customName || `n8n: ${this.getWorkflow().name ?? 'workflow'}`;

	const staticData = this.getWorkflowStaticData('node');
	const previous = readSubscription(staticData);
	if (previous.webhookId) {
		// checkExists cleared what it found stale; anything still stored here is replaced, not orphaned.
		await deleteRemote(this, previous.webhookId);
		forgetDeliveries(deliveryMemoryKey(this, previous.webhookId));
		clearSubscription(staticData);
	}
	await sweepLeftovers(this, url);

	const response = await apiRequest.call(this, { method: 'POST', path: '/webhooks', body: { name, url, events } });
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

	storeSubscription(staticData, { webhookId: id, webhookSecret: secret, webhookUrl: url, webhookEvents: events });
	forgetDeliveries(deliveryMemoryKey(this, id));
	return true;
}

/**
 * DELETE /webhooks/{id}; a 404 counts as already deleted. When the API cannot be reached, the stored subscription is
 * kept (and `false` returned), so the next activation finds and reuses or replaces it instead of orphaning it.
 */
export async function deleteSubscription(this: IHookFunctions): Promise<boolean> {
	const staticData = this.getWorkflowStaticData('node');
	const stored = readSubscription(staticData);
	if (stored.webhookId) {
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

import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode } from 'n8n-workflow';

import {
	apiRequest,
	deadlineIn,
	DOCUMENTED_EVENTS,
	eventNamesOf,
	httpStatusOf,
	INACTIVE_SUBSCRIPTION_STATUS,
	isDeadlineError,
	listWebhookSubscriptions,
	nodeKey,
	oneAtATime,
} from '../shared';
import { ownerTag, tagOfName, taggedName, type TriggerContext } from './identity';
import { apiKeyOf, secretOwner, wrapSecret } from './secret';
import {
	deliveryMemoryKey,
	forgetDeliveries,
	keepRetired,
	readState,
	retireSubscription,
	storeSubscription,
	type StoredSubscription,
} from './store';

/**
 * The trigger's subscription at the CRM: subscribing under one deadline, and the one deletion rule: **a subscription
 * is deleted only when it carries this node's owner tag AND delivers to this node's current webhook URL**. No URL read
 * from the CRM is ever requested (docs/trigger.md#which-subscriptions-the-trigger-deletes).
 */

/** Most kept subscriptions named one by one in warnings; the others are counted. */
const MAX_NAMED_IN_WARNINGS = 10;

/** The transport throws NodeApiError already; anything else is wrapped so n8n shows it as the node's error. */
function nodeError(node: INode, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : String(error));
}

/** One deadline for a piece of work (a hook call, a renewal) and every request in it. */
export class Deadline {
	private readonly end: number;

	constructor(
		private readonly node: INode,
		private readonly what: string,
		readonly limitMs: number,
	) {
		this.end = Date.now() + limitMs;
	}

	/** What is left, in ms (at least 1, so a request made now fails at once instead of having no limit). */
	left(): number {
		return Math.max(1, this.end - Date.now());
	}

	expired(): boolean {
		return Date.now() >= this.end - 50;
	}

	error(detail: string): NodeOperationError {
		return new NodeOperationError(
			this.node,
			`The CRM did not answer in time: the trigger could not ${this.what} within ${this.limitMs / 1000} s`,
			{
				// The transport's own text goes here: n8n would replace a message holding a connection error code.
				description: `The CRM API did not answer in time (it may be down, overloaded or slow; ${detail.slice(0, 300)}). Check the CRM and the Base URL of the credential, then activate the workflow again.`,
			},
		);
	}

	/** Runs `work`; an error after the deadline, or a request's deadline error (its limit was this one's), names the limit. */
	async run<T>(work: () => Promise<T>): Promise<T> {
		try {
			return await work();
		} catch (error) {
			if (!this.expired() && !isDeadlineError(error)) throw nodeError(this.node, error);
			throw this.error(`last error: ${error instanceof Error ? error.message : String(error)}`);
		}
	}
}

export function eventsOf(context: TriggerContext): string[] {
	const options = context.getNodeParameter('options', {}) as IDataObject;
	return eventNamesOf(context.getNodeParameter('events', []), options.customEvents).sort();
}

export function sameEvents(a: readonly unknown[] | undefined, b: readonly string[]): boolean {
	if (!a) return false;
	const left = eventNamesOf(a, undefined).sort();
	return left.length === b.length && left.every((name, index) => name === b[index]);
}

/** Whether a subscription's status says the CRM delivers nothing to it (the choice subscription-status). */
export function isInactiveStatus(status: unknown): boolean {
	return typeof status === 'string' && INACTIVE_SUBSCRIPTION_STATUS.test(status);
}

/** This node's webhook URL for the current mode: the test URL while listening for a test event, else production. */
export function ownUrl(context: TriggerContext): string {
	const url = context.getNodeWebhookUrl('default');
	if (!url) {
		throw new NodeOperationError(context.getNode(), 'n8n did not give this trigger a webhook URL', {
			description: 'Save the workflow and try again.',
		});
	}
	return url;
}

/** A record's id as text: a non-empty string or a number, else ''. */
const idText = (value: unknown): string =>
	typeof value === 'string' || typeof value === 'number' ? String(value) : '';

export function mayDelete(
	subscription: { ownerTag?: string; url?: unknown },
	tag: string,
	url: string,
): boolean {
	return subscription.ownerTag === tag && subscription.url === url;
}

/** GET /webhooks/{id}: the record, or 'gone' on a 404. `once`: one attempt, no retry (a lookup strangers can cause). */
export async function lookUpSubscription(
	context: TriggerContext,
	id: string,
	timeLimitMs: number,
	once = false,
): Promise<IDataObject | 'gone'> {
	try {
		return await apiRequest.call(context, {
			method: 'GET',
			path: `/webhooks/${encodeURIComponent(id)}`,
			expect: 'record',
			deadline: deadlineIn(timeLimitMs),
			once,
		});
	} catch (error) {
		if (httpStatusOf(error) === 404) return 'gone';
		throw nodeError(context.getNode(), error);
	}
}

/** DELETE where the rule allows: 404 counts as gone (choice webhook-delete-answer); a 2xx sign-in page fails. */
export async function deleteOwnSubscription(
	context: TriggerContext,
	id: string,
	deadline: Deadline,
): Promise<void> {
	try {
		await apiRequest.call(context, {
			method: 'DELETE',
			path: `/webhooks/${encodeURIComponent(id)}`,
			deadline: deadlineIn(deadline.left()),
		});
	} catch (error) {
		if (httpStatusOf(error) !== 404) throw nodeError(context.getNode(), error);
	}
	forgetDeliveries(deliveryMemoryKey(context, id));
}

/** Text from the network as a log shows it: printable ASCII only (no line breaks to forge log lines), cut short. */
export function printable(value: unknown, max: number): string {
	return String(value)
		.replace(/[^\x20-\x7e]/g, '?')
		.slice(0, max);
}

function warnKept(
	context: TriggerContext,
	kept: Array<{ id: string; url: string; retired: boolean }>,
	url: string,
): void {
	const meta = { workflowId: context.getWorkflow().id, nodeName: context.getNode().name };
	for (const entry of kept.slice(0, MAX_NAMED_IN_WARNINGS)) {
		// What the CRM lists is anyone's text (a key of the workspace can plant it): printable only, cut short.
		const [id, at] = [printable(entry.id, 80), printable(entry.url, 300)];
		context.logger.warn(
			`CRM Invoicing Trigger: kept webhook subscription ${id}, which carries this trigger's owner tag but delivers to ${at}, not to this node's URL ${url}. The trigger deletes a subscription only at its own URL: this one may be the subscription of a restored copy of this n8n (for example production), which must keep receiving. If it is a leftover (an earlier WEBHOOK_URL of this n8n), delete it with the CRM Invoicing node: Webhook Subscription → Delete, ID ${id}${entry.retired ? '; until then, its deliveries that reach this node are answered 410, so that the CRM disables it' : ''}.`,
			{ ...meta, subscriptionId: id },
		);
	}
	if (kept.length > MAX_NAMED_IN_WARNINGS) {
		context.logger.warn(
			`CRM Invoicing Trigger: kept ${kept.length - MAX_NAMED_IN_WARNINGS} more webhook subscriptions with this trigger's owner tag at other URLs than ${url}; list them with the CRM Invoicing node (Webhook Subscription → Get Many)`,
			meta,
		);
	}
}

/**
 * Lets go of a subscription this node stored (the caller forgets it): deleted where the rule allows; this node's at another URL: kept,
 * retired with its secret and named (by the sweep that follows when `named` is false); else only forgotten.
 */
export async function letGo(
	context: TriggerContext,
	stored: StoredSubscription,
	deadline: Deadline,
	named = true,
): Promise<void> {
	const staticData = context.getWorkflowStaticData('node');
	const tag = ownerTag(context);
	const url = ownUrl(context);
	if (mayDelete(stored, tag, url)) {
		await deleteOwnSubscription(context, stored.id, deadline);
	} else if (stored.ownerTag === tag && stored.url !== undefined) {
		// A clear secret of 0.1/0.2 is wrapped before it is kept, so that its deliveries get 410 too.
		const clear = stored.clearSecret;
		const wrapClear = async () =>
			clear === undefined
				? undefined
				: wrapSecret(clear, await apiKeyOf(context), secretOwner(context, stored.id));
		const secretWrapped = stored.secretWrapped ?? (await wrapClear().catch(() => undefined));
		retireSubscription(staticData, {
			id: stored.id,
			url: stored.url,
			...(secretWrapped ? { secretWrapped } : {}),
		});
		if (named)
			warnKept(
				context,
				[{ id: stored.id, url: stored.url, retired: secretWrapped !== undefined }],
				url,
			);
	} else {
		forgetForeign(
			context,
			stored.id,
			"it is not provably this trigger's own (for example a workflow imported from another n8n)",
		);
	}
}

export function forgetForeign(context: TriggerContext, id: string, why: string): void {
	context.logger.info(
		`CRM Invoicing Trigger: left webhook subscription ${id} alone because ${why}; only this node's record of it is gone`,
		{
			workflowId: context.getWorkflow().id,
			nodeName: context.getNode().name,
		},
	);
}

/** Deletes this node's leftovers at its URL and names those elsewhere; best effort: a failure is logged, not thrown. */
async function sweep(
	context: TriggerContext,
	tag: string,
	url: string,
	deadline: Deadline,
	current: string,
): Promise<void> {
	let subscriptions: IDataObject[];
	try {
		const limit = deadline.left();
		if (deadline.expired()) throw new Error('no time left for it within the time limit');
		subscriptions = await listWebhookSubscriptions(
			context,
			{ returnAll: true },
			undefined,
			undefined,
			deadlineIn(limit),
		);
	} catch (error) {
		context.logger.warn(
			`CRM Invoicing Trigger: could not list webhook subscriptions to remove this trigger's leftovers (${(error as Error).message})`,
		);
		return;
	}
	const staticData = context.getWorkflowStaticData('node');
	const retired = new Set(readState(staticData).retired.map((entry) => entry.id));
	const kept: Array<{ id: string; url: string; retired: boolean }> = [];
	for (const subscription of subscriptions) {
		const id = idText(subscription.id);
		const candidate = { ownerTag: tagOfName(subscription.name), url: subscription.url };
		if (id === '' || id === current || candidate.ownerTag !== tag) continue;
		if (!mayDelete(candidate, tag, url)) {
			kept.push({ id, url: String(subscription.url ?? '(no URL)'), retired: retired.has(id) });
			continue;
		}
		try {
			await deleteOwnSubscription(context, id, deadline);
		} catch (error) {
			context.logger.warn(
				`CRM Invoicing Trigger: could not delete this trigger's leftover webhook subscription ${id} (${(error as Error).message})`,
			);
		}
	}
	warnKept(context, kept, url);
	// Retired subscriptions the CRM no longer lists are forgotten.
	const listed = new Set(kept.map((entry) => entry.id));
	keepRetired(staticData, (entry) => listed.has(entry.id));
}

/** The error for a 400 to POST /webhooks that asked for undocumented event names (the likely cause); else undefined. */
export function refusedEventsError(
	node: INode,
	error: unknown,
	events: string[],
): NodeOperationError | undefined {
	if (httpStatusOf(error) !== 400) return undefined;
	const undocumented = events.filter(
		(name) => !(DOCUMENTED_EVENTS as readonly string[]).includes(name),
	);
	if (undocumented.length === 0) return undefined;
	const apiText = (error as Error).message.replace(/^The CRM API answered /, '').slice(0, 300);
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

/** Subscribes this node at its own URL, one at a time per node and mode in this process; returns the new id. */
export async function subscribe(context: TriggerContext, deadline: Deadline): Promise<string> {
	const node = context.getNode();
	const events = eventsOf(context);
	if (events.length === 0) {
		throw new NodeOperationError(node, 'Select at least one event to subscribe to', {
			description:
				'Choose events under "Events", or enter event names under "Options > Custom Event Names".',
		});
	}
	const url = ownUrl(context);
	const tag = ownerTag(context);
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const customName =
		typeof options.subscriptionName === 'string' ? options.subscriptionName.trim() : '';
	const name = taggedName(customName || `n8n: ${context.getWorkflow().name ?? 'workflow'}`, tag);
	const staticData = context.getWorkflowStaticData('node');

	return await oneAtATime(
		`${nodeKey(context)}:${tag}`,
		async () =>
			await deadline.run(async () => {
				// Created first, the old one let go of only once the new one is stored: a POST that fails (a 503, a 429, no
				// time) leaves the stored subscription as it was, so nothing here can leave the trigger without one. A POST
				// abandoned mid-way may still create a subscription: the next sweep removes it (it is at this node's URL).
				const previous = readState(staticData).subscription;
				let response: IDataObject;
				try {
					response = await apiRequest.call(context, {
						method: 'POST',
						path: '/webhooks',
						body: { name, url, events },
						deadline: deadlineIn(deadline.left()),
					});
				} catch (error) {
					throw refusedEventsError(node, error, events) ?? nodeError(node, error);
				}
				const id = idText(response.id);
				const secret = typeof response.secret === 'string' ? response.secret : '';
				if (id === '' || !secret.startsWith('whsec_') || secret.length <= 'whsec_'.length) {
					// Without its secret no delivery can be verified: removed (it is at this node's URL) rather than left behind.
					if (id !== '') {
						await deleteOwnSubscription(context, id, deadline).catch((error: Error) => {
							context.logger.warn(
								`CRM Invoicing Trigger: could not delete webhook subscription ${id} that came without a secret (${error.message})`,
							);
						});
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
				const secretWrapped = wrapSecret(secret, await apiKeyOf(context), secretOwner(context, id));
				storeSubscription(staticData, { id, url, events, secretWrapped, ownerTag: tag });
				forgetDeliveries(deliveryMemoryKey(context, id));
				if (previous && previous.id !== id) {
					await letGo(context, previous, deadline, false).catch((error: Error) => {
						context.logger.warn(
							`CRM Invoicing Trigger: could not delete the replaced webhook subscription ${previous.id} (${error.message}); the next subscribe removes it`,
						);
					});
				}
				await sweep(context, tag, url, deadline, id);
				return id;
			}),
	);
}

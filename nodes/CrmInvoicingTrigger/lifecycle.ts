import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import type { IDataObject, IHookFunctions, INode } from 'n8n-workflow';

import { listWebhookSubscriptions } from '../CrmInvoicing/helpers/webhookList';
import { DOCUMENTED_EVENTS } from '../CrmInvoicing/apiChoices';
import { apiRequest, httpStatusOf } from '../CrmInvoicing/transport';
import { PROBE_TIME_LIMIT_MS, probeWebhookUrl, type ProbeResult } from '../CrmInvoicing/transport/probe';
import { markSubscribed, oneAtATime, ownerTag, tagOfName, taggedName } from './ownership';
import { deliveryMemoryKey, forgetDeliveries } from './recentDeliveries';
import { apiKeyOf, secretOwner, storedSecretOf, wrapSecret } from './storedSecret';
import {
	clearCurrent,
	isInactiveStatus,
	isNotFound,
	readSubscription,
	sameEvents,
	setRetired,
	storeSubscription,
	subscribedEvents,
	type RetiredSubscription,
	type StoredSubscription,
} from './subscription';

/**
 * The longest time one of checkExists, create and delete may take, every request, retry, wait and probe included.
 * n8n activates workflows one after the other, so a CRM that accepts connections and never answers holds up the
 * activation of every later workflow for at most this long; the trigger's own activation then fails with an error
 * that says so. Each request gets what is left of it as its time limit (`timeLimitMs`).
 */
export const HOOK_TIME_LIMIT_MS = 20_000;

/** The limit in force: HOOK_TIME_LIMIT_MS (unit tests shorten it to prove the mechanism without waiting 20 s). */
export const hookLimits = { totalMs: HOOK_TIME_LIMIT_MS };

/**
 * The share of the time limit create keeps for POST /webhooks (8 s of 20 s): the sweep and the probes of old URLs
 * before it get only what is left above it, so a webhook list that hangs does not stop the subscribing.
 */
const RESERVED_FOR_SUBSCRIBING = 0.4;

/** create does not send POST /webhooks with less than this share of the time limit left (2 s of 20 s). */
const MIN_SHARE_TO_SUBSCRIBE = 0.1;

/** Most old URLs one activation probes; the others are kept and named in a warning, and probed next time. */
export const MAX_PROBES_PER_ACTIVATION = 5;

/** One hook call's deadline. */
class HookDeadline {
	private readonly end: number;

	private readonly limitMs: number;

	constructor(
		private readonly context: IHookFunctions,
		private readonly what: string,
	) {
		this.limitMs = hookLimits.totalMs;
		this.end = Date.now() + this.limitMs;
	}

	/** What is left, in ms (at least 1, so a request made now fails at once instead of having no limit). */
	left(): number {
		return Math.max(1, this.end - Date.now());
	}

	expired(): boolean {
		return Date.now() >= this.end - 50;
	}

	/** What is left above the share of the limit kept for later work, in ms (may be 0 or less: no time). */
	leftAbove(share: number): number {
		return this.end - Date.now() - share * this.limitMs;
	}

	/** The error of a hook that ran out of time: it names the time limit; the transport's last error is in the description. */
	error(detail: string): NodeOperationError {
		return new NodeOperationError(
			this.context.getNode(),
			`The CRM did not answer in time: the trigger could not ${this.what} within ${this.limitMs / 1000} s`,
			{
				// The transport's own text goes here: n8n would replace a message holding a connection error code.
				description: `The CRM API did not answer in time (it may be down, overloaded or slow; ${detail.slice(0, 300)}), so this workflow was not activated; n8n went on activating its other workflows. Check the CRM and the Base URL of the credential, then activate the workflow again.`,
			},
		);
	}

	/** Runs `work`; an error after the deadline passed is rethrown as one that names the time limit. */
	async run<T>(work: () => Promise<T>): Promise<T> {
		try {
			return await work();
		} catch (error) {
			if (!this.expired()) throw nodeError(this.context.getNode(), error);
			throw this.error(`last error: ${error instanceof Error ? error.message : String(error)}`);
		}
	}
}

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
async function deleteRemote(context: IHookFunctions, id: string, deadline: HookDeadline): Promise<true> {
	try {
		await apiRequest.call(context, {
			method: 'DELETE',
			path: `/webhooks/${encodeURIComponent(id)}`,
			timeLimitMs: deadline.left(),
		});
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
 * The stored subscription still exists on the API, is ours, delivers to this node's URL for the current mode, has
 * the selected events and a secret this credential can unwrap. When it does not (404, or the URL or events changed,
 * or the API disabled it, or the secret is lost), the stored data is cleared, and a subscription of ours that is
 * still there is deleted, so `create` leaves no orphan behind, except one at another URL that still answers as a
 * registered n8n webhook (settleOldUrl). A subscription that is not provably ours is left alone: only our copy of its
 * data is forgotten. Static data of 0.2 (a clear secret) is migrated here: wrapped, and the clear copy deleted.
 * Bounded by HOOK_TIME_LIMIT_MS.
 */
export async function checkExists(this: IHookFunctions): Promise<boolean> {
	const deadline = new HookDeadline(this, 'check its webhook subscription');
	return await deadline.run(async () => await checkExistsWithin(this, deadline));
}

async function checkExistsWithin(context: IHookFunctions, deadline: HookDeadline): Promise<boolean> {
	const staticData = context.getWorkflowStaticData('node');
	const stored = readSubscription(staticData);
	if (!stored.webhookId) {
		clearCurrent(staticData);
		return false;
	}
	const tag = ownerTag(context);
	if (stored.webhookOwner !== undefined && stored.webhookOwner !== tag) {
		forgetForeign(context, stored, 'its owner tag is not this n8n instance\'s, workflow\'s and node\'s');
		clearCurrent(staticData);
		return false;
	}
	const url = webhookUrlOf(context);
	const events = eventsOf(context);

	let remote: IDataObject;
	try {
		remote = await apiRequest.call(context, {
			method: 'GET',
			path: `/webhooks/${encodeURIComponent(stored.webhookId)}`,
			expect: 'record',
			timeLimitMs: deadline.left(),
		});
	} catch (error) {
		if (!isNotFound(error)) throw nodeError(context.getNode(), error);
		forgetDeliveries(deliveryMemoryKey(context, stored.webhookId));
		clearCurrent(staticData);
		return false;
	}

	// A tag in the API's name that is not ours: someone else's (renamed, or re-used id). Never deleted.
	const remoteTag = tagOfName(remote.name);
	if (!storedIsOurs(stored, tag, remote.url, url) || (remoteTag !== undefined && remoteTag !== tag)) {
		forgetForeign(context, stored, 'it is not provably this trigger\'s own');
		clearCurrent(staticData);
		return false;
	}

	// The secret: wrapped (0.3), or in clear (0.2, migrated now). One that does not unwrap is lost.
	const owner = secretOwner(context, stored.webhookId);
	const apiKey = await apiKeyOf(context);
	const secret = await storedSecretOf(stored, async () => apiKey, owner, false);
	let wrapped = stored.webhookSecretWrapped;
	if (secret.kind === 'secret' && stored.webhookSecretWrapped === undefined) {
		wrapped = wrapSecret(secret.secret, apiKey, owner);
		staticData.webhookSecretWrapped = wrapped;
		delete staticData.webhookSecret;
	} else if (secret.kind === 'unusable') {
		context.logger.warn(
			`CRM Invoicing Trigger: the stored signing secret of webhook subscription ${stored.webhookId} cannot be unwrapped with this credential (its API key changed, or the workflow's data was copied from another workflow); this trigger subscribes anew`,
			{ workflowId: context.getWorkflow().id, nodeName: context.getNode().name },
		);
	}

	// The API's own url and events decide; where its answer lacks them, what we stored at creation does.
	const remoteUrl = typeof remote.url === 'string' ? remote.url : stored.webhookUrl;
	const remoteEvents = Array.isArray(remote.events) ? (remote.events as unknown[]) : stored.webhookEvents;
	const current =
		remoteUrl === url && sameEvents(remoteEvents, events) && !isInactiveStatus(remote.status) && secret.kind === 'secret';
	if (current) {
		if (stored.webhookOwner === undefined) staticData.webhookOwner = tag;
		return true;
	}

	if (remoteUrl !== undefined && remoteUrl !== url && !isInactiveStatus(remote.status)) {
		await settleOldUrl(context, deadline, {
			webhookId: stored.webhookId,
			webhookUrl: remoteUrl,
			...(secret.kind === 'secret' && wrapped !== undefined ? { webhookSecretWrapped: wrapped } : {}),
		});
	} else {
		await deleteRemote(context, stored.webhookId, deadline);
	}
	forgetDeliveries(deliveryMemoryKey(context, stored.webhookId));
	clearCurrent(staticData);
	return false;
}

/**
 * One of this node's subscriptions delivers to another URL than the node's current one. Three cases look alike here
 * (the same ids, another URL), and the old URL tells them apart (transport/probe.ts):
 * - it no longer answers as a registered n8n webhook (404, or refused twice, or its name does not resolve): a real
 *   WEBHOOK_URL change, and the subscription is a leftover: it is deleted;
 * - it still answers as one: either a restored copy of this n8n (a backup started as staging with another
 *   WEBHOOK_URL: the subscription is production's, which must keep receiving), or an old address that still reaches
 *   this n8n (an alias). Both are kept: the subscription is retired (its wrapped secret kept, so a delivery through it
 *   that reaches this n8n is answered 410 and the CRM disables it: no event runs this trigger twice), and a warning
 *   names it and says how to remove it;
 * - no answer in time, or another answer: not proof of anything, kept as above.
 * Returns whether it was deleted.
 */
async function settleOldUrl(
	context: IHookFunctions,
	deadline: HookDeadline,
	old: RetiredSubscription,
	probe?: ProbeResult,
): Promise<boolean> {
	const result = probe ?? (await probeDead(context, old.webhookUrl, deadline));
	if (result.verdict === 'notRegistered') {
		await deleteRemote(context, old.webhookId, deadline);
		context.logger.info(
			`CRM Invoicing Trigger: deleted its webhook subscription ${old.webhookId}, which delivered to ${old.webhookUrl}: that URL no longer answers as a registered n8n webhook (${result.detail})`,
			{ workflowId: context.getWorkflow().id, nodeName: context.getNode().name },
		);
		return true;
	}
	const staticData = context.getWorkflowStaticData('node');
	const retired = (readSubscription(staticData).webhookRetired ?? []).filter((entry) => entry.webhookId !== old.webhookId);
	setRetired(staticData, [...retired, old]);
	warnKept(context, old.webhookId, old.webhookUrl, result);
	return false;
}

/** Logs why a subscription with this node's tag at another URL was kept, and how to remove it. */
function warnKept(context: IHookFunctions, id: string, url: string, result: ProbeResult): void {
	const seen =
		result.verdict === 'registered'
			? `that URL still answers as a registered n8n webhook (${result.detail})`
			: `that URL could not be checked (${result.detail})`;
	context.logger.warn(
		`CRM Invoicing Trigger: kept webhook subscription ${id}, which carries this trigger's owner tag but delivers to ${url}, because ${seen}. It may be the subscription of a restored copy of this n8n (for example production), which must keep receiving. If that URL is an old address of this n8n, its deliveries here are answered 410 and the CRM disables it; to remove it, delete webhook subscription ${id} in the CRM (or with the CRM Invoicing node: Webhook Subscription → Delete).`,
		{ workflowId: context.getWorkflow().id, nodeName: context.getNode().name, subscriptionId: id },
	);
}

/**
 * Probes an old webhook URL within the hook's deadline. A refused connection is asked again after a second (a
 * restarting n8n refuses for a moment), and counts as dead only when refused twice; a name that does not resolve
 * counts as dead.
 */
async function probeDead(context: IHookFunctions, url: string, deadline: HookDeadline): Promise<ProbeResult> {
	const limit = () => Math.min(PROBE_TIME_LIMIT_MS, deadline.leftAbove(RESERVED_FOR_SUBSCRIBING));
	if (limit() <= 0) return { verdict: 'unknown', detail: 'no time left to check it' };
	const first = await probeWebhookUrl.call(context, url, limit());
	if (first.detail === 'ENOTFOUND') return { verdict: 'notRegistered', detail: first.detail };
	if (first.detail !== 'ECONNREFUSED') return first;
	await sleep(1_000);
	if (limit() <= 0) return first;
	const second = await probeWebhookUrl.call(context, url, limit());
	return second.detail === 'ECONNREFUSED' ? { verdict: 'notRegistered', detail: 'ECONNREFUSED twice' } : second;
}

/** Forgets a stored subscription that is not ours, without touching it in the CRM, and says so in n8n's log. */
function forgetForeign(context: IHookFunctions, stored: StoredSubscription, why: string): void {
	context.logger.info(
		`CRM Invoicing Trigger: left webhook subscription ${stored.webhookId ?? ''} alone because ${why} (for example a workflow imported from another n8n); this trigger subscribes anew`,
		{ workflowId: context.getWorkflow().id, nodeName: context.getNode().name },
	);
}

/**
 * Deals with this node's own leftovers: subscriptions whose name carries this node's owner tag, other than `keep`.
 * They are left behind when n8n's URL changed (WEBHOOK_URL, a tunnel), when n8n stopped while listening for a test
 * event, or when a delete failed. One at this node's current URL is deleted; one at another URL only when that URL is
 * provably dead (settleOldUrl), since a restored copy of this n8n computes the same owner tag. Nothing without our tag
 * is touched. Best effort: a failure is logged as a warning and does not stop the new subscription.
 */
async function sweepLeftovers(context: IHookFunctions, tag: string, url: string, deadline: HookDeadline): Promise<void> {
	let subscriptions: IDataObject[];
	try {
		// The sweep leaves POST /webhooks its share of the deadline: a list that hangs does not stop the subscribing.
		const limit = deadline.leftAbove(RESERVED_FOR_SUBSCRIBING);
		if (limit <= 0) throw new Error('no time left for it within the time limit');
		subscriptions = await listWebhookSubscriptions(context, { returnAll: true }, undefined, undefined, limit);
	} catch (error) {
		context.logger.warn(
			`CRM Invoicing Trigger: could not list webhook subscriptions to remove this trigger's leftovers (${(error as Error).message})`,
		);
		return;
	}
	const staticData = context.getWorkflowStaticData('node');
	const retired = readSubscription(staticData).webhookRetired ?? [];
	const gone = new Set<string>();
	const elsewhere: RetiredSubscription[] = [];
	for (const subscription of subscriptions) {
		const id = typeof subscription.id === 'string' || typeof subscription.id === 'number' ? String(subscription.id) : '';
		if (id === '' || tagOfName(subscription.name) !== tag) continue;
		const at = typeof subscription.url === 'string' ? subscription.url : undefined;
		if (at !== undefined && at !== url && !isInactiveStatus(subscription.status)) {
			const known = retired.find((entry) => entry.webhookId === id);
			elsewhere.push(known ?? { webhookId: id, webhookUrl: at });
			continue;
		}
		try {
			await deleteRemote(context, id, deadline);
			forgetDeliveries(deliveryMemoryKey(context, id));
			gone.add(id);
		} catch (error) {
			context.logger.warn(
				`CRM Invoicing Trigger: could not delete this trigger's leftover webhook subscription ${id} (${(error as Error).message})`,
			);
		}
	}
	// Old URLs are probed at the same time, a few per activation; the rest are kept and probed next time.
	const probed = elsewhere.slice(0, MAX_PROBES_PER_ACTIVATION);
	const results = await Promise.all(probed.map(async (old) => await probeDead(context, old.webhookUrl, deadline)));
	for (const [index, old] of elsewhere.entries()) {
		const result = results[index] ?? { verdict: 'unknown' as const, detail: 'not checked in this activation' };
		try {
			if (await settleOldUrl(context, deadline, old, result)) {
				forgetDeliveries(deliveryMemoryKey(context, old.webhookId));
				gone.add(old.webhookId);
			}
		} catch (error) {
			context.logger.warn(
				`CRM Invoicing Trigger: could not delete this trigger's leftover webhook subscription ${old.webhookId} (${(error as Error).message})`,
			);
		}
	}
	// Retired subscriptions the CRM no longer lists, or that were deleted now, are forgotten.
	const listed = new Set(subscriptions.map((subscription) => String(subscription.id ?? '')));
	const still = (readSubscription(staticData).webhookRetired ?? []).filter(
		(entry) => listed.has(entry.webhookId) && !gone.has(entry.webhookId),
	);
	setRetired(staticData, still);
}

/**
 * The error for a 400 to POST /webhooks when event names the API's documentation does not name were asked for: the
 * API most likely refused those. Undefined when only documented names were asked for (the 400 is about something else).
 */
function refusedEventsError(node: INode, error: unknown, events: string[]): NodeOperationError | undefined {
	if (httpStatusOf(error) !== 400) return undefined;
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
	const deadline = new HookDeadline(this, 'create its webhook subscription');

	return await oneAtATime(this, tag, async () => await deadline.run(async () => {
		const previous = readSubscription(staticData);
		if (previous.webhookId) {
			// checkExists cleared what it found stale or foreign; anything still stored and ours is replaced, not orphaned.
			if (previous.webhookOwner === tag) {
				await deleteRemote(this, previous.webhookId, deadline);
				forgetDeliveries(deliveryMemoryKey(this, previous.webhookId));
			}
			clearCurrent(staticData);
		}
		await sweepLeftovers(this, tag, url, deadline);

		// Not sent with too little time left: a POST abandoned mid-way may still create a subscription (the next
		// activation's sweep removes such a leftover, since it delivers to this node's own URL).
		if (deadline.leftAbove(MIN_SHARE_TO_SUBSCRIBE) <= 0) throw deadline.error('no time was left to send POST /webhooks');
		let response: IDataObject;
		try {
			response = await apiRequest.call(this, {
				method: 'POST',
				path: '/webhooks',
				body: { name, url, events },
				timeLimitMs: deadline.left(),
			});
		} catch (error) {
			throw refusedEventsError(node, error, events) ?? nodeError(node, error);
		}
		const id = typeof response.id === 'string' || typeof response.id === 'number' ? String(response.id) : '';
		const secret = typeof response.secret === 'string' ? response.secret : '';
		if (id === '' || !secret.startsWith('whsec_') || secret.length <= 'whsec_'.length) {
			if (id !== '') {
				// Without its secret no delivery can be verified: remove it rather than leave it behind.
				try {
					await deleteRemote(this, id, deadline);
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

		// Stored wrapped, never in clear (secretAtRest.ts).
		const apiKey = await apiKeyOf(this);
		storeSubscription(staticData, {
			webhookId: id,
			webhookSecretWrapped: wrapSecret(secret, apiKey, secretOwner(this, id)),
			webhookUrl: url,
			webhookEvents: events,
			webhookOwner: tag,
		});
		forgetDeliveries(deliveryMemoryKey(this, id));
		markSubscribed(this, id);
		return true;
	}));
}

/**
 * DELETE /webhooks/{id} of our own stored subscription; a 404 counts as already deleted. A stored subscription that is
 * not provably ours (another instance's tag, or none) is only forgotten, and one stored for another URL than this
 * n8n's (a restored copy's static data) is deleted only when that URL provably no longer answers (settleOldUrl). When the API cannot be reached, the stored subscription is
 * kept (and `false` returned), so the next activation finds and reuses or replaces it instead of orphaning it.
 */
export async function deleteSubscription(this: IHookFunctions): Promise<boolean> {
	const deadline = new HookDeadline(this, 'delete its webhook subscription');
	const staticData = this.getWorkflowStaticData('node');
	const stored = readSubscription(staticData);
	// Static data of 0.1 (no tag) was given our tag on the first activation after the upgrade (checkExists).
	const ours = stored.webhookOwner === ownerTag(this);
	if (stored.webhookId && ours) {
		try {
			const url = this.getNodeWebhookUrl('default');
			if (stored.webhookUrl !== undefined && url !== undefined && stored.webhookUrl !== url) {
				// Stored for another URL than this n8n's: a restored copy (its static data came with the backup, and n8n
				// 2.41 runs no checkExists at start-up to move it) must not delete production's subscription. The same
				// provably-dead rule as at activation: deleted only when that URL no longer answers as an n8n webhook.
				// Its wrapped secret goes with it, so a delivery through it that reaches this n8n (an alias) is answered 410.
				await settleOldUrl(this, deadline, {
					webhookId: stored.webhookId,
					webhookUrl: stored.webhookUrl,
					...(stored.webhookSecretWrapped !== undefined ? { webhookSecretWrapped: stored.webhookSecretWrapped } : {}),
				});
			} else {
				await deleteRemote(this, stored.webhookId, deadline);
			}
		} catch (error) {
			this.logger.warn(
				`CRM Invoicing Trigger: could not delete webhook subscription ${stored.webhookId}; it is kept and cleaned up on the next activation (${(error as Error).message})`,
			);
			return false;
		}
		forgetDeliveries(deliveryMemoryKey(this, stored.webhookId));
	}
	// Retired subscriptions stay remembered: the next activation's sweep settles them.
	clearCurrent(staticData);
	return true;
}

import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import {
	apiRequest,
	deadlineIn,
	DOCUMENTED_EVENTS,
	eventNamesOf,
	httpStatusOf,
	INACTIVE_SUBSCRIPTION_STATUS,
	isDeadlineError,
	listWebhookSubscriptions,
	msLeft,
	nodeKey,
	oneAtATime,
	Turns,
	type Deadline,
} from '../shared';
import {
	apiKeyOf,
	log,
	ownerTag,
	readState,
	retireSubscription,
	saveState,
	secretOwner,
	tagOf,
	wrapSecret,
	type StoredSubscription,
	type TriggerContext,
} from './store';

/**
 * The trigger's subscription at the CRM, every call that subscribes or deletes (for the hooks in the node file and the
 * renewal a delivery starts), each under one deadline. Subscribing creates the new subscription first and lets the old
 * one go only once the new one is stored. The one deletion rule: **a subscription is deleted only when it carries this
 * node's owner tag AND delivers to this node's current webhook URL**; no URL read from the CRM is ever requested
 * (docs/trigger.md#which-subscriptions-the-trigger-deletes).
 */

export const mayDelete = (held: { ownerTag?: string; url?: unknown }, tag: string, url: string) =>
	held.ownerTag === tag && held.url === url;

export function eventsOf(context: TriggerContext): string[] {
	const custom = (context.getNodeParameter('options', {}) as IDataObject).customEvents;
	return eventNamesOf(context.getNodeParameter('events', []), custom).sort();
}

/** Whether a subscription's status says the CRM delivers nothing to it (the choice subscription-status). */
export const isInactiveStatus = (status: unknown): boolean =>
	typeof status === 'string' && INACTIVE_SUBSCRIPTION_STATUS.test(status);

/** Text from the network as a log shows it: printable ASCII only (no line breaks to forge log lines), cut short. */
export const printable = (value: unknown, max: number): string =>
	String(value)
		.replace(/[^ -~]/g, '?')
		.slice(0, max);

/** This node's static data, owner tag and webhook URL (the test URL while listening for a test event). */
export function own(context: TriggerContext) {
	const url = context.getNodeWebhookUrl('default');
	if (url) return { data: context.getWorkflowStaticData('node'), tag: ownerTag(context), url };
	throw new NodeOperationError(context.getNode(), 'n8n did not give this trigger a webhook URL', {
		description: 'Save the workflow and try again.',
	});
}

const idText = (value: unknown): string =>
	typeof value === 'string' || typeof value === 'number' ? String(value) : '';

/** Runs `work` under one deadline; an error after it, or a request's deadline error, names the time limit. */
export async function inTime<T>(
	context: TriggerContext,
	what: string,
	limitMs: number,
	work: (deadline: Deadline) => Promise<T>,
): Promise<T> {
	const [node, deadline] = [context.getNode(), deadlineIn(limitMs)];
	try {
		return await work(deadline);
	} catch (error) {
		const known = error instanceof NodeApiError || error instanceof NodeOperationError;
		if (msLeft(deadline) > 50 && !isDeadlineError(error))
			throw known ? error : new NodeOperationError(node, error as Error);
		const message = `The CRM did not answer in time: the trigger could not ${what} within ${limitMs / 1000} s`;
		const detail = `last error: ${(error as Error).message}`.slice(0, 300);
		// The transport's own text goes in the description: n8n would replace a message holding a connection error code.
		const description = `The CRM API did not answer in time (it may be down, overloaded or slow; ${detail}). Check the CRM and the Base URL of the credential, then activate the workflow again.`;
		throw new NodeOperationError(node, message, { description });
	}
}

/**
 * GET (the record) or DELETE (where the rule allows; a 2xx sign-in page fails) of one subscription; a 404 is 'gone'
 * (choice webhook-delete-answer). `once`: one attempt, no retry (the lookup that strangers can cause).
 */
export async function webhookCall(
	context: TriggerContext,
	method: 'GET' | 'DELETE',
	id: string,
	deadline: Deadline,
	once = false,
): Promise<IDataObject | 'gone'> {
	const path = `/webhooks/${encodeURIComponent(id)}`;
	const expect = method === 'GET' ? ('record' as const) : undefined;
	const answer = apiRequest.call(context, { method, path, expect, deadline, once });
	const gone = (error: unknown) => (httpStatusOf(error) === 404 ? 'gone' : Promise.reject(error));
	return (await answer.catch(gone)) as IDataObject | 'gone';
}

type Kept = { id: string; url: string; retired: boolean };

/** Names (ten at most, the rest counted) this trigger's subscriptions kept because they deliver elsewhere. */
function warnKept(context: TriggerContext, kept: Kept[], url: string): void {
	for (const entry of kept.slice(0, 10)) {
		// What the CRM lists is anyone's text (a key of the workspace can plant it): printable only, cut short.
		const [id, at] = [printable(entry.id, 80), printable(entry.url, 300)];
		const then = `; until then, its deliveries that reach this node are answered 410, so that the CRM disables it`;
		const message = `kept webhook subscription ${id}, which carries this trigger's owner tag but delivers to ${at}, not to this node's URL ${url}. The trigger deletes a subscription only at its own URL: this one may be the subscription of a restored copy of this n8n (for example production), which must keep receiving. If it is a leftover (an earlier WEBHOOK_URL of this n8n), delete it with the CRM Invoicing node: Webhook Subscription → Delete, ID ${id}${entry.retired ? then : ''}.`;
		log(context, message, id);
	}
	const more = `kept ${kept.length - 10} more webhook subscriptions with this trigger's owner tag at other URLs than ${url}; list them with the CRM Invoicing node (Webhook Subscription → Get Many)`;
	if (kept.length > 10) log(context, more);
}

export function forgetForeign(context: TriggerContext, id: string, why: string): void {
	const message = `left webhook subscription ${id} alone because ${why}; only this node's record of it is gone`;
	log(context, message, id, true);
}

/**
 * Lets go of a subscription this node stored, and forgets it: deleted where the rule allows; this node's at another URL
 * kept, retired with its secret and named (by the sweep that follows when `named` is false); else only forgotten.
 */
export async function letGo(
	context: TriggerContext,
	held: StoredSubscription,
	by: Deadline,
	named = true,
) {
	const { data, tag, url } = own(context);
	if (mayDelete(held, tag, url)) await webhookCall(context, 'DELETE', held.id, by);
	else if (held.ownerTag !== tag || held.url === undefined)
		forgetForeign(context, held.id, "it is not provably this trigger's own");
	else {
		const { id, url: at, secretWrapped } = held;
		retireSubscription(data, { id, url: at, ...(secretWrapped ? { secretWrapped } : {}) });
		if (named) warnKept(context, [{ id, url: at, retired: !!secretWrapped }], url);
	}
	if (readState(data).subscription?.id === held.id) saveState(data, { subscription: undefined });
}

/** Deletes this node's leftovers at its URL and names those elsewhere; best effort: a failure is logged, not thrown. */
async function sweep(context: TriggerContext, deadline: Deadline, current: string): Promise<void> {
	const { data, tag, url } = own(context);
	let listed: IDataObject[];
	try {
		if (msLeft(deadline) < 50) throw new Error('no time left for it within the time limit');
		listed = await listWebhookSubscriptions(context, undefined, undefined, undefined, deadline);
	} catch (error) {
		const message = `could not list webhook subscriptions to remove this trigger's leftovers (${(error as Error).message})`;
		return log(context, message);
	}
	const retired = readState(data).retired;
	const kept: Kept[] = [];
	for (const found of listed) {
		const [id, candidate] = [idText(found.id), { ownerTag: tagOf(found.name), url: found.url }];
		if (id === '' || id === current || candidate.ownerTag !== tag) continue;
		const leftover = `could not delete this trigger's leftover webhook subscription ${id}`;
		const retiredOne = retired.some((entry) => entry.id === id);
		if (mayDelete(candidate, tag, url))
			await webhookCall(context, 'DELETE', id, deadline).catch((error: Error) =>
				log(context, `${leftover} (${error.message})`),
			);
		else kept.push({ id, url: String(found.url ?? '(no URL)'), retired: retiredOne });
	}
	warnKept(context, kept, url);
}

/** A 400 to POST /webhooks that asked for undocumented event names (the likely cause) says so; else `error` as is. */
function refusedEvents(context: TriggerContext, error: unknown, events: string[]): unknown {
	const undocumented = events.filter((name) => !DOCUMENTED_EVENTS.includes(name));
	if (httpStatusOf(error) !== 400 || undocumented.length === 0) return error;
	const apiText = (error as Error).message.replace(/^The CRM API answered /, '').slice(0, 300);
	const named = undocumented.filter((name) => apiText.includes(name));
	const message = `The API refused the event names ${(named.length > 0 ? named : undocumented).join(', ')} (${apiText}). The API's documentation names only ${DOCUMENTED_EVENTS.join(', ')}.`;
	const description =
		'Remove these names from "Events" and "Custom Event Names", or replace them with the names your CRM uses for these events, then activate the workflow again. No subscription was created.';
	return new NodeOperationError(context.getNode(), message, { description });
}

/** Subscribes this node at its own URL, one at a time per node and mode in this process; returns the new id. */
export async function subscribe(context: TriggerContext, deadline: Deadline): Promise<string> {
	const [node, events] = [context.getNode(), eventsOf(context)];
	const choose =
		'Choose events under "Events", or enter event names under "Options > Custom Event Names".';
	if (events.length === 0)
		throw new NodeOperationError(node, 'Select at least one event to subscribe to', {
			description: choose,
		});
	const { data, tag, url } = own(context);
	const { subscriptionName } = context.getNodeParameter('options', {}) as IDataObject;
	const custom = typeof subscriptionName === 'string' ? subscriptionName.trim() : '';
	const name = `${custom || `n8n: ${context.getWorkflow().name ?? 'workflow'}`} [n8n:${tag}]`;
	return await oneAtATime(`${nodeKey(context)}:${tag}`, async () => {
		// Created first, the old one let go of only once the new one is stored: a POST that fails (a 503, a 429, no
		// time) leaves the stored subscription as it was, so nothing here can leave the trigger without one. A POST
		// abandoned mid-way may still create a subscription: the next sweep removes it (it is at this node's URL).
		const previous = readState(data).subscription;
		const body = { name, url, events };
		const response = await apiRequest
			.call(context, { method: 'POST', path: '/webhooks', body, deadline })
			.catch((error: unknown) => Promise.reject(refusedEvents(context, error, events)));
		const [id, secret] = [idText(response.id), String(response.secret ?? '')];
		if (id === '' || !/^whsec_./.test(secret)) {
			// Without its secret no delivery can be verified: removed (it is at this node's URL) rather than left behind.
			const orphan = `could not delete webhook subscription ${id} that came without a secret`;
			if (id !== '')
				await webhookCall(context, 'DELETE', id, deadline).catch((error: Error) =>
					log(context, `${orphan} (${error.message})`),
				);
			const message = `The CRM API did not return ${id === '' ? 'an id' : 'a signing secret (whsec_…)'} for the new webhook subscription`;
			const description =
				'The trigger needs both to receive and verify deliveries. Check that the Base URL of the credential points at the CRM API, then activate the workflow again.';
			throw new NodeOperationError(node, message, { description });
		}
		const secretWrapped = wrapSecret(secret, await apiKeyOf(context), secretOwner(context, id));
		const subscription = { id, url, events, secretWrapped, ownerTag: tag };
		saveState(data, { subscription, recentDeliveries: [] });
		const replaced = `could not delete the replaced webhook subscription ${previous?.id}`;
		if (previous && previous.id !== id)
			await letGo(context, previous, deadline, false).catch((error: Error) =>
				log(context, `${replaced} (${error.message}); the next subscribe removes it`),
			);
		await sweep(context, deadline, id);
		return id;
	});
}

/**
 * A renewal a delivery starts: subscribing anew at this node's URL (created first, the old one deleted once the new one
 * is stored), logged with why; a failure keeps the stored one for a later delivery to retry. Causes: a stored secret
 * that neither the credential's key nor this process can read (on n8n 2.41 nothing else runs the hooks), and the CRM
 * rotating its secret, seen (a verified delivery with another `v1` entry) or missed (a mismatch on a subscription the
 * CRM shows current): the new secret comes only with a new subscription (spec §6). Per node and process at most once
 * per RENEWAL_INTERVAL_MS, or SIGNATURE_RENEWAL_INTERVAL_MS for a rotation (a forger can send a mismatch); never on the
 * test URL (which subscribes anew at each listening); within RENEWAL_TIME_LIMIT_MS, before the delivery's call returns
 * (n8n then saves the new subscription), so that any answer it waits for reaches the CRM within 20 s
 * (docs/trigger.md#rotating-the-api-key, docs/trigger.md#rotation-of-the-signing-secret).
 */
export const RENEWAL_INTERVAL_MS = 60_000;
export const SIGNATURE_RENEWAL_INTERVAL_MS = 3_600_000;
export const RENEWAL_TIME_LIMIT_MS = 15_000;
const renewals = new Turns(RENEWAL_INTERVAL_MS, 500);
const signatureRenewals = new Turns(SIGNATURE_RENEWAL_INTERVAL_MS, 500);

export type RenewalCause = 'unreadable' | 'rotating' | 'mismatch';

const WHY: Record<RenewalCause, (id: string) => string> = {
	unreadable: (id) =>
		`the stored signing secret of webhook subscription ${id} cannot be read with the credential's API key (the key changed while no n8n process held the secret in memory, for example across a restart, or an earlier version stored it in clear), so no delivery through it can be verified`,
	rotating: (id) =>
		`a delivery verified with the stored signing secret of webhook subscription ${id} also carried a signature by another secret: the CRM is rotating the secret, and the new one comes only with a new subscription`,
	mismatch: (id) =>
		`a delivery's signature does not match the stored signing secret of webhook subscription ${id}, which the CRM shows current at this node's URL: the CRM may have rotated the secret (or the delivery is forged), and a new secret comes only with a new subscription`,
};

export async function renew(
	context: IWebhookFunctions,
	stored: StoredSubscription,
	cause: RenewalCause,
	ms: number,
) {
	const turns = cause === 'unreadable' ? renewals : signatureRenewals;
	if (context.getMode() === 'manual' || !turns.take(nodeKey(context))) return;
	const why = WHY[cause](stored.id);
	const lost =
		cause === 'rotating'
			? ''
			: ` Events delivered through ${stored.id} until now are not run: look in the CRM for events of that time.`;
	const done = (id: string) =>
		`${why}. Subscribed anew at this node's URL as webhook subscription ${id} (subscription ${stored.id} was deleted afterwards if it delivered to this URL).${lost}`;
	const failed = (error: Error) =>
		`${why}. Subscribing anew failed (${error.message}); the stored subscription is kept, and a delivery tries again in ${turns.intervalMs / 1000} s at the earliest (or re-publish the workflow).`;
	await inTime(context, 'subscribe anew', ms, async (by) => await subscribe(context, by)).then(
		(id) => log(context, done(id), id),
		(error: Error) => log(context, failed(error)),
	);
}

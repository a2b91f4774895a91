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
	forgetForeign,
	idText,
	mayDelete,
	own,
	printable,
	provablyOwn,
	warnKept,
	webhookCall,
	type Kept,
} from './ownership';
import {
	apiKeyOf,
	log,
	readState,
	retireSubscription,
	saveState,
	secretOwner,
	tagOf,
	wrapSecret,
	type StoredSubscription,
	type TriggerContext,
} from './store';

export { forgetForeign, mayDelete, own, printable, sameUrl, webhookCall } from './ownership';

/**
 * The trigger's subscription at the CRM, every call that subscribes or deletes (for the hooks in the node file and the
 * renewal a delivery starts), each under one deadline. Subscribing creates the new subscription first and lets the old
 * one go only once the new one is stored; who owns what is ownership.ts's.
 */

export function eventsOf(context: TriggerContext): string[] {
	const custom = (context.getNodeParameter('options', {}) as IDataObject).customEvents;
	return eventNamesOf(context.getNodeParameter('events', []), custom).sort();
}

/** Whether a subscription's status says the CRM delivers nothing to it (the choice subscription-status). */
export const isInactiveStatus = (status: unknown): boolean =>
	typeof status === 'string' && INACTIVE_SUBSCRIPTION_STATUS.test(status);

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
	const { id, url: at, secretWrapped } = held;
	if (await provablyOwn(context, held, by)) await webhookCall(context, 'DELETE', id, by);
	else if (held.ownerTag !== tag || at === undefined)
		forgetForeign(context, id, "it is not provably this trigger's own");
	else {
		retireSubscription(data, { id, url: at, ...(secretWrapped ? { secretWrapped } : {}) });
		if (named) warnKept(context, [{ id, url: at, retired: secretWrapped !== undefined }], url);
	}
	if (readState(data).subscription?.id === id) saveState(data, { subscription: undefined });
}

/** Deletes this node's leftovers at its URL and names those elsewhere; best effort: a failure is logged, not thrown. */
async function sweep(context: TriggerContext, deadline: Deadline, current: string): Promise<void> {
	const { data, tag, url } = own(context);
	let listed: IDataObject[];
	try {
		if (msLeft(deadline) < 50) throw new Error('no time left for it within the time limit');
		listed = await listWebhookSubscriptions(context, { deadline });
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

const hasSecret = (answer: IDataObject) => /^whsec_./.test(String(answer.secret ?? ''));
const AGAIN = 'then activate the workflow again';

/**
 * POST /webhooks. A CRM that keeps one subscription per URL answers another POST for this URL with 409, or with the one
 * it holds, without a secret: when that is the stored one and the rule lets it be deleted, it is, and the POST is sent
 * once more; else the answer stands, and a 409 is an error that says what to do.
 */
async function post(context: TriggerContext, body: IDataObject, deadline: Deadline) {
	const { data, url } = own(context);
	const previous = readState(data).subscription;
	const events = body.events as string[];
	const send = async () =>
		await apiRequest
			.call(context, { method: 'POST', path: '/webhooks', body, deadline })
			.catch((error: unknown) => Promise.reject(refusedEvents(context, error, events)));
	const conflict = (error: unknown) =>
		httpStatusOf(error) === 409 ? undefined : Promise.reject(error);
	const first = await send().catch(conflict);
	if (first !== undefined && (hasSecret(first) || idText(first.id) !== previous?.id)) return first;
	if (previous !== undefined && (await provablyOwn(context, previous, deadline))) {
		await webhookCall(context, 'DELETE', previous.id, deadline);
		const why = `the CRM keeps one webhook subscription per URL and held this trigger's ${previous.id} at it; deleted it to subscribe anew`;
		log(context, why, previous.id, true);
		return await send();
	}
	if (first !== undefined) return first;
	const message = `The CRM API refused a webhook subscription at this trigger's URL ${url} (409: it already holds one there)`;
	const description = `That subscription is not provably this trigger's (made by hand, or by another n8n). Find it with the CRM Invoicing node (Webhook Subscription → Get Many), delete it there or in the CRM, ${AGAIN}.`;
	throw new NodeOperationError(context.getNode(), message, { description });
}

/**
 * The error for an answer without an id or a signing secret. Only a new subscription with this node's tag at its URL,
 * as the answer shows it, is deleted first; any other it names (the stored or a retired one, one without this node's
 * tag or elsewhere) is left as it is, and named.
 */
async function withoutSecret(context: TriggerContext, answer: IDataObject, deadline: Deadline) {
	const { data, tag, url } = own(context);
	const node = context.getNode();
	const id = idText(answer.id);
	const check = `Check that the Base URL of the credential points at the CRM API, ${AGAIN}.`;
	const needs = 'The trigger needs both to receive and verify deliveries.';
	if (id === '')
		return new NodeOperationError(
			node,
			'The CRM API did not return an id for the new webhook subscription',
			{
				description: `${needs} ${check}`,
			},
		);
	const state = readState(data);
	const known = id === state.subscription?.id || state.retired.some((entry) => entry.id === id);
	if (!known && mayDelete({ ownerTag: tagOf(answer.name), url: answer.url }, tag, url)) {
		const orphan = `could not delete webhook subscription ${id} that came without a secret`;
		await webhookCall(context, 'DELETE', id, deadline).catch((error: Error) =>
			log(context, `${orphan} (${error.message})`),
		);
		const message =
			'The CRM API did not return a signing secret (whsec_…) for the new webhook subscription';
		return new NodeOperationError(node, message, { description: `${needs} ${check}` });
	}
	const shown = printable(id, 80);
	const message = `The CRM API answered with webhook subscription ${shown}, without a signing secret, and it is not provably a new subscription of this trigger`;
	const description = `The CRM may keep one subscription per URL and hold one at this trigger's URL ${url} (made by hand, or by another n8n); it was left as it is. If it is not needed, delete it in the CRM or with the CRM Invoicing node (Webhook Subscription → Delete, ID ${shown}), ${AGAIN}.`;
	return new NodeOperationError(node, message, { description });
}

/** Subscribes this node at its own URL, one at a time per node and mode in this process; returns the new id. */
export async function subscribe(context: TriggerContext, deadline: Deadline): Promise<string> {
	const node = context.getNode();
	const events = eventsOf(context);
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
		const response = await post(context, { name, url, events }, deadline);
		const id = idText(response.id);
		if (id === '' || !hasSecret(response)) throw await withoutSecret(context, response, deadline);
		const secret = String(response.secret);
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

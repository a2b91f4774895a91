import { NodeApiError, NodeOperationError, type IDataObject } from 'n8n-workflow';

import {
	apiRequest,
	credentialOf,
	deadlineIn,
	DOCUMENTED_EVENTS,
	httpStatusOf,
	idText,
	INACTIVE_SUBSCRIPTION_STATUS,
	isDeadlineError,
	listWebhookSubscriptions,
	msLeft,
	oneAtATime,
	type Deadline,
} from '../shared';
import {
	forgetForeign,
	mayDelete,
	deleteSubscription,
	printable,
	provablyOwn,
	thisNode,
	warnKept,
} from './ownership';
import { eventsOf, optionsOf } from './item';
import {
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

const AGAIN = 'then activate the workflow again';

/** choice subscription-status */
export const isInactiveStatus = (status: unknown) =>
	typeof status === 'string' && INACTIVE_SUBSCRIPTION_STATUS.test(status);

export async function inTime<C extends TriggerContext, T>(
	context: C,
	what: string,
	limitMs: number,
	work: (context: C, deadline: Deadline) => Promise<T>,
) {
	const node = context.getNode();
	const deadline = deadlineIn(limitMs);
	try {
		return await work(context, deadline);
	} catch (error) {
		// A NodeOperationError given to its constructor comes back as it is.
		if (msLeft(deadline) > 50 && !isDeadlineError(error))
			throw error instanceof NodeApiError ? error : new NodeOperationError(node, error as Error);
		const detail = `last error: ${(error as Error).message}`.slice(0, 300);
		// The transport's own text goes in the description: n8n would replace a message holding a connection error code.
		throw new NodeOperationError(
			node,
			`The CRM did not answer in time: the trigger could not ${what} within ${limitMs / 1000} s`,
			{
				description: `The CRM API did not answer in time (it may be down, overloaded or slow; ${detail}). Check the CRM and the Base URL of the credential, ${AGAIN}.`,
			},
		);
	}
}

/** Deletes where the rule allows; this node's subscription at another URL is retired with its secret (`named`: and
 * warned about, when no sweep follows to name it). */
export async function letGo(
	context: TriggerContext,
	stored: StoredSubscription,
	by: Deadline,
	named = false,
) {
	const { data, tag, url } = thisNode(context);
	const { id, url: at, secretWrapped } = stored;
	if (await provablyOwn(context, stored, by)) await deleteSubscription(context, id, by);
	else if (stored.ownerTag !== tag || at === undefined) forgetForeign(context, id);
	else {
		retireSubscription(data, { id, url: at, secretWrapped });
		if (named) warnKept(context, [{ id, url: at, retired: secretWrapped !== undefined }], url);
	}
	if (readState(data).subscription?.id === id) saveState(data, { subscription: undefined });
}

/** False when `deleting` fails: logged. */
export async function orLog(context: TriggerContext, deleting: Promise<void>, what: string) {
	try {
		await deleting;
		return true;
	} catch (error) {
		log(context, `could not delete ${what} (${(error as Error).message})`);
		return false;
	}
}

async function sweep(context: TriggerContext, deadline: Deadline, current: string) {
	const { data, tag, url } = thisNode(context);
	let listed: IDataObject[];
	try {
		listed = await listWebhookSubscriptions(context, { deadline });
	} catch (error) {
		return log(
			context,
			`could not list webhook subscriptions to remove this trigger's leftovers (${(error as Error).message})`,
		);
	}
	const retired = readState(data).retired;
	const kept = [];
	for (const found of listed) {
		const id = idText(found.id);
		const candidate = { ownerTag: tagOf(found.name), url: found.url };
		if (id === '' || id === current || candidate.ownerTag !== tag) continue;
		// The one deletion rule decides, though the tag is checked above: any deletion goes through mayDelete.
		if (mayDelete(candidate, tag, url))
			await orLog(
				context,
				deleteSubscription(context, id, deadline),
				`this trigger's leftover webhook subscription ${id}`,
			);
		else
			kept.push({
				id,
				url: String(found.url ?? '(no URL)'),
				retired: retired.some((entry) => entry.id === id),
			});
	}
	warnKept(context, kept, url);
}

const isUndocumented = (name: string) => !DOCUMENTED_EVENTS.includes(name);

/** The names refused are among those eventsOf gives, the ones a subscription asks for. */
function refusedEvents(context: TriggerContext, error: unknown) {
	const undocumented = eventsOf(context).filter(isUndocumented);
	if (httpStatusOf(error) !== 400 || undocumented.length === 0) return error;
	const apiText = (error as Error).message.replace(/^The CRM API answered /, '').slice(0, 300);
	const named = undocumented.filter((name) => apiText.includes(name));
	return new NodeOperationError(
		context.getNode(),
		`The API refused the event names ${(named.length > 0 ? named : undocumented).join(', ')} (${apiText}). The API's documentation names only ${DOCUMENTED_EVENTS.join(', ')}.`,
		{
			description:
				'Remove these names from "Events" and "Custom Event Names", or replace them with the names your CRM uses for these events, then activate the workflow again. No subscription was created.',
		},
	);
}

const hasSecret = (answer: IDataObject) => /^whsec_./.test(String(answer.secret));

async function send(context: TriggerContext, body: IDataObject, deadline: Deadline) {
	try {
		return await apiRequest.call(context, { method: 'POST', path: '/webhooks', body, deadline });
	} catch (error) {
		throw refusedEvents(context, error);
	}
}

const noneOn409 = (error: unknown) =>
	httpStatusOf(error) === 409 ? undefined : Promise.reject(error);

/** A CRM with one subscription per URL answers 409 or the one it holds: ours is deleted and the POST sent again. */
async function post(
	context: TriggerContext,
	body: IDataObject,
	previous: StoredSubscription | undefined,
	deadline: Deadline,
) {
	const first = await send(context, body, deadline).catch(noneOn409);
	if (first !== undefined && (hasSecret(first) || idText(first.id) !== previous?.id)) return first;
	if (previous !== undefined && (await provablyOwn(context, previous, deadline))) {
		await deleteSubscription(context, previous.id, deadline);
		log(
			context,
			`the CRM keeps one webhook subscription per URL and held this trigger's ${previous.id} at it; deleted it to subscribe anew`,
			true,
		);
		return await send(context, body, deadline);
	}
	if (first !== undefined) return first;
	throw new NodeOperationError(
		context.getNode(),
		`The CRM API refused a webhook subscription at this trigger's URL ${body.url} (409: it already holds one there)`,
		{
			description: `That subscription is not provably this trigger's (made by hand, or by another n8n). Find it with the CRM Invoicing node (Webhook Subscription → Get Many), delete it there or in the CRM, ${AGAIN}.`,
		},
	);
}

/** Deletes only a new subscription with this node's tag at its URL; names any other. */
async function withoutSecret(context: TriggerContext, answer: IDataObject, deadline: Deadline) {
	const { data, tag, url } = thisNode(context);
	const node = context.getNode();
	const id = idText(answer.id);
	const invalid = {
		description: `The trigger needs both to receive and verify deliveries. Check that the Base URL of the credential points at the CRM API, ${AGAIN}.`,
	};
	if (id === '')
		return new NodeOperationError(
			node,
			'The CRM API did not return an id for the new webhook subscription',
			invalid,
		);
	const state = readState(data);
	const known = id === state.subscription?.id || state.retired.some((entry) => entry.id === id);
	if (!known && mayDelete({ ownerTag: tagOf(answer.name), url: answer.url }, tag, url)) {
		await orLog(
			context,
			deleteSubscription(context, id, deadline),
			`webhook subscription ${id} that came without a secret`,
		);
		return new NodeOperationError(
			node,
			'The CRM API did not return a signing secret (whsec_…) for the new webhook subscription',
			invalid,
		);
	}
	const shown = printable(id, 80);
	return new NodeOperationError(
		node,
		`The CRM API answered with webhook subscription ${shown}, without a signing secret, and it is not provably a new subscription of this trigger`,
		{
			description:
				`The CRM may keep one subscription per URL and hold one at this trigger's URL ${url} (made by hand, or by another n8n); it was left as it is. ` +
				`If it is not needed, delete it in the CRM or with the CRM Invoicing node (Webhook Subscription → Delete, ID ${shown}), ${AGAIN}.`,
		},
	);
}

/** One at a time per node and mode in this process (the owner tag names both). */
export async function subscribe(context: TriggerContext, deadline: Deadline) {
	const events = eventsOf(context);
	if (events.length === 0)
		throw new NodeOperationError(context.getNode(), 'Select at least one event to subscribe to', {
			description:
				'Choose events under "Events", or enter event names under "Options > Custom Event Names".',
		});
	const { data, tag, url } = thisNode(context);
	const custom = String(optionsOf(context).subscriptionName ?? '').trim();
	const name = `${custom || `n8n: ${context.getWorkflow().name ?? 'workflow'}`} [n8n:${tag}]`;
	return await oneAtATime(tag, async () => {
		// Created first: a failed POST leaves the stored subscription as it was. An abandoned POST may still create
		// one, at this URL: the next sweep removes it.
		const previous = readState(data).subscription;
		const response = await post(context, { name, url, events }, previous, deadline);
		const id = idText(response.id);
		if (id === '' || !hasSecret(response)) throw await withoutSecret(context, response, deadline);
		const { apiKey } = await credentialOf(context);
		const secretWrapped = wrapSecret(String(response.secret), apiKey, secretOwner(context, id));
		saveState(data, {
			subscription: { id, url, events, secretWrapped, ownerTag: tag },
			recentDeliveries: [],
		});
		// A failure is logged; the next subscribe removes it.
		if (previous && previous.id !== id)
			await orLog(
				context,
				letGo(context, previous, deadline),
				`the replaced webhook subscription ${previous.id}; the next subscribe removes it`,
			);
		await sweep(context, deadline, id);
		return id;
	});
}

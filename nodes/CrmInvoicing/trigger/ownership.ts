import { apiRequest, httpStatusOf, type Deadline } from '../shared';
import {
	log,
	nodeData,
	ownerTag,
	tagOf,
	type StoredSubscription,
	type TriggerContext,
} from './store';

// Deletion rule: only a subscription with this node's owner tag AND at its current URL (sameUrl); a URL read from
// the CRM is never requested. docs/trigger.md#which-subscriptions-the-trigger-deletes

/** Compared parsed (lower-case scheme and host, no default port); an unparseable URL matches nothing. */
export function sameUrl(a: unknown, b: unknown) {
	if (typeof a !== 'string' || typeof b !== 'string' || !URL.canParse(a) || !URL.canParse(b))
		return false;
	return new URL(a).href === new URL(b).href;
}

export const mayDelete = (
	candidate: { ownerTag?: string; url?: unknown },
	tag: string,
	url: string,
) => candidate.ownerTag === tag && sameUrl(candidate.url, url);

/** No line breaks, so that text from the network cannot forge log lines. */
export const printable = (value: unknown, max: number) =>
	String(value)
		.replace(/[^ -~]/g, '?')
		.slice(0, max);

/** n8n gives a URL to every node that declares a webhook ('' would match no URL). */
export function thisNode(context: TriggerContext) {
	return {
		data: nodeData(context),
		tag: ownerTag(context),
		url: context.getNodeWebhookUrl('default') ?? '',
	};
}

const pathOf = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

// A 404 means already gone (apiChoices.ts: webhook-delete-answer).
const goneOn404 = (error: unknown) =>
	httpStatusOf(error) === 404 ? ('gone' as const) : Promise.reject(error);

/** `once`: no retry, for the lookup that strangers can cause. */
export function getSubscription(
	context: TriggerContext,
	id: string,
	deadline: Deadline,
	once = false,
) {
	return apiRequest
		.call(context, { method: 'GET', path: pathOf(id), expect: 'record', deadline, once })
		.catch(goneOn404);
}

/** Where the rule allows; a 2xx sign-in page fails. */
export async function deleteSubscription(context: TriggerContext, id: string, deadline: Deadline) {
	await apiRequest.call(context, { method: 'DELETE', path: pathOf(id), deadline }).catch(goneOn404);
}

const KEPT_RETIRED =
	'; until then, its deliveries that reach this node are answered 410, so that the CRM disables it';

export function warnKept(
	context: TriggerContext,
	kept: { id: string; url: string; retired: boolean }[],
	url: string,
) {
	for (const entry of kept.slice(0, 10)) {
		// Anyone with a key of the workspace can plant this text.
		const id = printable(entry.id, 80);
		log(
			context,
			`kept webhook subscription ${id}, which carries this trigger's owner tag but delivers to ${printable(entry.url, 300)}, not to this node's URL ${url}. ` +
				'The trigger deletes a subscription only at its own URL: this one may be the subscription of a restored copy of this n8n (for example production), which must keep receiving. ' +
				`If it is a leftover (an earlier WEBHOOK_URL of this n8n), delete it with the CRM Invoicing node: Webhook Subscription → Delete, ID ${id}${entry.retired ? KEPT_RETIRED : ''}.`,
		);
	}
	if (kept.length > 10)
		log(
			context,
			`kept ${kept.length - 10} more webhook subscriptions with this trigger's owner tag at other URLs than ${url}; list them with the CRM Invoicing node (Webhook Subscription → Get Many)`,
		);
}

export function forgetForeign(
	context: TriggerContext,
	id: string,
	why = "it is not provably this trigger's own",
) {
	log(
		context,
		`left webhook subscription ${id} alone because ${why}; only this node's record of it is gone`,
		true,
	);
}

/** Data of 0.1 has no tag: own it only when the CRM shows it at this URL without another node's tag. */
export async function provablyOwn(
	context: TriggerContext,
	stored: StoredSubscription,
	by: Deadline,
) {
	const { tag, url } = thisNode(context);
	if (stored.ownerTag !== undefined) return mayDelete(stored, tag, url);
	const remote = await getSubscription(context, stored.id, by);
	return remote !== 'gone' && sameUrl(remote.url, url) && (tagOf(remote.name) ?? tag) === tag;
}

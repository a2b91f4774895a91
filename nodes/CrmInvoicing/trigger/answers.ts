import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { BoundedMap, type HeaderMap } from '../shared';
import { nodeKey } from './identity';
import { readSecret, secretOwner } from './secret';
import type { VerificationResult } from './signature';
import { readState, type RetiredSubscription, type StoredSubscription } from './state';
import { Deadline, isInactiveStatus, lookUpSubscription, printable, subscribe } from './subscription';

/**
 * The trigger's refusals of a delivery: their reasons, the answer itself, and the two refusals that call the CRM (a
 * signature that does not match; a stored secret that cannot be read). The CRM retries a 5xx (and 429, and no answer)
 * up to 10 times over about 3 days, disables the endpoint on a 410, and gives up on any other 4xx (spec §3, §8): so a
 * refusal is 503 whenever a retry can pass (no secret yet, no credential, an unreadable secret, any doubt about a
 * mismatch), 410 only for a retired subscription of this very node, and another 4xx only when no retry ever could
 * (docs/trigger.md, "Answers to deliveries").
 */

export const NO_SECRET_REASON =
	'this trigger holds no signing secret yet (its subscription is being created, or was not created by this n8n); retry later. If this lasts, deactivate and re-activate the workflow so that it subscribes anew';

export const NO_CREDENTIAL_REASON =
	'this trigger\'s credential could not be read, so its signing secret cannot be unwrapped; retry later. Check the trigger\'s credential in n8n';

export const UNUSABLE_SECRET_REASON =
	'this trigger\'s stored signing secret cannot be read with its credential\'s API key (the key changed while no n8n process held the secret, or the workflow\'s data was copied from another workflow), so this delivery cannot be verified; the trigger subscribes anew at its own URL (see n8n\'s log)';

export const RATIONED_REASON =
	'signature does not match the stored secret, and this n8n process asked the CRM about a subscription less than 30 s ago, so it cannot tell now whether this trigger\'s subscription was renewed; retry later';

export const STALE_REASON =
	'signature does not match the stored secret, and the stored subscription is no longer this trigger\'s current one (gone, disabled or at another URL: this n8n process may not have read the new one yet); retry later';

export const UNCHECKED_REASON =
	'signature does not match the stored secret, and the CRM could not be asked in time whether this trigger\'s subscription was renewed; retry later';

export const TEST_MISMATCH_REASON = 'signature does not match the stored secret of this test listening; retry later';

export const RETIRED_REASON =
	'this delivery came through a webhook subscription that this trigger replaced (it delivers to another URL of this n8n); answered 410 so that the CRM disables it. Nothing was run';

/** The parts of n8n's request object a delivery needs. */
export interface DeliveryRequest {
	headers?: HeaderMap;
	/** Node's header lines as received (name, value, …): repeated lines and exact bytes. */
	rawHeaders?: unknown[];
	/** The exact bytes received, kept by n8n's body parser. */
	rawBody?: Buffer | string;
}

/** The parts of n8n's (express) response object used to answer without starting an execution. */
interface DeliveryResponse {
	status(code: number): { json(body: unknown): unknown };
}

/** Answers the request here and starts no execution (no workflow data). */
export function answer(context: IWebhookFunctions, status: number, body: IDataObject): IWebhookResponseData {
	const response = context.getResponseObject() as unknown as DeliveryResponse;
	response.status(status).json(body);
	return { noWebhookResponse: true };
}

/**
 * Refuses a delivery: answers `status` with the reason and logs a warning through n8n's logger, so an operator learns
 * of every refusal. The log names the workflow, the node, the status, the reason and the `webhook-id` (cut short);
 * never the secret, the signature or the body.
 */
export function refuse(context: IWebhookFunctions, status: 400 | 401 | 410 | 503, reason: string, request: DeliveryRequest): IWebhookResponseData {
	const workflow = context.getWorkflow();
	const node = context.getNode();
	const rawId = request.headers?.['webhook-id'];
	const deliveryId = typeof rawId === 'string' ? printable(rawId, 80) : undefined;
	const outcome = status === 503 ? 'the API retries it later' : status === 410 ? 'the API disables that endpoint' : 'the API does not retry it';
	context.logger.warn(
		`CRM Invoicing Trigger refused a delivery with ${status} (${outcome}): ${reason}` +
			` [workflow ${String(workflow.id ?? '')}, node "${node.name}"${deliveryId ? `, webhook-id ${deliveryId}` : ''}]`,
		{ workflowId: workflow.id, nodeName: node.name, status, reason, webhookId: deliveryId },
	);
	return answer(context, status, { error: reason });
}

/** Whether `key` may go now: not within `intervalMs` of its last turn (a clock set back counts as past it). If so, its turn starts now. */
function takeTurn(turns: BoundedMap<string, number>, key: string, intervalMs: number): boolean {
	const [now, last] = [Date.now(), turns.get(key)];
	if (last !== undefined && now >= last && now - last < intervalMs) return false;
	turns.set(key, now);
	return true;
}

/**
 * The answer to a delivery whose signature does not match the stored secret (which this process could read). A
 * forgery and a genuine delivery signed with a secret this process has not read yet (a renewed subscription: a
 * queue-mode webhook process that read the database before main saved the new secret, or the write-back race of
 * docs/scale.md) look the same, and a final 4xx would lose the genuine one. So:
 * - 410 when a retired subscription's secret verifies it (an old URL of this n8n: the CRM disables that endpoint);
 * - 401 only when a question asked NOW (GET /webhooks/{stored id}) shows the stored subscription current: it exists,
 *   delivers to this node's URL and is not disabled. Create deletes the old subscription before it subscribes anew,
 *   so a new secret exists only once the stored one is gone or elsewhere: a current one means a forgery;
 * - 503 for everything else: no question allowed now, a question that failed, a stale subscription.
 * No verdict is kept, so none can outlive a renewal. Questions are rationed per process, for all triggers together:
 * at most one per LOOKUP_INTERVAL_MS. Forged deliveries therefore run nothing, and cost the API key at most one
 * request per 30 s per n8n process, however many triggers they are sent to.
 */
export const LOOKUP_INTERVAL_MS = 30_000;

/** The question's time limit: the delivery waiting for it must still be answered within the CRM's 20 s. */
const LOOKUP_TIME_LIMIT_MS = 5_000;

/** When this process last asked (one key: the ration is for all triggers together). */
const lookups = new BoundedMap<string, number>(1);

/** 401 when the stored subscription is provably current now, else 503 with why not. */
async function verdict(context: IWebhookFunctions, stored: StoredSubscription): Promise<[401 | 503, string]> {
	// On the test URL the node cannot tell its own URL on every n8n version; a test listening lasts minutes.
	if (context.getMode() === 'manual') return [503, TEST_MISMATCH_REASON];
	if (!takeTurn(lookups, 'process', LOOKUP_INTERVAL_MS)) return [503, RATIONED_REASON];
	let remote: Awaited<ReturnType<typeof lookUpSubscription>>;
	try {
		remote = await lookUpSubscription(context, stored.id, LOOKUP_TIME_LIMIT_MS);
	} catch {
		return [503, UNCHECKED_REASON];
	}
	if (remote === 'gone') return [503, STALE_REASON];
	const at = typeof remote.url === 'string' ? remote.url : stored.url;
	const url = context.getNodeWebhookUrl('default');
	if (url === undefined || at !== url || isInactiveStatus(remote.status)) return [503, STALE_REASON];
	return [401, 'signature does not match'];
}

export async function refuseMismatch(
	context: IWebhookFunctions,
	request: DeliveryRequest,
	stored: StoredSubscription,
	retired: RetiredSubscription[],
	apiKey: () => Promise<string>,
	verify: (secret: string) => VerificationResult,
): Promise<IWebhookResponseData> {
	for (const entry of retired) {
		if (entry.secretWrapped === undefined) continue;
		const read = await readSecret({ secretWrapped: entry.secretWrapped }, secretOwner(context, entry.id), apiKey).catch(() => undefined);
		if (read?.kind === 'secret' && verify(read.secret).ok) return refuse(context, 410, RETIRED_REASON, request);
	}
	const [status, reason] = await verdict(context, stored);
	return refuse(context, status, reason, request);
}

/**
 * A delivery that finds the stored secret unreadable: wrapped under another API key than the credential's, and held
 * by no memory of this process (the credential's key changed and n8n restarted before any delivery re-wrapped it;
 * secret.ts). No delivery through that subscription can ever be verified again, and on n8n 2.41 nothing else would
 * run the trigger's hooks. So the delivery that finds out subscribes anew at this node's own URL (subscription.ts:
 * the old subscription is deleted, since it is this node's at its URL, and the new one stored), then answers 503 and
 * logs what happened and why.
 *
 * Once, bounded: one attempt per node per process at a time and per RENEWAL_INTERVAL_MS, within
 * RENEWAL_TIME_LIMIT_MS (the CRM waits 20 s for the answer, which goes out once the new subscription is stored, so
 * that n8n saves it); concurrent deliveries are answered 503 at once. Not on the test URL (test listening subscribes
 * anew each time anyway). What is lost: the event(s) delivered through the old subscription before the new one
 * existed, whose signatures nothing can check (docs/trigger.md).
 */
export const RENEWAL_INTERVAL_MS = 60_000;
export const RENEWAL_TIME_LIMIT_MS = 15_000;

/** When each node (at most MAX_NODES_REMEMBERED) last tried to subscribe anew from a delivery. */
const MAX_NODES_REMEMBERED = 500;
const renewals = new BoundedMap<string, number>(MAX_NODES_REMEMBERED);

async function renew(context: IWebhookFunctions, stored: StoredSubscription, limitMs: number): Promise<void> {
	const meta = { workflowId: context.getWorkflow().id, nodeName: context.getNode().name };
	const why = `the stored signing secret of webhook subscription ${stored.id} cannot be read with the credential's API key (the key changed while no n8n process held the secret in memory, for example across a restart), so no delivery through it can be verified`;
	try {
		const id = await subscribe(context, new Deadline(context.getNode(), 'subscribe anew', limitMs));
		context.logger.warn(
			`CRM Invoicing Trigger: ${why}. Subscribed anew at this node's URL as webhook subscription ${id} (subscription ${stored.id} was deleted if it delivered to this URL). Events delivered through ${stored.id} until now are not run: look in the CRM for events of that time.`,
			{ ...meta, subscriptionId: id },
		);
	} catch (error) {
		// Failed before the old subscription was let go of: its deliveries go on, and one tries again. After: nothing
		// delivers here any more, and only the hooks (re-publishing; on 1.x and 2.38 also a restart) subscribe anew.
		const still = readState(context.getWorkflowStaticData('node')).subscription !== undefined;
		context.logger.warn(
			`CRM Invoicing Trigger: ${why}. Subscribing anew failed (${(error as Error).message}); ${still ? `a delivery tries again in ${RENEWAL_INTERVAL_MS / 1000} s at the earliest, or re-publish the workflow` : 'this trigger now holds no subscription: re-publish the workflow (deactivate, then activate) once the cause is fixed'}.`,
			meta,
		);
	}
}

/** Answers a delivery whose stored secret is unreadable (503), after subscribing anew when this delivery may. */
export async function refuseUnreadable(
	context: IWebhookFunctions,
	stored: StoredSubscription,
	request: DeliveryRequest,
	limitMs = RENEWAL_TIME_LIMIT_MS,
): Promise<IWebhookResponseData> {
	if (context.getMode() !== 'manual' && takeTurn(renewals, nodeKey(context), RENEWAL_INTERVAL_MS)) await renew(context, stored, limitMs);
	return refuse(context, 503, UNUSABLE_SECRET_REASON, request);
}

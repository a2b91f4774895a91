import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { nodeKey, Turns, type HeaderMap } from '../shared';
import { readSecret, secretOwner } from './secret';
import type { VerificationResult } from './signature';
import type { RetiredSubscription, StoredSubscription } from './store';
import {
	Deadline,
	isInactiveStatus,
	lookUpSubscription,
	printable,
	subscribe,
} from './subscription';

/**
 * Refusing deliveries (two refusals call the CRM first). Rule (spec §3, §8): 503 whenever a retry can pass; 410 only
 * for this node's retired subscription; another 4xx only if no retry could (docs/trigger.md#answers-to-deliveries).
 */

export const NO_SECRET_REASON =
	'this trigger holds no signing secret yet (its subscription is being created, or was not created by this n8n); retry later. If this lasts, deactivate and re-activate the workflow so that it subscribes anew';

export const NO_CREDENTIAL_REASON =
	"this trigger's credential could not be read, so its signing secret cannot be unwrapped; retry later. Check the trigger's credential in n8n";

export const UNUSABLE_SECRET_REASON =
	"this trigger's stored signing secret cannot be read with its credential's API key (the key changed while no n8n process held the secret, or the workflow's data was copied from another workflow), so this delivery cannot be verified; the trigger subscribes anew at its own URL (see n8n's log)";

export const RATIONED_REASON =
	"signature does not match the stored secret, and this n8n process asked the CRM about a subscription less than 30 s ago, so it cannot tell now whether this trigger's subscription was renewed; retry later";

export const STALE_REASON =
	"signature does not match the stored secret, and the stored subscription is no longer this trigger's current one (gone, disabled or at another URL: this n8n process may not have read the new one yet); retry later";

export const UNCHECKED_REASON =
	"signature does not match the stored secret, and the CRM could not be asked in time whether this trigger's subscription was renewed; retry later";

export const TEST_MISMATCH_REASON =
	'signature does not match the stored secret of this test listening; retry later';

export const RETIRED_REASON =
	'this delivery came through a webhook subscription that this trigger replaced (it delivers to another URL of this n8n); answered 410 so that the CRM disables it. Nothing was run';

export interface DeliveryRequest {
	headers?: HeaderMap;
	rawHeaders?: unknown[];
	/** The exact bytes received, kept by n8n's body parser. */
	rawBody?: Buffer | string;
}

interface DeliveryResponse {
	status(code: number): { json(body: unknown): unknown };
}

/** Answers the request here and starts no execution (no workflow data). */
export function answer(
	context: IWebhookFunctions,
	status: number,
	body: IDataObject,
): IWebhookResponseData {
	const response = context.getResponseObject() as unknown as DeliveryResponse;
	response.status(status).json(body);
	return { noWebhookResponse: true };
}

/** Answers with `reason` and logs it as a warning, so no refusal goes unseen; never the secret, signature or body. */
export function refuse(
	context: IWebhookFunctions,
	status: 400 | 401 | 410 | 503,
	reason: string,
	request: DeliveryRequest,
): IWebhookResponseData {
	const workflow = context.getWorkflow();
	const node = context.getNode();
	const rawId = request.headers?.['webhook-id'];
	const deliveryId = typeof rawId === 'string' ? printable(rawId, 80) : undefined;
	const outcome =
		status === 503
			? 'the API retries it later'
			: status === 410
				? 'the API disables that endpoint'
				: 'the API does not retry it';
	context.logger.warn(
		`CRM Invoicing Trigger refused a delivery with ${status} (${outcome}): ${reason}` +
			` [workflow ${String(workflow.id ?? '')}, node "${node.name}"${deliveryId ? `, webhook-id ${deliveryId}` : ''}]`,
		{ workflowId: workflow.id, nodeName: node.name, status, reason, webhookId: deliveryId },
	);
	return answer(context, status, { error: reason });
}

/**
 * A mismatch gets 410 when a retired secret verifies it, and 401 only when the CRM, asked now, shows the stored
 * subscription current (a renewal deletes it first, so a current one means a forgery); else 503, since a genuine
 * delivery signed with a secret this process has not read yet looks the same. No verdict is kept, and questions are
 * rationed per process, for all triggers together (docs/trigger.md#answers-to-deliveries).
 */
export const LOOKUP_INTERVAL_MS = 30_000;

/** The question's time limit: the delivery waiting for it must still be answered within the CRM's 20 s. */
const LOOKUP_TIME_LIMIT_MS = 5_000;

const lookups = new Turns(LOOKUP_INTERVAL_MS, 1);

async function verdict(
	context: IWebhookFunctions,
	stored: StoredSubscription,
): Promise<[401 | 503, string]> {
	// On the test URL the node cannot tell its own URL on every n8n version; a test listening lasts minutes.
	if (context.getMode() === 'manual') return [503, TEST_MISMATCH_REASON];
	if (!lookups.take('process')) return [503, RATIONED_REASON];
	let remote: Awaited<ReturnType<typeof lookUpSubscription>>;
	try {
		remote = await lookUpSubscription(context, stored.id, LOOKUP_TIME_LIMIT_MS, true);
	} catch {
		return [503, UNCHECKED_REASON];
	}
	if (remote === 'gone') return [503, STALE_REASON];
	const at = typeof remote.url === 'string' ? remote.url : stored.url;
	const url = context.getNodeWebhookUrl('default');
	if (url === undefined || at !== url || isInactiveStatus(remote.status))
		return [503, STALE_REASON];
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
		const read = await readSecret(
			{ secretWrapped: entry.secretWrapped },
			secretOwner(context, entry.id),
			apiKey,
		).catch(() => undefined);
		if (read?.kind === 'secret' && verify(read.secret).ok)
			return refuse(context, 410, RETIRED_REASON, request);
	}
	const [status, reason] = await verdict(context, stored);
	return refuse(context, status, reason, request);
}

/**
 * A stored secret that neither the credential's key nor this process can read verifies nothing again, and on n8n 2.41
 * nothing else runs the hooks: so the delivery that finds out subscribes anew at this node's URL (created first; the
 * old subscription is deleted only once the new one is stored), answers 503 and logs why. Once per node and process per RENEWAL_INTERVAL_MS (never on the test URL,
 * which subscribes anew at each listening), within RENEWAL_TIME_LIMIT_MS: the answer waits for the new subscription to
 * be stored, so that n8n saves it, and must reach the CRM within 20 s (docs/trigger.md#rotating-the-api-key).
 */
export const RENEWAL_INTERVAL_MS = 60_000;
export const RENEWAL_TIME_LIMIT_MS = 15_000;

const MAX_NODES_REMEMBERED = 500;
const renewals = new Turns(RENEWAL_INTERVAL_MS, MAX_NODES_REMEMBERED);

async function renew(
	context: IWebhookFunctions,
	stored: StoredSubscription,
	limitMs: number,
): Promise<void> {
	const meta = { workflowId: context.getWorkflow().id, nodeName: context.getNode().name };
	const why = `the stored signing secret of webhook subscription ${stored.id} cannot be read with the credential's API key (the key changed while no n8n process held the secret in memory, for example across a restart), so no delivery through it can be verified`;
	try {
		const id = await subscribe(context, new Deadline(context.getNode(), 'subscribe anew', limitMs));
		context.logger.warn(
			`CRM Invoicing Trigger: ${why}. Subscribed anew at this node's URL as webhook subscription ${id} (subscription ${stored.id} was deleted afterwards if it delivered to this URL). Events delivered through ${stored.id} until now are not run: look in the CRM for events of that time.`,
			{ ...meta, subscriptionId: id },
		);
	} catch (error) {
		// The new subscription is created before the old one is let go of: a failure leaves the stored one, to retry.
		context.logger.warn(
			`CRM Invoicing Trigger: ${why}. Subscribing anew failed (${(error as Error).message}); the stored subscription is kept, and a delivery tries again in ${RENEWAL_INTERVAL_MS / 1000} s at the earliest (or re-publish the workflow).`,
			meta,
		);
	}
}

export async function refuseUnreadable(
	context: IWebhookFunctions,
	stored: StoredSubscription,
	request: DeliveryRequest,
	limitMs = RENEWAL_TIME_LIMIT_MS,
): Promise<IWebhookResponseData> {
	if (context.getMode() !== 'manual' && renewals.take(nodeKey(context)))
		await renew(context, stored, limitMs);
	return refuse(context, 503, UNUSABLE_SECRET_REASON, request);
}

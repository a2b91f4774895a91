import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import type { WebhookHeaders } from './signature';

/**
 * The reasons the trigger refuses a delivery with, and the answer itself. The CRM retries a 5xx (and 429, and no
 * answer) up to 10 times over about 3 days, disables the endpoint on a 410, and gives up on any other 4xx (spec §3,
 * §8): so a refusal is 503 whenever a retry can pass (no secret yet, no credential, an unreadable secret: renewal.ts,
 * any doubt about a mismatch: mismatch.ts), 410 only for a retired subscription of this very node, and another 4xx
 * only when no retry ever could (docs/trigger.md, "Answers to deliveries").
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
	headers?: WebhookHeaders;
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

/** Text from the network as a log shows it: printable ASCII only (no line breaks to forge log lines), cut short. */
export function printable(value: unknown, max: number): string {
	return String(value).replace(/[^\x20-\x7e]/g, '?').slice(0, max);
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

import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { isPlainObject } from '../CrmInvoicing/transport';
import { fullRecordOf } from './fullRecord';
import { readsStaleSubscription } from './ownership';
import { acceptOnce, deliveryMemoryKey, wasAccepted } from './recentDeliveries';
import { verifyWebhookSignature, type VerificationResult, type WebhookHeaders } from './signature';
import { storedSubscriptionCurrency } from './staleness';
import { apiKeyOf, secretOwner, storedSecretOf, type StoredSecret } from './storedSecret';
import { deliveryOutput } from './simplify';
import { readSubscription, subscribedEvents, type StoredSubscription } from './subscription';

/**
 * The answer when this node holds no signing secret yet. Answered 503, not 4xx: the API retries 5xx on its schedule
 * (spec §3, §8) and never retries other 4xx, so a delivery that arrives before n8n saved the new subscription's
 * secret (activation, re-activation, a restart with a new URL) is delivered again later instead of being lost.
 */
export const NO_SECRET_REASON =
	'this trigger holds no signing secret yet (its subscription is being created, or was not created by this n8n); retry later. If this lasts, deactivate and re-activate the workflow so that it subscribes anew';

/** The answer when a signature does not match while this node has just subscribed anew in this n8n process. */
export const RENEWING_REASON =
	'signature does not match the stored secret while this trigger is renewing its subscription; retry later';

/** The answer when the stored secret does not unwrap with the credential (secretAtRest.ts). */
export const UNUSABLE_SECRET_REASON =
	'this trigger\'s stored signing secret cannot be unwrapped with its credential (the credential\'s API key changed, or the workflow\'s data was copied from another workflow); retry later. Deactivate and re-activate the workflow so that it subscribes anew';

/** The answer when n8n cannot hand over the trigger's credential, whose API key unwraps the secret. */
export const NO_CREDENTIAL_REASON =
	'this trigger\'s credential could not be read, so its signing secret cannot be unwrapped; retry later. Check the trigger\'s credential in n8n';

/** The answer when a signature does not match and the stored subscription is no longer current (staleness.ts). */
export const STALE_REASON =
	'signature does not match the stored secret, and the stored subscription is no longer this trigger\'s current one (this n8n process has not read the new one yet); retry later';

/** The answer when a signature does not match and the CRM could not say whether the stored subscription is current. */
export const UNCHECKED_REASON =
	'signature does not match the stored secret, and the CRM could not be asked in time whether this trigger\'s subscription was renewed; retry later';

/** The answer to a delivery signed only by a subscription this trigger retired (lifecycle.ts, settleOldUrl). */
export const RETIRED_REASON =
	'this delivery came through a webhook subscription that this trigger replaced (it delivers to an old URL of this n8n); answered 410 so that the CRM disables it. Nothing was run';

/** The parts of n8n's request object a delivery needs. */
interface DeliveryRequest {
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

interface Delivery {
	event: string;
	timestamp: unknown;
	payload: unknown;
}

const MAX_EVENT_IN_ANSWER = 100;

/** Answers the request here and starts no execution (no workflow data). */
function answer(context: IWebhookFunctions, status: number, body: IDataObject): IWebhookResponseData {
	const response = context.getResponseObject() as unknown as DeliveryResponse;
	response.status(status).json(body);
	return { noWebhookResponse: true };
}

const MAX_ID_IN_LOG = 80;

/**
 * Refuses a delivery: answers `status` with the reason and logs a warning through n8n's logger, so an operator learns
 * of every refusal. The log names the workflow, the node, the status, the reason and the `webhook-id` (cut short);
 * never the secret, the signature or the body.
 */
function refuse(
	context: IWebhookFunctions,
	status: 400 | 401 | 410 | 503,
	reason: string,
	request: DeliveryRequest,
): IWebhookResponseData {
	const workflow = context.getWorkflow();
	const node = context.getNode();
	const rawId = request.headers?.['webhook-id'];
	const id = typeof rawId === 'string' ? rawId.replace(/[^\x20-\x7e]/g, '?').slice(0, MAX_ID_IN_LOG) : undefined;
	const outcome =
		status === 503
			? 'the API retries it later'
			: status === 410
				? 'the API disables that endpoint'
				: 'the API does not retry it';
	context.logger.warn(
		`CRM Invoicing Trigger refused a delivery with ${status} (${outcome}): ${reason}` +
			` [workflow ${String(workflow.id ?? '')}, node "${node.name}"${id ? `, webhook-id ${id}` : ''}]`,
		{ workflowId: workflow.id, nodeName: node.name, status, reason, webhookId: id },
	);
	return answer(context, status, { error: reason });
}

/** The delivery body (spec §6): a JSON object with `event`, `timestamp` and `payload`, read from the raw bytes. */
function parseDelivery(rawBody: Buffer | string | undefined): { ok: true; delivery: Delivery } | { ok: false; reason: string } {
	const text = rawBody === undefined ? '' : Buffer.isBuffer(rawBody) ? rawBody.toString('utf8') : String(rawBody);
	if (text.trim() === '') return { ok: false, reason: 'empty body' };
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		return { ok: false, reason: 'body is not JSON' };
	}
	if (!body || typeof body !== 'object' || Array.isArray(body)) return { ok: false, reason: 'body is not a JSON object' };
	const { event, timestamp, payload } = body as IDataObject;
	if (typeof event !== 'string' || event.trim() === '') return { ok: false, reason: 'body has no event name' };
	return { ok: true, delivery: { event, timestamp: timestamp ?? null, payload: payload ?? null } };
}

/**
 * A delivery whose signature does not match the current secret: answered 410 when a retired subscription's secret
 * verifies it (an old URL of this n8n: the CRM disables that endpoint, nothing runs); 503 when a retry may pass (this
 * process subscribed anew a moment ago, or the stored subscription is no longer current: staleness.ts); else 401.
 */
async function refuseMismatch(
	context: IWebhookFunctions,
	request: DeliveryRequest,
	stored: StoredSubscription,
	apiKey: () => Promise<string>,
	verify: (secret: string) => VerificationResult,
): Promise<IWebhookResponseData> {
	for (const retired of stored.webhookRetired ?? []) {
		if (retired.webhookSecretWrapped === undefined) continue;
		const secret = await storedSecretOf(
			{ webhookSecretWrapped: retired.webhookSecretWrapped },
			apiKey,
			secretOwner(context, retired.webhookId),
			true,
		).catch((): StoredSecret => ({ kind: 'unusable' }));
		if (secret.kind === 'secret' && verify(secret.secret).ok) return refuse(context, 410, RETIRED_REASON, request);
	}
	// This process just subscribed anew, and this request read the static data from before the new secret was saved.
	if (readsStaleSubscription(context, stored.webhookId)) return refuse(context, 503, RENEWING_REASON, request);
	const currency = await storedSubscriptionCurrency(context, stored.webhookId ?? '');
	if (currency === 'stale') return refuse(context, 503, STALE_REASON, request);
	if (currency === 'unknown') return refuse(context, 503, UNCHECKED_REASON, request);
	return refuse(context, 401, 'signature does not match', request);
}

/**
 * One delivery: verify (before anything else, on the raw bytes), then parse, filter by event, drop retries of an
 * accepted `webhook-id`, read the full record when asked (after the duplicate check, so a retry costs no API call),
 * and emit one item. Never throws for a bad request: every refusal is answered here and logged as a warning: 503 when
 * a retry can pass (no secret yet, a secret that does not unwrap, a subscription being renewed), 410 for a retired
 * subscription's delivery, else a 4xx other than 410. API calls: Output Full Record's read, and when a signature
 * does not match, at most one question per 30 s per process whether the stored subscription is current.
 */
export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const staticData = this.getWorkflowStaticData('node');
	const request = this.getRequestObject() as unknown as DeliveryRequest;
	const stored = readSubscription(staticData);
	const subscriptionId = stored.webhookId;
	// A state on our side that a retry fixes: answered 503 so that the API delivers it again (see NO_SECRET_REASON).
	if (!subscriptionId || (!stored.webhookSecretWrapped && !stored.webhookSecret)) {
		return refuse(this, 503, NO_SECRET_REASON, request);
	}
	// The credential is read (decrypted by n8n) only when this process has not unwrapped this secret before.
	let key: Promise<string> | undefined;
	const apiKey = async () => await (key ??= apiKeyOf(this));
	let secret: StoredSecret;
	try {
		secret = await storedSecretOf(stored, apiKey, secretOwner(this, subscriptionId), true);
	} catch {
		// n8n could not hand over the credential (deleted, or not decryptable): a state on our side, retryable.
		return refuse(this, 503, NO_CREDENTIAL_REASON, request);
	}
	if (secret.kind === 'none') return refuse(this, 503, NO_SECRET_REASON, request);
	if (secret.kind === 'unusable') return refuse(this, 503, UNUSABLE_SECRET_REASON, request);

	const verify = (signingSecret: string) =>
		verifyWebhookSignature({
			secret: signingSecret,
			headers: request.headers ?? {},
			rawHeaders: request.rawHeaders,
			rawBody: request.rawBody,
		});
	const verification = verify(secret.secret);
	if (!verification.ok) {
		if (verification.reason === 'signature does not match') {
			return await refuseMismatch(this, request, stored, apiKey, verify);
		}
		return refuse(this, 401, verification.reason, request);
	}

	const parsed = parseDelivery(request.rawBody);
	// Signed by the API but not a delivery: retrying will not help, and 4xx (not 410) is not retried.
	if (!parsed.ok) return refuse(this, 400, parsed.reason, request);
	const { event, timestamp, payload } = parsed.delivery;

	const options = this.getNodeParameter('options', {}) as IDataObject;
	const selected = subscribedEvents(this.getNodeParameter('events', []), options.customEvents);
	if (!selected.includes(event)) {
		const shown = event.length > MAX_EVENT_IN_ANSWER ? `${event.slice(0, MAX_EVENT_IN_ANSWER)}…` : event;
		return answer(this, 200, { received: true, ignored: `event "${shown}" is not selected in this trigger` });
	}

	// A retry of an accepted delivery is answered before Output Full Record reads anything: it spends no API budget.
	const memoryKey = deliveryMemoryKey(this, subscriptionId);
	if (wasAccepted(staticData, memoryKey, verification.id)) return answer(this, 200, { received: true, duplicate: true });

	// Output Full Record (fullRecord.ts): read before the id is remembered, so a 503 leaves the retry welcome.
	const record = await fullRecordOf(this, options, event, payload);
	// fullRecord.ts logged the failed read as a warning already.
	if (record.kind === 'retry') return answer(this, 503, { error: record.reason });

	// Checked again: a copy of this delivery handled meanwhile (during the read) has been accepted already.
	if (!acceptOnce(staticData, memoryKey, verification.id)) {
		return answer(this, 200, { received: true, duplicate: true });
	}
	const output = record.payload;
	const json: IDataObject =
		options.payloadOnly === true
			? isPlainObject(output)
				? { ...output }
				: { payload: output as IDataObject }
			: { event, timestamp: timestamp as string, payload: output as IDataObject, webhookId: verification.id };
	if (record.kind === 'failed') json.fullRecordError = record.error;
	// Answered here, before n8n starts the execution, and not left to n8n: n8n saves a webhook call's static data
	// changes (the id just remembered) when the answer is given, and only an answer given before the execution
	// starts gets them saved (n8n 2.x resets its "changed" flag when it prepares the execution). Saved, they reach
	// every n8n process and survive restarts (README, "Running at scale").
	const accepted = answer(this, 200, { received: true });
	return { ...accepted, workflowData: [[{ json: deliveryOutput(this, json, event, options.payloadOnly === true) }]] };
}

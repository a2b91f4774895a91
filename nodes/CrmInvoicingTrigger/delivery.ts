import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { fullRecordOf } from './fullRecord';
import { readsStaleSubscription } from './ownership';
import { acceptOnce, deliveryMemoryKey } from './recentDeliveries';
import { verifyWebhookSignature, type WebhookHeaders } from './signature';
import { deliveryOutput } from './simplify';
import { readSubscription, subscribedEvents } from './subscription';

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
	status: 400 | 401 | 503,
	reason: string,
	request: DeliveryRequest,
): IWebhookResponseData {
	const workflow = context.getWorkflow();
	const node = context.getNode();
	const rawId = request.headers?.['webhook-id'];
	const id = typeof rawId === 'string' ? rawId.replace(/[^\x20-\x7e]/g, '?').slice(0, MAX_ID_IN_LOG) : undefined;
	const outcome = status === 503 ? 'the API retries it later' : 'the API does not retry it';
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

function isPlainObject(value: unknown): value is IDataObject {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}

/**
 * One delivery: verify (before anything else, on the raw bytes), then parse, filter by event, drop retries of an
 * accepted `webhook-id`, and emit one item. Makes no API call and never throws for a bad request: every refusal is
 * answered here and logged as a warning: 503 when a retry can succeed (no secret yet, subscription being renewed),
 * else a 4xx other than 410 (410 would make the API disable the subscription).
 */
export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const staticData = this.getWorkflowStaticData('node');
	const request = this.getRequestObject() as unknown as DeliveryRequest;
	const { webhookId: subscriptionId, webhookSecret } = readSubscription(staticData);
	// A state on our side that a retry fixes: answered 503 so that the API delivers it again (see NO_SECRET_REASON).
	if (!webhookSecret) return refuse(this, 503, NO_SECRET_REASON, request);

	const verification = verifyWebhookSignature({
		secret: webhookSecret,
		headers: request.headers ?? {},
		rawHeaders: request.rawHeaders,
		rawBody: request.rawBody,
	});
	if (!verification.ok) {
		// This process just subscribed anew, and this request read the static data from before the new secret was saved:
		// the delivery may be signed with the new secret. A retry reads the saved one.
		if (verification.reason === 'signature does not match' && readsStaleSubscription(this, subscriptionId)) {
			return refuse(this, 503, RENEWING_REASON, request);
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

	// Output Full Record (fullRecord.ts): read before the id is remembered, so a 503 leaves the retry welcome.
	const record = await fullRecordOf(this, options, event, payload);
	// fullRecord.ts logged the failed read as a warning already.
	if (record.kind === 'retry') return answer(this, 503, { error: record.reason });

	if (!acceptOnce(staticData, deliveryMemoryKey(this, subscriptionId ?? ''), verification.id)) {
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

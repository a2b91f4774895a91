import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { fullRecordOf } from './fullRecord';
import { acceptOnce, deliveryMemoryKey } from './recentDeliveries';
import { verifyWebhookSignature, type WebhookHeaders } from './signature';
import { readSubscription, subscribedEvents } from './subscription';

/** The answer when this node holds no signing secret (its subscription was not created by this node). */
export const NO_SECRET_REASON =
	'no signing secret stored for this trigger: deactivate and re-activate the workflow so that it subscribes anew';

/** The parts of n8n's request object a delivery needs. */
interface DeliveryRequest {
	headers?: WebhookHeaders;
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

function refuse(context: IWebhookFunctions, status: 400 | 401, reason: string): IWebhookResponseData {
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
 * answered here with a 4xx other than 410 (410 would make the API disable the subscription).
 */
export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const staticData = this.getWorkflowStaticData('node');
	const { webhookId: subscriptionId, webhookSecret } = readSubscription(staticData);
	if (!webhookSecret) return refuse(this, 401, NO_SECRET_REASON);

	const request = this.getRequestObject() as unknown as DeliveryRequest;
	const verification = verifyWebhookSignature({
		secret: webhookSecret,
		headers: request.headers ?? {},
		rawBody: request.rawBody,
	});
	if (!verification.ok) return refuse(this, 401, verification.reason);

	const parsed = parseDelivery(request.rawBody);
	// Signed by the API but not a delivery: retrying will not help, and 4xx (not 410) is not retried.
	if (!parsed.ok) return refuse(this, 400, parsed.reason);
	const { event, timestamp, payload } = parsed.delivery;

	const options = this.getNodeParameter('options', {}) as IDataObject;
	const selected = subscribedEvents(this.getNodeParameter('events', []), options.customEvents);
	if (!selected.includes(event)) {
		const shown = event.length > MAX_EVENT_IN_ANSWER ? `${event.slice(0, MAX_EVENT_IN_ANSWER)}…` : event;
		return answer(this, 200, { received: true, ignored: `event "${shown}" is not selected in this trigger` });
	}

	// Output Full Record (fullRecord.ts): read before the id is remembered, so a 503 leaves the retry welcome.
	const record = await fullRecordOf(this, options, event, payload);
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
	return { ...accepted, workflowData: [[{ json }]] };
}

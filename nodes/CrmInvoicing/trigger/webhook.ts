import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import {
	apiRequest,
	cut,
	deadlineIn,
	httpStatusOf,
	isPlainObject,
	nothing,
	Turns,
	type HeaderMap,
} from '../shared';
import { getSubscription, printable, sameUrl } from './ownership';
import { eventsOf, isInactiveStatus } from './subscription';
import { renew, RENEWAL_TIME_LIMIT_MS, type RenewalCause } from './renewal';
import { output, parseDelivery, type Read } from './item';
import { checkDeliveryHeaders, checkSignature, type DeliveryHeaders } from './signature';
import {
	acceptOnce,
	deliveryMemoryKey,
	log,
	nodeData,
	rewrap,
	readSecret,
	readState,
	type StoredSubscription,
} from './store';

// Every delivery is answered here, never thrown: n8n saves static data changes only when the answer precedes the
// execution (docs/scale.md).

// 503 whenever a retry can pass (the CRM retries 5xx); 410 only for a retired subscription; 401 for headers; 400 for
// a verified body without an event. docs/trigger.md#answers-to-deliveries
const MISMATCH = 'signature does not match the stored secret';
const RENEWED = "whether this trigger's subscription was renewed";
const UNUSABLE =
	"(the key changed while no n8n process held the secret, or the workflow's data was copied from another workflow)";
const STALE =
	'(gone, disabled or at another URL: this n8n process may not have read the new one yet)';
const ROTATED =
	'the CRM may have rotated its signing secret, and the trigger subscribes anew to get the new one (at most once an hour)';

export const NO_SECRET_REASON =
	'this trigger holds no signing secret yet (its subscription is being created, or was not created by this n8n); retry later. ' +
	'If this lasts, deactivate and re-activate the workflow so that it subscribes anew';
export const NO_CREDENTIAL_REASON =
	"this trigger's credential could not be read, so its signing secret cannot be unwrapped; retry later. Check the trigger's credential in n8n";
export const UNUSABLE_SECRET_REASON = `this trigger's stored signing secret cannot be read with its credential's API key ${UNUSABLE}, so this delivery cannot be verified; the trigger subscribes anew at its own URL (see n8n's log)`;
export const RATIONED_REASON = `${MISMATCH}, and this n8n process asked the CRM about a subscription less than 30 s ago, so it cannot tell now ${RENEWED}; retry later`;
export const STALE_REASON = `${MISMATCH}, and the stored subscription is no longer this trigger's current one ${STALE}; retry later`;
export const UNCHECKED_REASON = `${MISMATCH}, and the CRM could not be asked in time ${RENEWED}; retry later`;
export const ROTATED_REASON = `${MISMATCH} of a subscription the CRM shows current at this node's URL: ${ROTATED}; retry later`;
export const TEST_MISMATCH_REASON = `${MISMATCH} of this test listening; retry later`;
export const RETIRED_REASON =
	'this delivery came through a webhook subscription that this trigger replaced (it delivers to another URL of this n8n); answered 410 so that the CRM disables it. Nothing was run';

type Refusal = readonly [400 | 401 | 410 | 503, string];

export interface DeliveryRequest {
	headers?: HeaderMap;
	rawBody?: Buffer | string;
}

function answer(context: IWebhookFunctions, status: number, body: IDataObject) {
	const response = context.getResponseObject() as unknown as {
		status(code: number): { json(body: unknown): unknown };
	};
	response.status(status).json(body);
	return { noWebhookResponse: true } as IWebhookResponseData;
}

function refuse(context: IWebhookFunctions, [status, reason]: Refusal) {
	const rawId = (context.getRequestObject() as unknown as DeliveryRequest).headers?.['webhook-id'];
	const id = typeof rawId === 'string' ? ` (webhook-id ${printable(rawId, 80)})` : '';
	const then = status === 503 ? 'retries it later' : 'does not retry it';
	log(context, `refused a delivery with ${status} (the API ${then}): ${reason}${id}`);
	return answer(context, status, { error: reason });
}

// Lookups are rationed per process and take at most 5 s: the delivery must be answered within the CRM's 20 s.
export const LOOKUP_INTERVAL_MS = 30_000;
const lookups = new Turns(LOOKUP_INTERVAL_MS, 1);

async function verdict(
	context: IWebhookFunctions,
	stored: StoredSubscription,
	headers: DeliveryHeaders,
	rawBody: DeliveryRequest['rawBody'],
): Promise<Refusal> {
	for (const retired of readState(nodeData(context)).retired) {
		const secret = await readSecret(context, retired).catch(nothing);
		if (secret === undefined) continue;
		if (checkSignature(secret, headers, rawBody).failure === undefined)
			return [410, RETIRED_REASON];
	}
	// On the test URL the node cannot tell its own URL on every n8n version; a test listening lasts minutes.
	if (context.getMode() === 'manual') return [503, TEST_MISMATCH_REASON];
	if (!lookups.take('process')) return [503, RATIONED_REASON];
	const lookup = getSubscription(context, stored.id, deadlineIn(5_000), true);
	const remote = await lookup.catch(nothing);
	if (remote === undefined) return [503, UNCHECKED_REASON];
	if (remote === 'gone') return [503, STALE_REASON];
	const at = typeof remote.url === 'string' ? remote.url : stored.url;
	const url = context.getNodeWebhookUrl('default');
	const current = sameUrl(at, url) && !isInactiveStatus(remote.status);
	return current ? [503, ROTATED_REASON] : [503, STALE_REASON];
}

// docs/trigger.md#output-full-record
export const FULL_RECORD_TIME_LIMIT_MS = 8_000;

export const wantsFullRecord = (options: IDataObject, event: string): boolean =>
	options.fullRecord === true && event.startsWith('lead.');

async function fullRecordOf(
	context: IWebhookFunctions,
	event: string,
	payload: unknown,
): Promise<Read | { retry: string }> {
	const options = context.getNodeParameter('options', {}) as IDataObject;
	if (!wantsFullRecord(options, event)) return { payload };
	const id = isPlainObject(payload) ? payload.id : undefined;
	const noId = 'The event payload has no lead id, so the lead could not be read';
	if (typeof id !== 'string' || id.trim() === '') return { payload, error: { message: noId } };
	try {
		const path = `/leads/${encodeURIComponent(id)}`;
		const deadline = deadlineIn(FULL_RECORD_TIME_LIMIT_MS);
		const lead = await apiRequest.call(context, { method: 'GET', path, deadline });
		if (isPlainObject(lead) && typeof lead.id === 'string') return { payload: lead };
		return { payload, error: { message: `GET /leads/${id} did not answer with a lead` } };
	} catch (error) {
		const status = httpStatusOf(error);
		const message = (error as Error).message;
		const reason = `reading lead ${id} failed: ${message}`;
		const retry = status === undefined || status === 429 || status >= 500;
		const outcome = retry
			? 'the delivery is answered 503 so that the CRM sends it again'
			: 'the event is output as received, with fullRecordError';
		log(context, `Output Full Record: ${reason}; ${outcome}`);
		if (retry) return { retry: reason };
		return { payload, error: { message, httpCode: String(status) } };
	}
}

type Refused = { refusal: Refusal; stored?: StoredSubscription; renewal?: RenewalCause };
type Checked =
	| Refused
	| { refusal?: undefined; stored: StoredSubscription; webhookId: string; rotating: boolean };

async function verify(context: IWebhookFunctions, request: DeliveryRequest): Promise<Checked> {
	const headers = checkDeliveryHeaders(request.headers);
	if (typeof headers === 'string') return { refusal: [401, headers] };
	const stored = readState(nodeData(context)).subscription;
	if (!stored) return { refusal: [503, NO_SECRET_REASON] };
	const secret = await readSecret(context, stored).catch(() => null);
	if (secret === null) return { refusal: [503, NO_CREDENTIAL_REASON] };
	if (secret === undefined) {
		return { refusal: [503, UNUSABLE_SECRET_REASON], stored, renewal: 'unreadable' };
	}
	const { failure, rotating } = checkSignature(secret, headers, request.rawBody);
	if (failure === 'signature does not match') {
		const refusal = await verdict(context, stored, headers, request.rawBody);
		const renewal = refusal[1] === ROTATED_REASON ? 'mismatch' : undefined;
		return { refusal, stored, renewal };
	}
	if (failure !== undefined) return { refusal: [401, failure] };
	await rewrap(context, stored);
	return { stored, webhookId: headers.id, rotating };
}

const DUPLICATE = { received: true, duplicate: true };

async function accept(
	context: IWebhookFunctions,
	stored: StoredSubscription,
	webhookId: string,
	rawBody: DeliveryRequest['rawBody'],
): Promise<IWebhookResponseData> {
	// 3. Answer.
	const parsed = parseDelivery(rawBody);
	if (typeof parsed === 'string') return refuse(context, [400, parsed]);
	const { event } = parsed;
	if (!eventsOf(context).includes(event)) {
		const ignored = `event "${cut(event, 100)}" is not selected in this trigger`;
		return answer(context, 200, { received: true, ignored });
	}
	const data = nodeData(context);
	const memoryKey = deliveryMemoryKey(context, stored.id);
	if (!acceptOnce(data, memoryKey, webhookId, true)) return answer(context, 200, DUPLICATE);
	// Read before the id is remembered, so that a 503 leaves the retry welcome.
	const record = await fullRecordOf(context, event, parsed.payload);
	if ('retry' in record) return answer(context, 503, { error: record.retry });
	// Checked again: a copy of this delivery handled meanwhile (during the read) has been accepted already.
	if (!acceptOnce(data, memoryKey, webhookId)) return answer(context, 200, DUPLICATE);

	// 4. Emit.
	const item = { json: output(context, { ...parsed, ...record, webhookId }) };
	return { ...answer(context, 200, { received: true }), workflowData: [[item]] };
}

/** A renewal for an unreadable secret runs before the answer; one for a missed rotation after it. */
async function refuseDelivery(
	context: IWebhookFunctions,
	{ refusal, stored, renewal }: Refused,
	limitMs: number,
): Promise<IWebhookResponseData> {
	if (stored && renewal === 'unreadable') await renew(context, stored, renewal, limitMs);
	const answered = refuse(context, refusal);
	if (stored && renewal === 'mismatch') await renew(context, stored, renewal, limitMs);
	return answered;
}

export async function receiveDelivery(
	this: IWebhookFunctions,
	renewalLimitMs = RENEWAL_TIME_LIMIT_MS,
): Promise<IWebhookResponseData> {
	const request = this.getRequestObject() as unknown as DeliveryRequest;
	const checked = await verify(this, request);
	if (checked.refusal) return await refuseDelivery(this, checked, renewalLimitMs);
	const { stored, webhookId, rotating } = checked;
	const answered = await accept(this, stored, webhookId, request.rawBody);
	// Only after a 2xx: a delivery answered 503 comes again through the subscription that the renewal deletes.
	const status = (this.getResponseObject() as unknown as { statusCode?: number }).statusCode;
	if (rotating && status === 200) await renew(this, stored, 'rotating', renewalLimitMs);
	return answered;
}

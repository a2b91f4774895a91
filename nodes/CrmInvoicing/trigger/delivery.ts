import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { isPlainObject, simplify } from '../shared';
import {
	answer,
	NO_CREDENTIAL_REASON,
	NO_SECRET_REASON,
	refuse,
	refuseMismatch,
	refuseUnreadable,
	type DeliveryRequest,
} from './answers';
import { fullRecordOf } from './fullRecord';
import { apiKeyOf, keepWrappedUnderKey, readSecret, secretOwner, type SecretRead } from './secret';
import { checkDeliveryHeaders, verifySignature } from './signature';
import { acceptOnce, deliveryMemoryKey, readState, wasAccepted } from './store';
import { eventsOf } from './subscription';

const MAX_EVENT_IN_ANSWER = 100;

export const TRIGGER_SIMPLIFY_VERSION = 2;

/**
 * Simplify (issue 18): `event`, `timestamp` and the payload, a `lead.*` event's lead reduced to its simplified
 * fields (others kept whole: the spec does not show them), `fullRecordError` kept, no `webhookId`. Off: `json` as is.
 */
function deliveryOutput(
	context: IWebhookFunctions,
	json: IDataObject,
	event: string,
	payloadOnly: boolean,
): IDataObject {
	if (context.getNode().typeVersion < TRIGGER_SIMPLIFY_VERSION) return json;
	if (context.getNodeParameter('simplify', true) === false) return json;
	const isLead = event.startsWith('lead.');
	const extra: IDataObject =
		json.fullRecordError === undefined ? {} : { fullRecordError: json.fullRecordError };
	if (payloadOnly) {
		// Payload Only put a payload that is not an object under `payload`: nothing to reduce.
		if (!isLead || (json.payload !== undefined && !isPlainObject(json.payload))) return json;
		return { ...simplify('lead', json), ...extra };
	}
	const payload =
		isLead && isPlainObject(json.payload) ? simplify('lead', json.payload) : json.payload;
	return { event: json.event, timestamp: json.timestamp, payload, ...extra };
}

function parseDelivery(
	rawBody: Buffer | string | undefined,
):
	| { ok: true; event: string; timestamp: unknown; payload: unknown }
	| { ok: false; reason: string } {
	const text =
		rawBody === undefined
			? ''
			: Buffer.isBuffer(rawBody)
				? rawBody.toString('utf8')
				: String(rawBody);
	if (text.trim() === '') return { ok: false, reason: 'empty body' };
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		return { ok: false, reason: 'body is not JSON' };
	}
	if (!isPlainObject(body)) return { ok: false, reason: 'body is not a JSON object' };
	const { event, timestamp, payload } = body;
	if (typeof event !== 'string' || event.trim() === '')
		return { ok: false, reason: 'body has no event name' };
	return { ok: true, event, timestamp: timestamp ?? null, payload: payload ?? null };
}

/** One delivery: verified first, on its raw bytes; repeats cost no API call; a bad request is answered, not thrown. */
export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const staticData = this.getWorkflowStaticData('node');
	const request = this.getRequestObject() as unknown as DeliveryRequest;
	// A delivery whose signature headers are missing, malformed or stale cannot be a genuine one, whatever the state.
	const headers = checkDeliveryHeaders({
		headers: request.headers ?? {},
		rawHeaders: request.rawHeaders,
	});
	if (!headers.ok) return refuse(this, 401, headers.reason, request);
	const { subscription: stored, retired } = readState(staticData);
	if (!stored || (stored.secretWrapped === undefined && stored.clearSecret === undefined)) {
		return refuse(this, 503, NO_SECRET_REASON, request);
	}
	let key: Promise<string> | undefined;
	const apiKey = async () => await (key ??= apiKeyOf(this));
	let read: SecretRead;
	try {
		read = await readSecret(stored, secretOwner(this, stored.id), apiKey);
	} catch {
		// n8n could not hand over the credential (deleted, or not decryptable): a state on our side, retryable.
		return refuse(this, 503, NO_CREDENTIAL_REASON, request);
	}
	if (read.kind === 'none') return refuse(this, 503, NO_SECRET_REASON, request);
	if (read.kind === 'unusable') return await refuseUnreadable(this, stored, request);

	const verify = (secret: string) => verifySignature(secret, headers, request.rawBody);
	const verification = verify(read.secret);
	if (!verification.ok) {
		if (verification.reason === 'signature does not match')
			return await refuseMismatch(this, request, stored, retired, apiKey, verify);
		return refuse(this, 401, verification.reason, request);
	}
	await keepWrappedUnderKey(this, stored, read, apiKey);

	const parsed = parseDelivery(request.rawBody);
	if (!parsed.ok) return refuse(this, 400, parsed.reason, request);
	const { event, timestamp, payload } = parsed;

	const options = this.getNodeParameter('options', {}) as IDataObject;
	if (!eventsOf(this).includes(event)) {
		const shown =
			event.length > MAX_EVENT_IN_ANSWER ? `${event.slice(0, MAX_EVENT_IN_ANSWER)}…` : event;
		return answer(this, 200, {
			received: true,
			ignored: `event "${shown}" is not selected in this trigger`,
		});
	}

	const memoryKey = deliveryMemoryKey(this, stored.id);
	const deliveryId = verification.id;
	if (wasAccepted(staticData, memoryKey, deliveryId))
		return answer(this, 200, { received: true, duplicate: true });

	// Read (fullRecord.ts, which logs a failure) before the id is remembered, so a 503 leaves the retry welcome.
	const record = await fullRecordOf(this, options, event, payload);
	if (record.kind === 'retry') return answer(this, 503, { error: record.reason });

	// Checked again: a copy of this delivery handled meanwhile (during the read) has been accepted already.
	if (!acceptOnce(staticData, memoryKey, deliveryId))
		return answer(this, 200, { received: true, duplicate: true });
	const output = record.payload;
	const json: IDataObject =
		options.payloadOnly === true
			? isPlainObject(output)
				? { ...output }
				: { payload: output as IDataObject }
			: // `webhookId` is the delivery's id (its `webhook-id` header), as workflows have read it since 0.1.
				{
					event,
					timestamp: timestamp as string,
					payload: output as IDataObject,
					webhookId: deliveryId,
				};
	if (record.kind === 'failed') json.fullRecordError = record.error;
	// Answered here, not left to n8n: n8n saves a webhook call's static data changes (the id just remembered, a secret
	// wrapped anew) when the answer is given, and only if it is given before the execution starts (n8n 2.x resets its
	// "changed" flag when it prepares the execution). Saved, they reach every process (docs/scale.md).
	const accepted = answer(this, 200, { received: true });
	return {
		...accepted,
		workflowData: [[{ json: deliveryOutput(this, json, event, options.payloadOnly === true) }]],
	};
}

import type { IDataObject, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { cut, deadlineIn, nothing, Turns } from '../shared';
import { getSubscription, printable, sameUrl } from './ownership';
import { isInactiveStatus } from './subscription';
import { renew, RENEWAL_TIME_LIMIT_MS, type Renewal } from './renewal';
import { eventsOf, fullRecordOf, optionsOf, output, parseDelivery } from './item';
import { checkDeliveryHeaders, checkSignature, NO_MATCH } from './signature';
import { acceptOnce, log, nodeData, readDelivery, rewrap, WHY_UNREADABLE } from './store';

// A delivery goes verify → decide → answer → emit, and a renewal it starts runs before it returns. Every delivery is
// answered here, never thrown: n8n saves static data changes only when the answer precedes the execution
// (docs/scale.md).

// 503 whenever a retry can pass (the CRM retries 5xx); 410 only for a retired subscription; 401 for headers; 400 for
// a verified body without an event. docs/trigger.md#answers-to-deliveries
const MISMATCH = 'signature does not match the stored secret';
const RENEWED = "whether this trigger's subscription was renewed";

export const NO_SECRET_REASON =
	'this trigger holds no signing secret yet (its subscription is being created, or was not created by this n8n); retry later. ' +
	'If this lasts, deactivate and re-activate the workflow so that it subscribes anew';
export const NO_CREDENTIAL_REASON =
	"this trigger's credential could not be read, so its signing secret cannot be unwrapped; retry later. Check the trigger's credential in n8n";
export const UNUSABLE_SECRET_REASON = `this trigger's stored signing secret cannot be read with its credential's API key ${WHY_UNREADABLE}, so this delivery cannot be verified; the trigger subscribes anew at its own URL (see n8n's log)`;
export const RATIONED_REASON = `${MISMATCH}, and this n8n process asked the CRM about a subscription less than 30 s ago, so it cannot tell now ${RENEWED}; retry later`;
export const STALE_REASON = `${MISMATCH}, and the stored subscription is no longer this trigger's current one (gone, disabled or at another URL: this n8n process may not have read the new one yet); retry later`;
export const UNCHECKED_REASON = `${MISMATCH}, and the CRM could not be asked in time ${RENEWED}; retry later`;
export const ROTATED_REASON =
	`${MISMATCH} of a subscription the CRM shows current at this node's URL: ` +
	'the CRM may have rotated its signing secret, and the trigger subscribes anew to get the new one (at most once an hour); retry later';
export const TEST_MISMATCH_REASON = `${MISMATCH} of this test listening; retry later`;
export const RETIRED_REASON =
	'this delivery came through a webhook subscription that this trigger replaced (it delivers to another URL of this n8n); answered 410 so that the CRM disables it. Nothing was run';

/** `refusal` is logged; `item` runs the workflow. */
interface Outcome {
	status: 200 | 400 | 401 | 410 | 503;
	body: IDataObject;
	refusal?: string;
	item?: INodeExecutionData;
	renewal?: Renewal;
}

/** `seen`: accepted already. */
type Verified = Exclude<Awaited<ReturnType<typeof verify>>, Outcome>;

/** 503 unless said: the CRM retries it. */
const refusal = (reason: string, status: Outcome['status'] = 503): Outcome => ({
	status,
	body: { error: reason },
	refusal: reason,
});

// Lookups are rationed per process and take at most 5 s: the delivery must be answered within the CRM's 20 s.
export const LOOKUP_INTERVAL_MS = 30_000;
const lookups = new Turns(LOOKUP_INTERVAL_MS, 1);

/** The headers first, before any state is read; then the signature, then why it does not match. */
async function verify(context: IWebhookFunctions) {
	const request = context.getRequestObject();
	const headers = checkDeliveryHeaders(request.headers);
	if (typeof headers === 'string') return refusal(headers, 401);
	const read = await readDelivery(context, headers.id);
	if (read === undefined) return refusal(NO_SECRET_REASON);
	const { stored, secret } = read;
	if (secret === null) return refusal(NO_CREDENTIAL_REASON);
	if (secret === undefined)
		return { ...refusal(UNUSABLE_SECRET_REASON), renewal: 'unreadable' as const };
	const { rawBody } = request;
	const signed = checkSignature(secret.secret, headers, rawBody);
	if (signed.failure === undefined)
		return { ...read, rawBody, webhookId: headers.id, rotating: signed.rotating };
	if (signed.failure !== NO_MATCH) return refusal(signed.failure, 401);
	for (const old of read.retired)
		if (checkSignature(old, headers, rawBody).failure === undefined)
			return refusal(RETIRED_REASON, 410);
	// No secret matches: a renewal this process has not read, or a rotation of the CRM's secret. On the test URL the
	// node cannot tell its own URL on every n8n version; a test listening lasts minutes.
	if (context.getMode() === 'manual') return refusal(TEST_MISMATCH_REASON);
	if (!lookups.take('process')) return refusal(RATIONED_REASON);
	const remote = await getSubscription(context, stored.id, deadlineIn(5_000), true).catch(nothing);
	if (remote === undefined) return refusal(UNCHECKED_REASON);
	if (
		remote === 'gone' ||
		!sameUrl(remote.url ?? stored.url, context.getNodeWebhookUrl('default')) ||
		isInactiveStatus(remote.status)
	)
		return refusal(STALE_REASON);
	return { ...refusal(ROTATED_REASON), renewal: 'mismatch' as const };
}

export const wantsFullRecord = (options: IDataObject, event: string) =>
	options.fullRecord === true && event.startsWith('lead.');

const DUPLICATE: Outcome = { status: 200, body: { received: true, duplicate: true } };

async function outcomeOf(
	context: IWebhookFunctions,
	{ rawBody, webhookId, seen }: Verified,
): Promise<Outcome> {
	const parsed = parseDelivery(rawBody);
	if (typeof parsed === 'string') return refusal(parsed, 400);
	const { event, payload } = parsed;
	if (!eventsOf(context).includes(event))
		return {
			status: 200,
			body: {
				received: true,
				ignored: `event "${cut(event, 100)}" is not selected in this trigger`,
			},
		};
	if (seen) return DUPLICATE;
	// Read before the id is remembered, so that a 503 leaves the retry welcome.
	const record = wantsFullRecord(optionsOf(context), event)
		? await fullRecordOf(context, payload)
		: { payload };
	if ('retry' in record) return { status: 503, body: { error: record.retry } };
	const item = { json: output(context, { ...parsed, ...record, webhookId }) };
	return { status: 200, body: { received: true }, item };
}

/** What a verified delivery changes is kept before the answer: n8n saves static data with it. */
async function decide(context: IWebhookFunctions, verified: Verified): Promise<Outcome> {
	const { stored, webhookId, rotating, memoryKey } = verified;
	const outcome = await outcomeOf(context, verified);
	await rewrap(context, stored);
	// Checked again: a copy of this delivery handled meanwhile (during the read) has been accepted already.
	const accepted = !outcome.item || acceptOnce(nodeData(context), memoryKey, webhookId);
	const kept = accepted ? outcome : DUPLICATE;
	// Only after a 2xx: a delivery answered 503 comes again through the subscription that the renewal deletes.
	if (!rotating || kept.status !== 200) return kept;
	return { ...kept, renewal: 'rotating' };
}

/** Answers (a refusal is logged), then renews if the outcome says so; the result emits the item, if any. */
export async function receiveDelivery(
	this: IWebhookFunctions,
	renewalLimitMs = RENEWAL_TIME_LIMIT_MS,
) {
	const checked = await verify(this);
	const {
		status,
		body,
		refusal: reason,
		item,
		renewal,
	} = 'status' in checked ? checked : await decide(this, checked);
	if (reason !== undefined) {
		const rawId = this.getRequestObject().headers['webhook-id'];
		const id = typeof rawId === 'string' ? ` (webhook-id ${printable(rawId, 80)})` : '';
		log(
			this,
			`refused a delivery with ${status} (the API ${status === 503 ? 'retries it later' : 'does not retry it'}): ${reason}${id}`,
		);
	}
	this.getResponseObject().status(status).json(body);
	// Once answered, before this returns: the CRM has its answer at once, and n8n saves the new subscription.
	if (renewal) await renew(this, renewal, renewalLimitMs);
	return { noWebhookResponse: true, workflowData: item && [[item]] };
}

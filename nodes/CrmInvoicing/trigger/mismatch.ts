import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import {
	RATIONED_REASON,
	refuse,
	RETIRED_REASON,
	STALE_REASON,
	TEST_MISMATCH_REASON,
	UNCHECKED_REASON,
	type DeliveryRequest,
} from './answers';
import { readSecret, secretOwner } from './secret';
import type { VerificationResult } from './signature';
import type { RetiredSubscription, StoredSubscription } from './state';
import { isInactiveStatus, lookUpSubscription } from './subscription';

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

/** When this process last asked (for any trigger). */
let lastLookupAt: number | undefined;

/** Whether this process may ask the CRM now; if so, the next question waits LOOKUP_INTERVAL_MS. */
function takeLookup(now = Date.now()): boolean {
	if (lastLookupAt !== undefined && now >= lastLookupAt && now - lastLookupAt < LOOKUP_INTERVAL_MS) return false;
	lastLookupAt = now;
	return true;
}

/** 401 when the stored subscription is provably current now, else 503 with why not. */
async function verdict(context: IWebhookFunctions, stored: StoredSubscription): Promise<[401 | 503, string]> {
	// On the test URL the node cannot tell its own URL on every n8n version; a test listening lasts minutes.
	if (context.getMode() === 'manual') return [503, TEST_MISMATCH_REASON];
	if (!takeLookup()) return [503, RATIONED_REASON];
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

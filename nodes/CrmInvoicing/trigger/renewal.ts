import type { IWebhookFunctions } from 'n8n-workflow';

import { nodeKey, Turns } from '../shared';
import { log, nodeData, readState, WHY_UNREADABLE } from './store';
import { inTime, subscribe } from './subscription';

// Rationed (a forger can send a mismatch), never on the test URL, and done before the delivery returns so that n8n
// saves the new subscription. docs/trigger.md#rotation-of-the-signing-secret
export const RENEWAL_INTERVAL_MS = 60_000;
export const SIGNATURE_RENEWAL_INTERVAL_MS = 3_600_000;
export const RENEWAL_TIME_LIMIT_MS = 15_000;
const renewals = new Turns(RENEWAL_INTERVAL_MS, 500);
const signatureRenewals = new Turns(SIGNATURE_RENEWAL_INTERVAL_MS, 500);

const WHY = {
	unreadable: [
		'',
		` cannot be read with the credential's API key ${WHY_UNREADABLE}, so no delivery through it can be verified`,
	],
	rotating: [
		'a delivery verified with ',
		' also carried a signature by another secret: the CRM is rotating the secret, and the new one comes only with a new subscription',
	],
	mismatch: [
		"a delivery's signature does not match ",
		", which the CRM shows current at this node's URL: the CRM may have rotated the secret (or the delivery is forged), and a new secret comes only with a new subscription",
	],
};

/** Why the stored subscription is renewed. */
export type Renewal = keyof typeof WHY;

export async function renew(context: IWebhookFunctions, cause: Renewal, ms: number) {
	const turns = cause === 'unreadable' ? renewals : signatureRenewals;
	if (context.getMode() === 'manual' || !turns.take(nodeKey(context))) return;
	const [before, after] = WHY[cause];
	const old = readState(nodeData(context)).subscription?.id;
	const why = `${before}the stored signing secret of webhook subscription ${old}${after}`;
	let id: string;
	try {
		id = await inTime(context, 'subscribe anew', ms, subscribe);
	} catch (error) {
		return log(
			context,
			`${why}. Subscribing anew failed (${(error as Error).message}); ` +
				`the stored subscription is kept, and a delivery tries again in ${turns.intervalMs / 1000} s at the earliest (or re-publish the workflow).`,
		);
	}
	// The delivery that started a rotating renewal was run: none is lost then.
	log(
		context,
		`${why}. Subscribed anew at this node's URL as webhook subscription ${id} (subscription ${old} was deleted afterwards if it delivered to this URL).` +
			(cause === 'rotating'
				? ''
				: ` Events delivered through ${old} until now are not run: look in the CRM for events of that time.`),
	);
}

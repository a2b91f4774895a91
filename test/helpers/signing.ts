/**
 * Signs deliveries as the CRM does (Standard Webhooks, spec §6), for tests and benchmarks: the package itself only
 * verifies. `test/unit/trigger/signature.test.ts` checks these against the Standard Webhooks reference vector and the
 * `standardwebhooks` library, so what they sign is what the CRM signs.
 */
import { createHmac } from 'node:crypto';

import type { HeaderMap } from '../../nodes/CrmInvoicing/shared';
import { checkDeliveryHeaders, checkSignature } from '../../nodes/CrmInvoicing/trigger/signature';

export interface SignInput {
	secret: string;
	id: string;
	/** Unix time in seconds. */
	timestamp: number;
	body: Buffer | Uint8Array | string;
}

/** A `v1,<base64>` entry for the given message; join several with a space for rotation. */
export function signWebhook({ secret, id, timestamp, body }: SignInput): string {
	const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
	if (encoded.trim() === '') throw new TypeError('The signing secret is missing or invalid');
	const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
	const hmac = createHmac('sha256', Buffer.from(encoded, 'base64'))
		.update(id, 'utf8')
		.update(`.${timestamp}.`, 'utf8')
		.update(bytes);
	return `v1,${hmac.digest('base64')}`;
}

/** The three `webhook-*` headers for a message, signed with every given secret (rotation sends old and new). */
export function signedHeaders(
	secrets: string | string[],
	id: string,
	timestamp: number,
	body: Buffer | Uint8Array | string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
	const list = Array.isArray(secrets) ? secrets : [secrets];
	return {
		'webhook-id': id,
		'webhook-timestamp': String(timestamp),
		'webhook-signature': list
			.map((secret) => signWebhook({ secret, id, timestamp, body }))
			.join(' '),
	};
}

export interface VerifyInput {
	/** `whsec_<base64>` (a bare base64 key is accepted too). */
	secret: string;
	/** As Node hands them over: a character per byte received, repeated lines joined by ", ". */
	headers: HeaderMap;
	/** The exact bytes received. */
	rawBody: Buffer | Uint8Array | string | undefined;
	nowSeconds?: number;
}

export type VerificationResult =
	| { ok: true; id: string; timestamp: number }
	| { ok: false; reason: string };

/** The package's header checks and signature check in one, as a delivery runs them (tests and benchmarks only). */
export function verifyWebhookSignature({
	secret,
	headers,
	rawBody,
	nowSeconds,
}: VerifyInput): VerificationResult {
	const checked = checkDeliveryHeaders(headers, nowSeconds);
	if (typeof checked === 'string') return { ok: false, reason: checked };
	const reason = checkSignature(secret, checked, rawBody).failure;
	return reason === undefined
		? { ok: true, id: checked.id, timestamp: checked.timestamp }
		: { ok: false, reason };
}

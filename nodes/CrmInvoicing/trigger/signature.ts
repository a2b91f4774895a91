import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';

import { headerValue, headerValues, type HeaderMap } from '../shared';

// Standard Webhooks (spec §6, docs/trigger.md#signatures). Pure; reasons never contain the secret.

// spec §8
const TOLERANCE_SECONDS = 300;
// The CRM sends one entry of about 47 characters (two or three while rotating).
export const MAX_SIGNATURE_HEADER_LENGTH = 4096;
export const MAX_SIGNATURE_ENTRIES = 16;
// The API's ids are short (`msg_…`).
const MAX_WEBHOOK_ID_LENGTH = 256;

export const NO_MATCH = 'signature does not match';

const isV1Entry = (entry: string) => entry.startsWith('v1,');

/** Split on spaces and on commas (repeated lines join with ", "); one character-class split keeps it linear. */
export function readSignatureEntries(header: string, maxEntries = MAX_SIGNATURE_ENTRIES) {
	const tokens = header.split(/[\s,]+/);
	const entries: string[] = [];
	for (let at = 0; at + 1 < tokens.length; at++) {
		if (!/^v\d+[a-z]*$/.test(tokens[at])) continue;
		entries.push(`${tokens[at]},${tokens[++at]}`);
		if (entries.length > maxEntries) return undefined;
	}
	return entries;
}

// Not trimmed: Node has taken off the spaces around a value, and an id's last byte may read as one (0xA0).
const filled = (text?: string) => (text?.trim() ? text : undefined);

/** `headers` as Node gives them: a character per byte received, repeated lines joined by ", ". */
export function checkDeliveryHeaders(
	headers: HeaderMap,
	nowSeconds = Math.floor(Date.now() / 1000),
) {
	const rawId = filled(headerValue(headers, 'webhook-id'));
	const timestampText = filled(headerValue(headers, 'webhook-timestamp'));
	const signature = filled(headerValues(headers, 'webhook-signature').join(' '));
	if (rawId === undefined) return 'missing webhook-id header';
	if (rawId.length > MAX_WEBHOOK_ID_LENGTH) return 'webhook-id header is too long';
	if (timestampText === undefined) return 'missing webhook-timestamp header';
	if (signature === undefined) return 'missing webhook-signature header';
	if (signature.length > MAX_SIGNATURE_HEADER_LENGTH) return 'webhook-signature header is too long';
	const entries = readSignatureEntries(signature);
	if (entries === undefined) return 'webhook-signature header has too many entries';
	if (!/^\d{1,15}$/.test(timestampText))
		return 'webhook-timestamp is not an integer number of seconds';
	const timestamp = Number(timestampText);
	if (nowSeconds - timestamp > TOLERANCE_SECONDS) return 'webhook-timestamp is too old';
	if (timestamp - nowSeconds > TOLERANCE_SECONDS) return 'webhook-timestamp is in the future';
	if (!entries.some(isV1Entry)) return 'no v1 signature in webhook-signature header';
	// The bytes received are signed; the id is output and remembered as their UTF-8 text when they are valid UTF-8.
	const idBytes = Buffer.from(rawId, 'latin1');
	const text = idBytes.toString();
	const id = Buffer.from(text).equals(idBytes) ? text : rawId;
	return { id, idBytes, timestampText, timestamp, entries };
}

type DeliveryHeaders = Exclude<ReturnType<typeof checkDeliveryHeaders>, string>;

/** Over the exact bytes received. `rotating`: one `v1` entry matches, another does not (spec §6.4). */
export function checkSignature(
	secret: string | undefined,
	delivery: DeliveryHeaders,
	rawBody: Uint8Array | string | undefined,
) {
	const key = Buffer.from((secret ?? '').replace(/^whsec_/, ''), 'base64');
	if (key.length === 0) return { failure: 'signing secret is missing or invalid', rotating: false };
	const { idBytes, timestampText, entries } = delivery;
	// A KeyObject: on Node.js 22+ a raw Buffer key costs about 4× more per createHmac (bench/: 9.4 µs against 2.1 µs).
	const expected = createHmac('sha256', createSecretKey(key))
		.update(idBytes)
		.update(`.${timestampText}.`)
		.update(rawBody ?? '')
		.digest();
	let matched = false;
	let others = false;
	for (const entry of entries) {
		const encoded = entry.slice(3);
		if (!isV1Entry(entry) || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) continue;
		const candidate = Buffer.from(encoded, 'base64');
		if (candidate.length !== 32) continue;
		// Every candidate is compared, so timing does not tell which entry (or whether an earlier one) matched.
		if (timingSafeEqual(candidate, expected)) matched = true;
		else others = true;
	}
	if (!matched) return { failure: NO_MATCH, rotating: false };
	return { rotating: others };
}

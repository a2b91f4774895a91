import { createHash } from 'node:crypto';

/**
 * The package's one hash helper: SHA-256 of a text (UTF-8), in base64url, cut to `chars` characters (43 is all of it).
 * Used for fingerprints that must not reveal what they were made from (an API key, a delivery id, a record).
 */
export function sha256(text: string, chars = 43): string {
	return createHash('sha256').update(text, 'utf8').digest('base64url').slice(0, chars);
}

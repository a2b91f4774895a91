import { createHash } from 'node:crypto';

/** Base64url, cut to `chars` (43 is all of it): fingerprints that must not reveal their source. */
export function sha256(text: string, chars = 43) {
	return createHash('sha256').update(text).digest('base64url').slice(0, chars);
}

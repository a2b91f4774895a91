/**
 * The API key is never shown in clear: it is redacted where an answer is read (request.ts), before anything parses,
 * shows or outputs it.
 */

/**
 * Replaces every occurrence of the secrets (the API key, as is and URL-encoded) in a text by `[redacted]`. Secrets
 * shorter than 4 characters are left alone: replacing them would garble the text and hide nothing.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
	let result = text;
	for (const secret of secrets) {
		if (secret.length < 4) continue;
		for (const form of new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])) {
			if (result.includes(form)) result = result.split(form).join(REDACTED);
		}
	}
	return result;
}

export const REDACTED = '[redacted]';


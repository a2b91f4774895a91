/** What the transport's tests share without loading nock (bounds.test talks to the real sandbox). */

/** Everything of an error that n8n shows, logs or stores: message, description, its JSON (cause, own properties), stack. */
export function shownOf(error: Error & Record<string, unknown>): string {
	return [
		error.message,
		String(error.description ?? ''),
		JSON.stringify(error),
		JSON.stringify(error.cause ?? null),
		JSON.stringify(error, Object.getOwnPropertyNames(error)),
		String(error.stack ?? ''),
	].join('\n');
}

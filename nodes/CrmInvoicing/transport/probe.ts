import type { IHookFunctions, IHttpRequestMethods, IN8nHttpFullResponse } from 'n8n-workflow';

/**
 * Whether a webhook URL still answers as a registered n8n webhook: the trigger's test before it removes one of its own
 * subscriptions that delivers to another URL than its current one (a WEBHOOK_URL change, a restored copy of this
 * n8n, an old address that still reaches it).
 *
 * The probe is `OPTIONS <url>` with an `Origin` header and nothing else: no API key, no signing secret, no body.
 * n8n (1.x and 2.x, main and webhook processes) answers it from its webhook router: with an `Origin` it looks the path
 * up, and answers 204 when a webhook is registered there and 404 when none is. Redirects are not followed, the
 * answer's body is not used, and the probe has its own short time limit, enforced by aborting it.
 *
 * - `registered`: a 2xx. Some n8n (or something else) still takes deliveries there: the subscription is kept.
 * - `notRegistered`: a 404 or 410. Provably dead: the subscription may be removed.
 * - `unknown`: anything else (no answer, a refused connection, a name that does not resolve, 3xx, 5xx). Not proof of
 *   anything: the subscription is kept, and the trigger's warning says how to remove it.
 */

export type ProbeVerdict = 'registered' | 'notRegistered' | 'unknown';

export interface ProbeResult {
	verdict: ProbeVerdict;
	/** What was seen, for logs: `HTTP 404`, `ECONNREFUSED`, `timeout`. Never a body. */
	detail: string;
}

export const PROBE_TIME_LIMIT_MS = 3_000;

/** The Origin sent, so that n8n looks the path up (without one it answers any OPTIONS with 204). */
export const PROBE_ORIGIN = 'https://crm-invoicing-trigger.invalid';

function errorDetail(error: unknown): string {
	const candidate = error as { code?: unknown; cause?: { code?: unknown }; name?: unknown };
	const code = candidate?.code ?? candidate?.cause?.code;
	if (typeof code === 'string' && /^[A-Z_]{2,40}$/.test(code)) return code === 'ERR_CANCELED' ? 'timeout' : code;
	return candidate?.name === 'AbortError' || candidate?.name === 'TimeoutError' ? 'timeout' : 'no answer';
}

/** OPTIONS `url` with nothing secret in it; see the module's comment. Never throws. */
export async function probeWebhookUrl(
	this: IHookFunctions,
	url: string,
	timeLimitMs = PROBE_TIME_LIMIT_MS,
): Promise<ProbeResult> {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return { verdict: 'unknown', detail: 'not a URL' };
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { verdict: 'unknown', detail: 'not http(s)' };
	const limit = Math.max(1, Math.min(timeLimitMs, PROBE_TIME_LIMIT_MS));
	try {
		const response = (await this.helpers.httpRequest({
			// n8n's type lists fewer methods than its HTTP client sends; OPTIONS goes through as it is.
			method: 'OPTIONS' as IHttpRequestMethods,
			url: parsed.href,
			headers: { Origin: PROBE_ORIGIN, 'Access-Control-Request-Method': 'POST' },
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			json: false,
			timeout: limit,
			abortSignal: AbortSignal.timeout(limit),
		})) as IN8nHttpFullResponse;
		const status = Number(response.statusCode);
		const detail = `HTTP ${status}`;
		if (status >= 200 && status < 300) return { verdict: 'registered', detail };
		if (status === 404 || status === 410) return { verdict: 'notRegistered', detail };
		return { verdict: 'unknown', detail };
	} catch (error) {
		return { verdict: 'unknown', detail: errorDetail(error) };
	}
}

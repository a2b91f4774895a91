import { headerValue, type HeaderMap } from '../values';
import { RETRY } from './limits';

/** Capped, so never near a timer's 2^31 ms overflow. */
export const boundedWait = (ms: number, cap: number = RETRY.maxWaitMs) =>
	ms > 0 ? Math.min(Math.ceil(ms), cap) : 0;

/** A time counts from the answer's `Date` (the clocks need not agree); a wait under a second asked again is not used. */
export function rateLimitWait(headers: HeaderMap, now: number, tries = 0): RateLimitWait {
	const dated = Date.parse(headerValue(headers, 'date') ?? '');
	const [clock, from] = Number.isNaN(dated) ? [now, "n8n's clock"] : [dated, "the answer's Date"];
	let unusable: string | undefined;
	/** Undefined when not usable; the first reason is kept. */
	const read = (name: string, margin = 0): RateLimitWait | undefined => {
		const text = headerValue(headers, name)?.trim() || '-';
		const seconds = Number(text);
		// A date, or a RateLimit-Reset past 1e9 (a Unix time), is a time; else seconds, when 0 or more.
		const time = Number.isNaN(seconds) || (margin > 0 && seconds > 1e9);
		const at = Number.isNaN(seconds) ? Date.parse(text) : seconds * 1000;
		const ms = time ? at - clock : at;
		const when = ms > 0 ? `more than ${RETRY.maxWaitMs / 1000} s ahead of` : 'already past by';
		if (ms >= 0 && ms < 1000 && tries > 0)
			unusable ??= `${name} asked for less than a second again`;
		else if (time ? ms > 0 && ms <= RETRY.maxWaitMs : ms >= 0 && ms < Infinity)
			return { ms: ms + margin, source: 'asked' };
		else if (time && !Number.isNaN(ms)) unusable ??= `${name} named a time ${when} ${from}`;
		return undefined;
	};
	const asked = read('Retry-After') ?? read('RateLimit-Reset', RETRY.resetMarginMs);
	// The default for the `tries`-th 429 of a request (0 for the first): 5 s, 10 s, …, at most RETRY.maxWaitMs
	// (past 2^1023 the product is Infinity, still cut to RETRY.maxWaitMs).
	const doubled = RETRY.defaultRateLimitWaitMs * 2 ** tries;
	return asked ?? { ms: Math.min(RETRY.maxWaitMs, doubled), source: 'default', unusable };
}

export type RateLimitWait = { ms: number; source: 'asked' | 'default'; unusable?: string };

export function announcedWindow(headers: HeaderMap, now: number) {
	const [remaining, reset, limit] = ['remaining', 'reset', 'limit'].map((name) =>
		Number(headerValue(headers, `ratelimit-${name}`)?.trim() || NaN),
	);
	if (!(remaining >= 0 && remaining < Infinity && Number.isFinite(reset))) return undefined;
	return {
		remaining,
		resetMs: boundedWait(reset > 1e9 ? reset * 1000 - now : reset * 1000) + RETRY.resetMarginMs,
		limit: Number.isFinite(limit) ? limit : 0,
	};
}

export const RATE_ADVICE =
	"The API key's rate limit is used up for longer than the node waits, so nothing more was sent. " +
	"Run fewer executions with this key at once (n8n's concurrency limit, smaller batches), or run it again later; " +
	'only if the CRM plan allows more, raise "Requests per Minute" in the credential.';

export const noTurnError = (waitMs: number, capMs: number) =>
	new Error(
		`its turn under the API key's rate limit would come in about ${Math.ceil(waitMs / 1000)} s, and it waits at most ${Math.ceil(capMs / 1000)} s`,
	);

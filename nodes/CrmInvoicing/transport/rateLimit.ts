import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { DOCUMENTED_RATE_LIMIT, RETRY } from './limits';

/** Margin added to a wait for the window to reset, so the next request lands in the new window. */
const RESET_MARGIN_MS = 50;

/**
 * Margin of the pacing without RateLimit-* headers: a request counts for the server when it arrives, a little after
 * the node sent it, so the next window's first request waits this much longer than the window itself.
 */
const DOCUMENTED_MARGIN_MS = 250;

/** A wait, bounded: never negative, never more than `cap` (so never near a timer's 2^31 ms overflow). */
export function boundedWait(ms: number, cap: number = RETRY.maxWaitMs): number {
	if (!Number.isFinite(ms) || ms <= 0) return ms === Infinity ? cap : 0;
	return Math.min(Math.ceil(ms), cap);
}

/** A header's value; names are compared without case, as HTTP does (`Retry-After` and `retry-after` are one header). */
function header(headers: IDataObject | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	const wanted = name.toLowerCase();
	const key = Object.hasOwn(headers, wanted)
		? wanted
		: Object.keys(headers).find((candidate) => candidate.toLowerCase() === wanted);
	const value = key === undefined ? undefined : headers[key];
	if (value === undefined || value === null) return undefined;
	return Array.isArray(value) ? String(value[0]) : String(value);
}

function toInt(value: string | undefined): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const number = Number(value);
	return Number.isFinite(number) ? number : undefined;
}

/** `RateLimit-Reset` is seconds until the window resets; a value that looks like a Unix time is read as one. */
function resetToMs(reset: number, now: number): number {
	return reset > 1_000_000_000 ? Math.max(0, reset * 1000 - now) : Math.max(0, reset * 1000);
}

/**
 * How long a 429 asks us to wait, from `Retry-After` (seconds or HTTP date), else `RateLimit-Reset`. Not bounded:
 * the caller compares it with RETRY.maxWaitMs and fails at once when the API asks for more.
 */
export function rateLimitWaitMs(headers: IDataObject | undefined, now = Date.now()): number {
	const retryAfter = header(headers, 'retry-after');
	if (retryAfter !== undefined) {
		const seconds = toInt(retryAfter);
		if (seconds !== undefined) return Math.max(0, seconds * 1000);
		const date = Date.parse(retryAfter);
		if (!Number.isNaN(date)) return Math.max(0, date - now);
	}
	const reset = toInt(header(headers, 'ratelimit-reset'));
	if (reset !== undefined) return resetToMs(reset, now) + RESET_MARGIN_MS;
	return RETRY.defaultRateLimitWaitMs;
}

/** Whether a response announces its rate-limit window (`RateLimit-Remaining` and `RateLimit-Reset`). */
export function announcesRateLimit(headers: IDataObject | undefined): boolean {
	return (
		toInt(header(headers, 'ratelimit-remaining')) !== undefined && toInt(header(headers, 'ratelimit-reset')) !== undefined
	);
}

/**
 * Paces the requests of one API key, shared by all executions in this n8n process.
 *
 * - While the API announces its window (`RateLimit-Remaining` and `RateLimit-Reset` on its answers), a request waits
 *   for the reset once the window has no requests left, instead of running into a 429.
 * - While its answers carry no such headers, the node keeps to the documented rate (60 requests per minute, or the
 *   credential's "Requests per Minute"): at most that many requests are sent in any window of that length.
 * - After a 429 every request waits for what the API asked, but only up to RETRY.maxWaitMs: a longer wait is never
 *   remembered, so one answer cannot hold the key back for an hour.
 */
export class RateLimitPacer {
	private remaining: number | undefined;

	private resetAt: number | undefined;

	/** Whether the last answer announced its window; until one does, the documented rate applies. */
	private announced = false;

	/** Send times of the last `requestsPerWindow` requests (reserved, possibly in the future), oldest first. */
	private readonly sent: number[] = [];

	private readonly requestsPerWindow: number;

	private readonly windowMs: number;

	constructor(
		private readonly now: () => number = Date.now,
		requestsPerMinute: number = DOCUMENTED_RATE_LIMIT.requests,
	) {
		this.requestsPerWindow = Math.max(1, Math.floor(requestsPerMinute));
		this.windowMs = DOCUMENTED_RATE_LIMIT.windowSeconds * 1000;
	}

	/** When the next request may be sent by the announced window (or after a 429); `now` when there is room. */
	private announcedSlot(now: number): number {
		if (this.remaining === undefined || this.resetAt === undefined) return now;
		if (now >= this.resetAt) {
			this.remaining = undefined;
			this.resetAt = undefined;
			return now;
		}
		return this.remaining > 0 ? now : this.resetAt + RESET_MARGIN_MS;
	}

	/** When the next request may be sent by the documented rate. */
	private documentedSlot(at: number): number {
		if (this.announced || this.sent.length < this.requestsPerWindow) return at;
		const oldest = this.sent[this.sent.length - this.requestsPerWindow];
		return Math.max(at, oldest + this.windowMs + DOCUMENTED_MARGIN_MS);
	}

	/** Milliseconds to wait before sending the next request (0 when there is room), without reserving a slot. */
	delayBeforeNextRequest(): number {
		const now = this.now();
		return boundedWait(this.documentedSlot(this.announcedSlot(now)) - now, RETRY.maxPacingWaitMs);
	}

	/**
	 * Takes the next slot: counts the request as sent at the time it may go, so concurrent requests do not all take
	 * the same slot, and returns how long to wait for it. A wait for the API's answers is at most RETRY.maxWaitMs
	 * (plus a reset margin); a request queued behind many others of the same key waits at most RETRY.maxPacingWaitMs.
	 */
	reserve(): number {
		const now = this.now();
		const at = this.documentedSlot(this.announcedSlot(now));
		if (this.remaining !== undefined) this.remaining -= 1;
		let index = this.sent.length;
		while (index > 0 && this.sent[index - 1] > at) index--;
		this.sent.splice(index, 0, at);
		if (this.sent.length > this.requestsPerWindow) this.sent.splice(0, this.sent.length - this.requestsPerWindow);
		return boundedWait(at - now, RETRY.maxPacingWaitMs);
	}

	/** Counts a request as sent (kept for callers that waited with delayBeforeNextRequest). */
	onRequestSent(): void {
		this.reserve();
	}

	/** Reads the window from a successful (or other non-429) response's headers. */
	onResponse(headers: IDataObject | undefined): void {
		const remaining = toInt(header(headers, 'ratelimit-remaining'));
		const reset = toInt(header(headers, 'ratelimit-reset'));
		if (remaining === undefined || reset === undefined) {
			this.announced = false;
			return;
		}
		const now = this.now();
		this.announced = true;
		this.remaining = remaining;
		this.resetAt = now + Math.min(resetToMs(reset, now), RETRY.maxWaitMs);
	}

	/**
	 * After a 429 the window is spent until the wait it asked for is over. A wait longer than RETRY.maxWaitMs is not
	 * remembered: that request fails at once, and later ones find out for themselves.
	 */
	onRateLimited(waitMs: number): void {
		if (!(waitMs <= RETRY.maxWaitMs)) return;
		this.remaining = 0;
		this.resetAt = this.now() + Math.max(0, waitMs);
	}
}

const pacers = new Map<string, RateLimitPacer>();

/**
 * One pacer per base URL, API key and rate, shared by all executions in this n8n process, since the limit is per key.
 * The key itself is not kept: only a hash of it names the pacer.
 */
export function pacerFor(
	baseUrl: string,
	apiKey: string,
	requestsPerMinute: number = DOCUMENTED_RATE_LIMIT.requests,
): RateLimitPacer {
	const id = createHash('sha256').update(`${baseUrl}\n${apiKey}\n${requestsPerMinute}`).digest('hex').slice(0, 32);
	let pacer = pacers.get(id);
	if (!pacer) {
		pacer = new RateLimitPacer(Date.now, requestsPerMinute);
		pacers.set(id, pacer);
	}
	return pacer;
}

import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { RETRY } from './limits';

/** Margin added to a wait for the window to reset, so the next request lands in the new window. */
const RESET_MARGIN_MS = 50;

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
	return reset > 1_000_000_000 ? Math.max(0, reset * 1000 - now) : reset * 1000;
}

/** How long a 429 asks us to wait, from `Retry-After` (seconds or HTTP date), else `RateLimit-Reset`. */
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

/**
 * Paces requests of one API key from the `RateLimit-*` headers of its responses: when the window has no requests
 * left, the next request waits for the reset instead of running into a 429.
 */
export class RateLimitPacer {
	private remaining: number | undefined;

	private resetAt: number | undefined;

	constructor(private readonly now: () => number = Date.now) {}

	/** Milliseconds to wait before sending the next request (0 when there is room in the window). */
	delayBeforeNextRequest(): number {
		if (this.remaining === undefined || this.resetAt === undefined) return 0;
		const now = this.now();
		if (now >= this.resetAt) {
			this.remaining = undefined;
			this.resetAt = undefined;
			return 0;
		}
		return this.remaining > 0 ? 0 : this.resetAt - now + RESET_MARGIN_MS;
	}

	/** Counts a request as sent, so concurrent requests do not all spend the last slot of a window. */
	onRequestSent(): void {
		if (this.remaining !== undefined) this.remaining -= 1;
	}

	/** Reads the window from a response's headers. */
	onResponse(headers: IDataObject | undefined): void {
		const remaining = toInt(header(headers, 'ratelimit-remaining'));
		const reset = toInt(header(headers, 'ratelimit-reset'));
		if (remaining === undefined || reset === undefined) return;
		const now = this.now();
		this.remaining = remaining;
		this.resetAt = now + resetToMs(reset, now);
	}

	/** After a 429 the window is spent until the wait it asked for is over. */
	onRateLimited(waitMs: number): void {
		this.remaining = 0;
		this.resetAt = this.now() + waitMs;
	}
}

const pacers = new Map<string, RateLimitPacer>();

/**
 * One pacer per base URL and API key, shared by all executions in this n8n process, since the limit is per key.
 * The key itself is not kept: only a hash of it names the pacer.
 */
export function pacerFor(baseUrl: string, apiKey: string): RateLimitPacer {
	const id = createHash('sha256').update(`${baseUrl}\n${apiKey}`).digest('hex').slice(0, 32);
	let pacer = pacers.get(id);
	if (!pacer) {
		pacer = new RateLimitPacer();
		pacers.set(id, pacer);
	}
	return pacer;
}

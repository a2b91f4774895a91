import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode, NodeApiError } from 'n8n-workflow';

import { adviceFor, apiErrorFromResponse, keepMessage, type RequestSummary } from './errors';
import { RETRY } from './limits';
import { headerValue } from './values';

/**
 * What the API's answers say about its rate limit (`Retry-After`, `RateLimit-*`), and the errors of a request that
 * cannot wait that long. The pacing itself is pacer.ts.
 */

/** Margin added to a wait for the window to reset, so the next request lands in the new window. */
export const RESET_MARGIN_MS = 50;

/** A wait, bounded: never negative, never more than `cap` (so never near a timer's 2^31 ms overflow). */
export function boundedWait(ms: number, cap: number = RETRY.maxWaitMs): number {
	if (!Number.isFinite(ms) || ms <= 0) return ms === Infinity ? cap : 0;
	return Math.min(Math.ceil(ms), cap);
}

function toInt(value: string | undefined): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const number = Number(value);
	return Number.isFinite(number) ? number : undefined;
}

/** `RateLimit-Reset` is seconds until the window resets; a value that looks like a Unix time is read as one. */
function resetToMs(reset: number, now: number): number {
	return reset > UNIX_TIME_FROM ? Math.max(0, reset * 1000 - now) : Math.max(0, reset * 1000);
}

/** A `RateLimit-Reset` above this is a Unix time (seconds), not seconds from now. */
const UNIX_TIME_FROM = 1_000_000_000;

/** How long a 429 asks to wait, and where that figure comes from. */
export interface RateLimitWait {
	ms: number;
	/**
	 * - `asked`: what the answer says (`Retry-After` seconds or date, `RateLimit-Reset`);
	 * - `default`: the answer gave nothing usable (no header, a date already past or more than RETRY.maxWaitMs ahead,
	 *   or a second "wait 0 s" in a row): RETRY.defaultRateLimitWaitMs, doubled with each 429 of the request.
	 */
	source: 'asked' | 'default';
	/** With `default`: what was wrong with the answer's own figure, for the error message. */
	unusable?: string;
}

/** The default wait after the `tries`-th 429 of a request (0 for the first): 5 s, 10 s, 20 s, …, at most RETRY.maxWaitMs. */
export function defaultRateLimitWait(tries: number): number {
	return Math.min(
		RETRY.maxWaitMs,
		RETRY.defaultRateLimitWaitMs * 2 ** Math.min(Math.max(0, tries), 20),
	);
}

/**
 * The wait until an absolute time the answer names (a `Retry-After` date, a Unix-time `RateLimit-Reset`), in ms, or why
 * it cannot be used. Counted from the answer's own `Date` header when it has one, so the CRM's clock and n8n's need not
 * agree; else from n8n's clock. A time past, or more than RETRY.maxWaitMs ahead (a clock is off: the CRM's, n8n's, or a
 * proxy's that stamped the Date), is not used.
 */
function untilTime(at: number, headers: IDataObject | undefined, now: number): number | string {
	const dated = Date.parse(headerValue(headers, 'date') ?? '');
	const ms = at - (Number.isNaN(dated) ? now : dated);
	if (ms <= 0)
		return `a time already past${Number.isNaN(dated) ? " by n8n's clock" : " by the answer's own Date"}`;
	if (ms > RETRY.maxWaitMs) {
		const of = Number.isNaN(dated)
			? "n8n's clock, with no Date header to count from"
			: "the answer's own Date";
		return `a time more than ${RETRY.maxWaitMs / 1000} s ahead of ${of}`;
	}
	return ms;
}

/**
 * How long a 429 asks us to wait: `Retry-After` in seconds; a `Retry-After` date, counted from the answer's `Date`;
 * else `RateLimit-Reset` (seconds, or a Unix time counted like a date). When none gives a usable wait (see
 * RateLimitWait), the default for the `tries`-th 429 of the request. Not bounded: the caller compares it with
 * RETRY.maxWaitMs and fails at once when the API asks for more.
 */
export function rateLimitWait(
	headers: IDataObject | undefined,
	now = Date.now(),
	tries = 0,
): RateLimitWait {
	let unusable: string | undefined;
	const retryAfter = headerValue(headers, 'retry-after');
	if (retryAfter !== undefined) {
		const seconds = toInt(retryAfter);
		// "0 s" once is a retry now; again after that retry, the CRM is not telling a wait: the default instead.
		if (seconds !== undefined && seconds > 0) return { ms: seconds * 1000, source: 'asked' };
		if (seconds === 0 && tries === 0) return { ms: 0, source: 'asked' };
		if (seconds === 0) unusable = 'Retry-After asked for no wait again';
		const date = seconds === undefined ? Date.parse(retryAfter) : NaN;
		if (!Number.isNaN(date)) {
			const wait = untilTime(date, headers, now);
			if (typeof wait === 'number') return { ms: wait, source: 'asked' };
			unusable = `Retry-After named ${wait}`;
		}
	}
	const reset = toInt(headerValue(headers, 'ratelimit-reset'));
	if (reset !== undefined && reset >= 0 && !(reset === 0 && tries > 0)) {
		if (reset <= UNIX_TIME_FROM) return { ms: reset * 1000 + RESET_MARGIN_MS, source: 'asked' };
		const wait = untilTime(reset * 1000, headers, now);
		if (typeof wait === 'number') return { ms: wait + RESET_MARGIN_MS, source: 'asked' };
		unusable ??= `RateLimit-Reset named ${wait}`;
	}
	return { ms: defaultRateLimitWait(tries), source: 'default', unusable };
}

/** rateLimitWait's figure alone, for the first 429 of a request. */
export function rateLimitWaitMs(
	headers: IDataObject | undefined,
	now = Date.now(),
	tries = 0,
): number {
	return rateLimitWait(headers, now, tries).ms;
}

/** The window an answer announces (`RateLimit-Remaining` and `RateLimit-Reset`, `RateLimit-Limit` when given), if any. */
export function announcedWindow(
	headers: IDataObject | undefined,
	now: number,
): { remaining: number; resetMs: number; limit?: number } | undefined {
	const remaining = toInt(headerValue(headers, 'ratelimit-remaining'));
	const reset = toInt(headerValue(headers, 'ratelimit-reset'));
	if (remaining === undefined || reset === undefined || remaining < 0) return undefined;
	return {
		remaining,
		resetMs: resetToMs(reset, now),
		limit: toInt(headerValue(headers, 'ratelimit-limit')),
	};
}

/** A duration for people: `45 s`, `3 min`, `1 h`, `1 h 30 min`. */
export function describeWait(ms: number): string {
	const seconds = Math.round(ms / 1000);
	if (seconds < 120) return `${seconds} s`;
	const minutes = Math.round(seconds / 60);
	if (minutes < 60) return `${minutes} min`;
	const hours = Math.floor(minutes / 60);
	const rest = minutes % 60;
	return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** A 429 that asks for a longer wait than the node allows: fails at once and says how long the API asked for. */
export function rateLimitTooLongError(
	node: INode,
	body: unknown,
	request: RequestSummary,
	wait: RateLimitWait,
	alreadyWaitedMs: number,
): NodeApiError {
	const error = apiErrorFromResponse(node, 429, body, request);
	const askedMs = wait.ms;
	/** The single wait was acceptable, but it would have taken the request past its total. */
	const overTotal = askedMs <= RETRY.maxWaitMs;
	const asked =
		wait.source === 'default'
			? `gave no usable wait${wait.unusable ? ` (${wait.unusable})` : ''}, so the node would wait ${describeWait(askedMs)}`
			: `asked to wait ${describeWait(askedMs)}`;
	const message = overTotal
		? `The CRM API answered 429 (rate limit) again and ${asked}; the node had already waited ${describeWait(alreadyWaitedMs)} for this request and waits at most ${describeWait(RETRY.maxTotalRateLimitWaitMs)} in total`
		: `The CRM API answered 429 (rate limit) and asked to wait ${describeWait(askedMs)} before the next request; the node waits at most ${describeWait(RETRY.maxWaitMs)}, so it did not wait`;
	error.description = overTotal
		? adviceFor(429, request)
		: `The API key's limit is spent for longer than a node may hold an execution. Run the workflow again after that time. The node did not remember this wait: other executions with this key are not held back, and each finds out for itself whether the limit has reset.`;
	return keepMessage(error, message);
}

/** A request that cannot get a turn within the wait it may accept: refused before it is sent. */
export class PacingWaitTooLongError extends Error {
	constructor(
		/** When the request's turn would come, in ms from now (an estimate from the known rate and the queue). */
		readonly waitMs: number,
		/** The longest wait the request accepted, in ms. */
		readonly capMs: number,
		/** Requests of this key waiting for their turn, in this process. */
		readonly queued: number,
	) {
		super(
			`No turn within ${Math.ceil(capMs / 1000)} s: the next turn is in about ${Math.ceil(waitMs / 1000)} s`,
		);
		this.name = 'PacingWaitTooLongError';
	}
}

/**
 * The error of a request that got no turn in time: what happened, and what to do (fewer executions at once, a
 * higher "Requests per Minute" only if the plan allows). Nothing was sent.
 */
export function pacingWaitError(
	node: INode,
	request: { method: string; path: string; itemIndex?: number },
	error: PacingWaitTooLongError,
	timeLimitMs: number | undefined,
): NodeOperationError {
	const seconds = (ms: number): number => Math.ceil(ms / 1000);
	if (timeLimitMs !== undefined && error.capMs < RETRY.maxPacingWaitMs) {
		return new NodeOperationError(
			node,
			`${request.method} ${request.path} was not sent: the rate limit asks to wait ${seconds(error.waitMs)} s, longer than its time limit of ${seconds(timeLimitMs)} s`,
			{
				itemIndex: request.itemIndex,
				description:
					"The CRM's rate limit is used up for now; the request can be made again later.",
			},
		);
	}
	return new NodeOperationError(
		node,
		`${request.method} ${request.path} was not sent: its turn under the API key's rate limit would come in about ${seconds(error.waitMs)} s, and a request waits at most ${seconds(error.capMs)} s`,
		{
			itemIndex: request.itemIndex,
			description: `${error.queued} requests with this API key are waiting for their turn in this n8n process, more than the key's rate limit lets through in that time. The node did not send this one over the limit. Run fewer executions with this key at once (n8n's concurrency limit, or smaller batches), or, only if the CRM plan allows more, raise "Requests per Minute" in the credential.`,
		},
	);
}

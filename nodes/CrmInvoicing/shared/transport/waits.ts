import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode, NodeApiError } from 'n8n-workflow';

import { headerValue } from '../values';
import {
	adviceFor,
	apiErrorFromResponse,
	describeWait,
	type RequestSummary,
	RETRY,
} from './errors';

/**
 * Waiting for the rate limit: what the API's answers say (`Retry-After`, `RateLimit-*`), read for the key's limiter
 * (rateLimit.ts) and for a request's wait after a 429 (request.ts); the send log of the documented rate; and the
 * errors of a request that cannot wait that long.
 */

/** Margin added to a wait for the window to reset, so the next request lands in the new window. */
export const RESET_MARGIN_MS = 50;
/** A request counts for the server a little after it was sent: the documented rate's window is this much longer. */
export const DOCUMENTED_MARGIN_MS = 250;
/** A `RateLimit-Reset` above this is a Unix time (seconds), not seconds from now. */
const UNIX_TIME_FROM = 1_000_000_000;
/** Slices of the window a SendLog counts in (a slice's requests count as sent at its end: slow by one slice at most). */
const LOG_SLICES = 240;

/** A wait, bounded: never negative, never more than `cap` (so never near a timer's 2^31 ms overflow). */
export function boundedWait(ms: number, cap: number = RETRY.maxWaitMs): number {
	if (!Number.isFinite(ms) || ms <= 0) return ms === Infinity ? cap : 0;
	return Math.min(Math.ceil(ms), cap);
}

/** How many requests went out in the last `windowMs`, in LOG_SLICES counters whatever the rate. */
export class SendLog {
	private readonly slices: number[] = [];

	private readonly counts: number[] = [];

	total = 0;

	private readonly sliceMs: number;

	constructor(private readonly windowMs: number) {
		this.sliceMs = windowMs / LOG_SLICES;
	}

	get entries(): number {
		return this.slices.length;
	}

	expire(now: number): void {
		while (this.slices.length > 0 && this.freesAt(now) <= now) {
			this.total -= this.counts.shift() as number;
			this.slices.shift();
		}
	}

	add(now: number): void {
		const slice = Math.floor(now / this.sliceMs);
		if (this.slices[this.slices.length - 1] === slice) this.counts[this.counts.length - 1]++;
		else {
			this.slices.push(slice);
			this.counts.push(1);
		}
		this.total++;
	}

	/** When the oldest entry stops counting (`now` when the log is empty). */
	freesAt(now: number): number {
		if (this.slices.length === 0) return now;
		return (this.slices[0] + 1) * this.sliceMs + this.windowMs + DOCUMENTED_MARGIN_MS;
	}
}

function toNumber(value: string | undefined): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const number = Number(value);
	return Number.isFinite(number) ? number : undefined;
}

/** The default wait after the `tries`-th 429 of a request (0 for the first): 5 s, 10 s, …, at most RETRY.maxWaitMs. */
export function defaultRateLimitWait(tries: number): number {
	const doubled = RETRY.defaultRateLimitWaitMs * 2 ** Math.min(Math.max(0, tries), 20);
	return Math.min(RETRY.maxWaitMs, doubled);
}

/**
 * The wait until a time the answer names (a `Retry-After` date, a Unix-time `RateLimit-Reset`), counted from the
 * answer's own `Date` when it has one (so the CRM's clock and n8n's need not agree); or why it cannot be used: a
 * time past, or more than RETRY.maxWaitMs ahead (a clock is off).
 */
function untilTime(at: number, headers: IDataObject | undefined, now: number): number | string {
	const dated = Date.parse(headerValue(headers, 'date') ?? '');
	const ms = at - (Number.isNaN(dated) ? now : dated);
	const from = Number.isNaN(dated) ? "n8n's clock" : "the answer's own Date";
	if (ms <= 0)
		return `a time already past${Number.isNaN(dated) ? " by n8n's clock" : ` by ${from}`}`;
	if (ms > RETRY.maxWaitMs) {
		const of = Number.isNaN(dated) ? `${from}, with no Date header to count from` : from;
		return `a time more than ${RETRY.maxWaitMs / 1000} s ahead of ${of}`;
	}
	return ms;
}

/**
 * How long a 429 asks to wait: `Retry-After` seconds or date, else `RateLimit-Reset` (seconds, or a Unix time). When
 * none is usable (or a second "wait 0 s" in a row), the default for the `tries`-th 429. Not bounded: the caller
 * compares it with RETRY.maxWaitMs.
 */
export function rateLimitWait(
	headers: IDataObject | undefined,
	now = Date.now(),
	tries = 0,
): RateLimitWait {
	let unusable: string | undefined;
	const retryAfter = headerValue(headers, 'retry-after');
	if (retryAfter !== undefined) {
		const seconds = toNumber(retryAfter);
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
	const reset = toNumber(headerValue(headers, 'ratelimit-reset'));
	if (reset !== undefined && reset >= 0 && !(reset === 0 && tries > 0)) {
		if (reset <= UNIX_TIME_FROM) return { ms: reset * 1000 + RESET_MARGIN_MS, source: 'asked' };
		const wait = untilTime(reset * 1000, headers, now);
		if (typeof wait === 'number') return { ms: wait + RESET_MARGIN_MS, source: 'asked' };
		unusable ??= `RateLimit-Reset named ${wait}`;
	}
	return { ms: defaultRateLimitWait(tries), source: 'default', unusable };
}

/** The window an answer announces (`RateLimit-Remaining` and `RateLimit-Reset`, `RateLimit-Limit` when given), if any. */
export function announcedWindow(
	headers: IDataObject | undefined,
	now: number,
): { remaining: number; resetMs: number; limit?: number } | undefined {
	const remaining = toNumber(headerValue(headers, 'ratelimit-remaining'));
	const reset = toNumber(headerValue(headers, 'ratelimit-reset'));
	if (remaining === undefined || reset === undefined || remaining < 0) return undefined;
	const resetMs = Math.max(0, reset > UNIX_TIME_FROM ? reset * 1000 - now : reset * 1000);
	return { remaining, resetMs, limit: toNumber(headerValue(headers, 'ratelimit-limit')) };
}

/** How long a 429 asks to wait; `default`: nothing usable was said (`unusable`: why), so the node's default. */
export interface RateLimitWait {
	ms: number;
	source: 'asked' | 'default';
	unusable?: string;
}

/** A 429 that asks for a longer wait than the node allows (alone, or with what it already waited). */
export function rateLimitTooLongError(
	node: INode,
	body: unknown,
	request: RequestSummary,
	wait: RateLimitWait,
	waitedMs: number,
): NodeApiError {
	const error = apiErrorFromResponse(node, 429, body, request);
	const overTotal = wait.ms <= RETRY.maxWaitMs;
	const asked =
		wait.source === 'default'
			? `gave no usable wait${wait.unusable ? ` (${wait.unusable})` : ''}, so the node would wait ${describeWait(wait.ms)}`
			: `asked to wait ${describeWait(wait.ms)}`;
	error.message = overTotal
		? `The CRM API answered 429 (rate limit) again and ${asked}; the node had already waited ${describeWait(waitedMs)} for this request and waits at most ${describeWait(RETRY.maxTotalRateLimitWaitMs)} in total`
		: `The CRM API answered 429 (rate limit) and asked to wait ${describeWait(wait.ms)} before the next request; the node waits at most ${describeWait(RETRY.maxWaitMs)}, so it did not wait`;
	error.description = overTotal
		? adviceFor(429, request)
		: `The API key's limit is spent for longer than a node may hold an execution. Run the workflow again after that time. The node did not remember this wait: other executions with this key are not held back, and each finds out for itself whether the limit has reset.`;
	return error;
}

/** A request that cannot get a turn within the wait it accepts (rateLimit.ts): refused before it is sent. */
export class PacingWaitTooLongError extends Error {
	constructor(
		readonly waitMs: number,
		readonly capMs: number,
		/** Requests of this key waiting for their turn in this process. */
		readonly queued: number,
	) {
		super(
			`No turn within ${Math.ceil(capMs / 1000)} s: the next turn is in about ${Math.ceil(waitMs / 1000)} s`,
		);
		this.name = 'PacingWaitTooLongError';
	}
}

/** The error of a request that got no turn in time: what happened, and what to do. Nothing was sent. */
export function pacingWaitError(
	node: INode,
	request: RequestSummary,
	error: PacingWaitTooLongError,
	ownDeadline: boolean,
): NodeOperationError {
	const { method, path, itemIndex } = request;
	const seconds = (ms: number) => Math.ceil(ms / 1000);
	if (ownDeadline && error.capMs < RETRY.maxPacingWaitMs)
		return new NodeOperationError(
			node,
			`${method} ${path} was not sent: the rate limit asks to wait ${seconds(error.waitMs)} s, longer than its time limit of ${seconds(error.capMs)} s`,
			{
				itemIndex,
				description:
					"The CRM's rate limit is used up for now; the request can be made again later.",
			},
		);
	return new NodeOperationError(
		node,
		`${method} ${path} was not sent: its turn under the API key's rate limit would come in about ${seconds(error.waitMs)} s, and a request waits at most ${seconds(error.capMs)} s`,
		{
			itemIndex,
			description: `${error.queued} requests with this API key are waiting for their turn in this n8n process, more than the key's rate limit lets through in that time. The node did not send this one over the limit. Run fewer executions with this key at once (n8n's concurrency limit, or smaller batches), or, only if the CRM plan allows more, raise "Requests per Minute" in the credential.`,
		},
	);
}

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
 * (rateLimit.ts) and for a request's wait after a 429 (request.ts); and the errors of a wait too long.
 */

/** Margin added to a wait for the window to reset, so the next request lands in the new window. */
export const RESET_MARGIN_MS = 50;
/** A `RateLimit-Reset` above this is a Unix time (seconds), not seconds from now. */
const UNIX_TIME_FROM = 1_000_000_000;

/** A wait, bounded: never negative, never more than `cap` (so never near a timer's 2^31 ms overflow). */
export function boundedWait(ms: number, cap: number = RETRY.maxWaitMs): number {
	if (!Number.isFinite(ms) || ms <= 0) return ms === Infinity ? cap : 0;
	return Math.min(Math.ceil(ms), cap);
}

function toNumber(value: string | undefined): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const number = Number(value);
	return Number.isFinite(number) ? number : undefined;
}

/**
 * The wait until a time the answer names (a `Retry-After` date, a Unix-time `RateLimit-Reset`), counted from the
 * answer's own `Date` when it has one (so the CRM's clock and n8n's need not agree); or why it cannot be used: a
 * time past, or more than RETRY.maxWaitMs ahead (a clock is off).
 */
function untilTime(at: number, headers: IDataObject | undefined, now: number): number | string {
	const dated = Date.parse(headerValue(headers, 'date') ?? '');
	const from = Number.isNaN(dated) ? "n8n's clock" : "the answer's own Date";
	const ms = at - (Number.isNaN(dated) ? now : dated);
	if (ms <= 0) return `a time already past by ${from}`;
	if (ms <= RETRY.maxWaitMs) return ms;
	const noDate = Number.isNaN(dated) ? ', with no Date header to count from' : '';
	return `a time more than ${RETRY.maxWaitMs / 1000} s ahead of ${from}${noDate}`;
}

/**
 * How long a 429 asks to wait: `Retry-After` seconds or date, else `RateLimit-Reset` (seconds, or a Unix time). When
 * none is usable (or a second "wait 0 s" in a row), the default for the `tries`-th 429. Not bounded: the caller
 * compares it with RETRY.maxWaitMs.
 */
export function rateLimitWait(headers?: IDataObject, now = Date.now(), tries = 0): RateLimitWait {
	let unusable: string | undefined;
	const retryAfter = headerValue(headers, 'retry-after');
	const seconds = toNumber(retryAfter) ?? NaN;
	if (seconds > 0 || (seconds === 0 && tries === 0)) return { ms: seconds * 1000, source: 'asked' };
	if (seconds === 0) unusable = 'Retry-After asked for no wait again';
	const date = Number.isNaN(seconds) ? Date.parse(retryAfter ?? '') : NaN;
	if (!Number.isNaN(date)) {
		const wait = untilTime(date, headers, now);
		if (typeof wait === 'number') return { ms: wait, source: 'asked' };
		unusable = `Retry-After named ${wait}`;
	}
	const reset = toNumber(headerValue(headers, 'ratelimit-reset'));
	if (reset !== undefined && reset >= 0 && !(reset === 0 && tries > 0)) {
		if (reset <= UNIX_TIME_FROM) return { ms: reset * 1000 + RESET_MARGIN_MS, source: 'asked' };
		const wait = untilTime(reset * 1000, headers, now);
		if (typeof wait === 'number') return { ms: wait + RESET_MARGIN_MS, source: 'asked' };
		unusable ??= `RateLimit-Reset named ${wait}`;
	}
	// The default for the `tries`-th 429 of a request (0 for the first): 5 s, 10 s, …, at most RETRY.maxWaitMs.
	const doubled = RETRY.defaultRateLimitWaitMs * 2 ** Math.min(Math.max(0, tries), 20);
	return { ms: Math.min(RETRY.maxWaitMs, doubled), source: 'default', unusable };
}

/** The window an answer announces (`RateLimit-Remaining` and `RateLimit-Reset`, `RateLimit-Limit` or 0), if any. */
export function announcedWindow(headers: IDataObject | undefined, now: number) {
	const remaining = toNumber(headerValue(headers, 'ratelimit-remaining'));
	const reset = toNumber(headerValue(headers, 'ratelimit-reset'));
	if (remaining === undefined || reset === undefined || remaining < 0) return undefined;
	const resetMs = Math.max(0, reset > UNIX_TIME_FROM ? reset * 1000 - now : reset * 1000);
	return { remaining, resetMs, limit: toNumber(headerValue(headers, 'ratelimit-limit')) ?? 0 };
}

/** How long a 429 asks to wait; `default`: nothing usable was said (`unusable`: why), so the node's default. */
export type RateLimitWait = { ms: number; source: 'asked' | 'default'; unusable?: string };

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
	/** `queued`: requests of this key waiting for their turn in this process. */
	constructor(
		readonly waitMs: number,
		readonly capMs: number,
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
	{ method, path, itemIndex }: RequestSummary,
	error: PacingWaitTooLongError,
	ownDeadline: boolean,
): NodeOperationError {
	const [wait, cap] = [error.waitMs, error.capMs].map((ms) => Math.ceil(ms / 1000));
	const own = ownDeadline && error.capMs < RETRY.maxPacingWaitMs;
	const why = own
		? `the rate limit asks to wait ${wait} s, longer than its time limit of ${cap} s`
		: `its turn under the API key's rate limit would come in about ${wait} s, and a request waits at most ${cap} s`;
	const description = own
		? "The CRM's rate limit is used up for now; the request can be made again later."
		: `${error.queued} requests with this API key are waiting for their turn in this n8n process, more than the key's rate limit lets through in that time. The node did not send this one over the limit. Run fewer executions with this key at once (n8n's concurrency limit, or smaller batches), or, only if the CRM plan allows more, raise "Requests per Minute" in the credential.`;
	const message = `${method} ${path} was not sent: ${why}`;
	return new NodeOperationError(node, message, { itemIndex, description });
}

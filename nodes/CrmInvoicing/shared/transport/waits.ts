import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode, NodeApiError } from 'n8n-workflow';

import { headerValue } from '../values';
import type { RequestSummary } from './errors';
import { adviceFor, apiErrorFromResponse, describeWait, RETRY } from './errors';

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

/** A header's number; undefined when it is missing, empty or not a finite number. */
function numberOf(headers: IDataObject | undefined, name: string): number | undefined {
	const value = headerValue(headers, name)?.trim();
	const number = value ? Number(value) : NaN;
	return Number.isFinite(number) ? number : undefined;
}

/**
 * How long a 429 asks to wait: `Retry-After` seconds or date, else `RateLimit-Reset` (seconds, or a Unix time). A time
 * is counted from the answer's own `Date` when it has one (so the CRM's clock and n8n's need not agree), and is not
 * used when past or more than RETRY.maxWaitMs ahead (a clock is off). When none is usable (or a second "wait 0 s" in a
 * row), the default for the `tries`-th 429. Not bounded: the caller compares it with RETRY.maxWaitMs.
 */
export function rateLimitWait(headers?: IDataObject, now = Date.now(), tries = 0): RateLimitWait {
	const dated = Date.parse(headerValue(headers, 'date') ?? '');
	const from = Number.isNaN(dated) ? "n8n's clock" : "the answer's own Date";
	let unusable: string | undefined;
	/** The wait until `at` (plus `margin`) when it can be used; else why not, if no reason came before. */
	const until = (at: number, header: string, margin = 0): RateLimitWait | undefined => {
		const ms = at - (Number.isNaN(dated) ? now : dated);
		if (ms > 0 && ms <= RETRY.maxWaitMs) return { ms: ms + margin, source: 'asked' };
		const when = ms > 0 ? `more than ${RETRY.maxWaitMs / 1000} s ahead of` : 'already past by';
		unusable ??= `${header} named a time ${when} ${from}`;
		return undefined;
	};
	const seconds = numberOf(headers, 'retry-after') ?? NaN;
	if (seconds > 0 || (seconds === 0 && tries === 0)) return { ms: seconds * 1000, source: 'asked' };
	if (seconds === 0) unusable = 'Retry-After asked for no wait again';
	const date = Number.isNaN(seconds) ? Date.parse(headerValue(headers, 'retry-after') ?? '') : NaN;
	const asked = Number.isNaN(date) ? undefined : until(date, 'Retry-After');
	if (asked) return asked;
	const reset = numberOf(headers, 'ratelimit-reset') ?? -1;
	if (reset >= 0 && !(reset === 0 && tries > 0)) {
		if (reset <= UNIX_TIME_FROM) return { ms: reset * 1000 + RESET_MARGIN_MS, source: 'asked' };
		const wait = until(reset * 1000, 'RateLimit-Reset', RESET_MARGIN_MS);
		if (wait) return wait;
	}
	// The default for the `tries`-th 429 of a request (0 for the first): 5 s, 10 s, …, at most RETRY.maxWaitMs.
	const doubled = RETRY.defaultRateLimitWaitMs * 2 ** Math.min(Math.max(0, tries), 20);
	return { ms: Math.min(RETRY.maxWaitMs, doubled), source: 'default', unusable };
}

/** The window an answer announces, if any: `RateLimit-Remaining`, `RateLimit-Reset` (bounded), `-Limit` or 0. */
export function announcedWindow(headers: IDataObject | undefined, now: number) {
	const remaining = numberOf(headers, 'ratelimit-remaining');
	const reset = numberOf(headers, 'ratelimit-reset');
	if (remaining === undefined || reset === undefined || remaining < 0) return undefined;
	const resetMs = boundedWait(reset > UNIX_TIME_FROM ? reset * 1000 - now : reset * 1000);
	return { remaining, resetMs, limit: numberOf(headers, 'ratelimit-limit') ?? 0 };
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

/** No turn within the wait a request accepts (rateLimit.ts): not sent. `queued`: others waiting in this process. */
export class PacingWaitTooLongError extends Error {
	constructor(
		readonly waitMs: number,
		readonly capMs: number,
		readonly queued: number,
	) {
		super('No turn within the wait the request accepts');
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

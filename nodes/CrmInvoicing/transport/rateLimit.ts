import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode, NodeApiError } from 'n8n-workflow';

import { adviceFor, apiErrorFromResponse, keepMessage, type RequestSummary } from './errors';
import { RETRY } from './limits';
import type { PacingWaitTooLongError } from './pacer';
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
	return reset > 1_000_000_000 ? Math.max(0, reset * 1000 - now) : Math.max(0, reset * 1000);
}

/**
 * How long a 429 asks us to wait, from `Retry-After` (seconds or HTTP date), else `RateLimit-Reset`. Not bounded:
 * the caller compares it with RETRY.maxWaitMs and fails at once when the API asks for more.
 */
export function rateLimitWaitMs(headers: IDataObject | undefined, now = Date.now()): number {
	const retryAfter = headerValue(headers, 'retry-after');
	if (retryAfter !== undefined) {
		const seconds = toInt(retryAfter);
		if (seconds !== undefined) return Math.max(0, seconds * 1000);
		const date = Date.parse(retryAfter);
		if (!Number.isNaN(date)) return Math.max(0, date - now);
	}
	const reset = toInt(headerValue(headers, 'ratelimit-reset'));
	if (reset !== undefined) return resetToMs(reset, now) + RESET_MARGIN_MS;
	return RETRY.defaultRateLimitWaitMs;
}

/** The window an answer announces (`RateLimit-Remaining` and `RateLimit-Reset`, `RateLimit-Limit` when given), if any. */
export function announcedWindow(
	headers: IDataObject | undefined,
	now: number,
): { remaining: number; resetMs: number; limit?: number } | undefined {
	const remaining = toInt(headerValue(headers, 'ratelimit-remaining'));
	const reset = toInt(headerValue(headers, 'ratelimit-reset'));
	if (remaining === undefined || reset === undefined || remaining < 0) return undefined;
	return { remaining, resetMs: resetToMs(reset, now), limit: toInt(headerValue(headers, 'ratelimit-limit')) };
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
	askedMs: number,
	alreadyWaitedMs: number,
): NodeApiError {
	const error = apiErrorFromResponse(node, 429, body, request);
	/** The single wait was acceptable, but it would have taken the request past its total. */
	const overTotal = askedMs <= RETRY.maxWaitMs;
	const message = overTotal
		? `The CRM API answered 429 (rate limit) again and asked to wait ${describeWait(askedMs)}; the node had already waited ${describeWait(alreadyWaitedMs)} for this request and waits at most ${describeWait(RETRY.maxTotalRateLimitWaitMs)} in total`
		: `The CRM API answered 429 (rate limit) and asked to wait ${describeWait(askedMs)} before the next request; the node waits at most ${describeWait(RETRY.maxWaitMs)}, so it did not wait`;
	error.description = overTotal
		? adviceFor(429, request)
		: `The API key's limit is spent for longer than a node may hold an execution. Run the workflow again after that time. The node did not remember this wait: other executions with this key are not held back, and each finds out for itself whether the limit has reset.`;
	return keepMessage(error, message);
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
			{ itemIndex: request.itemIndex, description: "The CRM's rate limit is used up for now; the request can be made again later." },
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
import { NodeOperationError, sleep } from 'n8n-workflow';
import type { IDataObject, IN8nHttpFullResponse } from 'n8n-workflow';

import { contentTypeOf, headerValue } from '../values';
import { type Attempt, backOff, redirectTarget, startAttempt, waitsOut } from './attempt';
import type { ApiContext, ApiRequest } from './connection';
import {
	answerTooLargeError,
	apiErrorFromResponse,
	deadlineError,
	unexpectedAnswerError,
} from './errors';
import { READ, RETRY } from './limits';
import type { PacerTurn } from './rateLimit';
import { mayHoldSecret, redactValue } from './redact';
import { connectionError, dropped, readBody, type BodyStream } from './network';
import { runStatsOf } from './runStats';
import { boundedWait, pacingWaitError, rateLimitWait, type RateLimitWait } from './rateLimitWaits';

export type ApiResponse = IN8nHttpFullResponse & { bodyBytes: number };

type Timing = { ms: number; signal: AbortSignal; stop: AbortSignal };

type Next =
	| { then: 'done'; answer: ApiResponse }
	| { then: 'retry'; waitMs: number }
	| { then: 'follow'; url: string };

/** The one place that does HTTP. A path that could leave the API is refused before anything is sent. */
export async function apiRequestFull(this: ApiContext, request: ApiRequest): Promise<ApiResponse> {
	const attempt = await startAttempt(this, request);
	for (;;) {
		const next = await tryOnce(attempt);
		if (next.then === 'done') return next.answer;
		if (next.then === 'follow') {
			attempt.options.url = next.url;
			delete attempt.options.qs; // the Location holds the target's query
		} else if (next.waitMs > 0) await sleep(boundedWait(next.waitMs));
	}
}

/** An empty body (a 204) is an empty object; a text `{ body }`. */
export async function apiRequest(this: ApiContext, request: ApiRequest): Promise<IDataObject> {
	const { body } = await apiRequestFull.call(this, request);
	if (typeof body !== 'string') return (body ?? {}) as IDataObject;
	return body ? { body } : {};
}

async function tryOnce(attempt: Attempt): Promise<Next> {
	const turn = await pace(attempt);
	const ms = Math.max(1, Math.min(RETRY.requestTimeoutMs, attempt.deadline - Date.now()));
	const signal = AbortSignal.timeout(ms);
	const { cancel } = attempt;
	const stop = cancel ? AbortSignal.any([cancel, signal]) : signal;
	const timing = { ms, signal, stop };
	let response: IN8nHttpFullResponse;
	try {
		response = await send(attempt, stop);
	} catch (error) {
		attempt.pacer.settle(turn);
		const waitMs = stop.aborted || !dropped(error) ? undefined : backOff(attempt);
		if (waitMs === undefined) throw failure(attempt, error, timing);
		return { then: 'retry', waitMs };
	}
	const { answer, wait } = await read(attempt, response, timing);
	return classify(attempt, answer, wait);
}

/** A retry keeps its place. */
async function pace(attempt: Attempt): Promise<PacerTurn> {
	const { deadline } = attempt;
	const maxWaitMs = deadline === Infinity ? undefined : deadline - Date.now();
	let turn: PacerTurn;
	try {
		turn = await attempt.pacer.take({ maxWaitMs, ticket: attempt.turn?.ticket });
	} catch (error) {
		throw pacingWaitError(attempt.context.getNode(), attempt.summary, error as Error);
	}
	attempt.turn = turn;
	const stats = runStatsOf(attempt.context);
	stats.waitedMs += turn.waitedMs;
	stats.requests++;
	return turn;
}

/** n8n's client sends with the context's cancel signal; this hands out the attempt's `stop`. */
async function send(attempt: Attempt, stop: AbortSignal): Promise<IN8nHttpFullResponse> {
	const { context, options } = attempt;
	const { auth } = attempt.connection;
	const caller = Object.assign(Object.create(context), { getExecutionCancelSignal: () => stop });
	const type = auth.credentialsDecrypted.type;
	return await context.helpers.httpRequestWithAuthentication.call(caller, type, options, auth);
}

/** Redacted before anything reads it. The pacer gets the answer first: after a 429 the whole key waits. */
async function read(attempt: Attempt, response: IN8nHttpFullResponse, timing: Timing) {
	const { secrets } = attempt.connection;
	const headers = redactValue(response.headers, secrets);
	const status = response.statusCode;
	const tries = attempt.rateLimitRetries;
	const wait = status === 429 ? rateLimitWait(headers, Date.now(), tries) : undefined;
	attempt.pacer.settle(attempt.turn as PacerTurn, status, headers, wait?.ms);
	const success = status >= 200 && status < 300;
	const max = success ? READ.maxAnswerBytes : READ.maxErrorBodyBytes;
	let content: Awaited<ReturnType<typeof readBody>>;
	try {
		content = await readBody(response.body as BodyStream, max, timing.stop);
	} catch (error) {
		throw failure(attempt, error, timing, status);
	}
	if (success && content.more) {
		const type = contentTypeOf(headers);
		throw answerTooLargeError(attempt.context.getNode(), attempt.summary, status, type);
	}
	// The key in any spelling, in the parsed body; a first look at the raw text spares most pages the walk.
	const { text, bytes } = content;
	const body = mayHoldSecret(text, secrets) ? redactValue(content.body, secrets) : content.body;
	const answer = { ...response, headers, body, bodyBytes: bytes } as ApiResponse;
	return { answer, wait };
}

function classify(attempt: Attempt, answer: ApiResponse, wait?: RateLimitWait): Next {
	const { context, summary, request } = attempt;
	const { statusCode: status, headers, body } = answer;
	// n8n's getNode() deep-copies the node: read only when an error needs it, not once per request.
	const node = () => context.getNode();
	if (status >= 200 && status < 300) {
		const contentType = contentTypeOf(headers);
		const success = { request: summary, status, contentType, body, expected: request.expect };
		const wrong = unexpectedAnswerError(node, success);
		if (wrong) throw wrong;
		return { then: 'done', answer };
	}
	const url = redirectTarget(attempt, status, headerValue(headers, 'location'));
	if (url !== undefined) return { then: 'follow', url };
	if (wait && waitsOut(attempt, wait, body)) return { then: 'retry', waitMs: 0 };
	// DELETE is idempotent: a 404 on a retry means the attempt whose answer was lost deleted it.
	if (status === 404 && attempt.transientRetries > 0 && request.method === 'DELETE')
		return { then: 'done', answer };
	const waitMs = [502, 503, 504].includes(status) ? backOff(attempt) : undefined;
	if (waitMs !== undefined) return { then: 'retry', waitMs };
	throw apiErrorFromResponse(node(), status, body, summary);
}

function failure(attempt: Attempt, error: unknown, timing: Timing, status?: number): Error {
	const node = attempt.context.getNode();
	const { summary } = attempt;
	if (attempt.cancel?.aborted) {
		const message = `The execution was stopped while ${summary.method} ${summary.path} was under way`;
		const description =
			'The request was abandoned. For a request that changes data, check in the CRM whether it took effect.';
		return new NodeOperationError(node, message, { itemIndex: summary.itemIndex, description });
	}
	// Reaching the deadline is not retried: a server that slow would only hold the execution longer.
	if (timing.signal.aborted) return deadlineError(node, summary, timing.ms, status);
	const retried = attempt.transientRetries > 0;
	return connectionError(node, { error, request: summary, retried, status });
}

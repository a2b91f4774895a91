import {
	NodeOperationError,
	sleep,
	type IDataObject,
	type IN8nHttpFullResponse,
} from 'n8n-workflow';

import { contentTypeOf, headerValue } from '../values';
import { type Attempt, backOff, followsRedirect, startAttempt, waitsOut } from './attempt';
import { CREDENTIAL_TYPE, runStatsOf, type ApiContext, type ApiRequest } from './connection';
import {
	apiError,
	apiErrorFromResponse,
	CHECK_BASE_URL,
	checkFirst,
	unexpectedAnswerError,
} from './errors';
import { READ, RETRY } from './limits';
import { mayHoldSecret, redactValue } from './redact';
import { dropped, failure, readBody, type BodyStream, type Timing } from './network';
import { type PacerTurn, RATE_ADVICE, rateLimitWait, type RateLimitWait } from './rateLimit';

type ApiResponse = IN8nHttpFullResponse & { bodyBytes: number };

/** The one place that does HTTP. A path that could leave the API is refused before anything is sent. */
export async function apiRequestFull(this: ApiContext, request: ApiRequest) {
	const attempt = await startAttempt(this, request);
	for (;;) {
		// The answer, or the ms to wait before the next try: a back-off (RETRY), a few seconds at most.
		const next = await tryOnce(attempt);
		if (typeof next !== 'number') return next;
		if (next > 0) await sleep(next);
	}
}

/** An empty body (a 204) is an empty object; a text `{ body }`. */
export async function apiRequest(this: ApiContext, request: ApiRequest): Promise<IDataObject> {
	const { body } = await apiRequestFull.call(this, request);
	if (typeof body !== 'string') return (body ?? {}) as IDataObject;
	return body ? { body } : {};
}

/** Pace, send, read: the answer, or the ms to wait before the next try (0 after a redirect it follows). */
async function tryOnce(attempt: Attempt) {
	const { deadline, pacer, cancel } = attempt;
	const turn = await pace(attempt);
	const ms = Math.max(1, Math.min(RETRY.requestTimeoutMs, deadline - Date.now()));
	const signal = AbortSignal.timeout(ms);
	const stop = cancel ? AbortSignal.any([cancel, signal]) : signal;
	let response: IN8nHttpFullResponse;
	try {
		response = await send(attempt, stop);
	} catch (error) {
		pacer.settle(turn);
		const waitMs = stop.aborted || !dropped(error) ? undefined : backOff(attempt);
		if (waitMs === undefined) throw failure(attempt, error, { ms, stop });
		return waitMs;
	}
	return await read(attempt, response, { ms, stop });
}

/** A retry keeps its place. */
async function pace(attempt: Attempt) {
	const { deadline, context } = attempt;
	try {
		// No deadline: Infinity.
		attempt.turn = await attempt.pacer.take({
			maxWaitMs: deadline - Date.now(),
			ticket: attempt.turn?.ticket,
		});
	} catch (error) {
		const { method, path, itemIndex } = attempt.summary;
		throw new NodeOperationError(
			context.getNode(),
			`${method} ${path} was not sent: ${(error as Error).message}`,
			{ itemIndex, description: RATE_ADVICE },
		);
	}
	const stats = runStatsOf(context);
	stats.waitedMs += attempt.turn.waitedMs;
	stats.requests++;
	return attempt.turn;
}

/** n8n's client sends with the context's cancel signal; this hands out the attempt's `stop`. */
function send(attempt: Attempt, stop: AbortSignal) {
	const { context, options, connection } = attempt;
	const caller = Object.assign(Object.create(context), { getExecutionCancelSignal: () => stop });
	return context.helpers.httpRequestWithAuthentication.call(
		caller,
		CREDENTIAL_TYPE,
		options,
		connection.auth,
	);
}

/** Redacted before anything reads it. The pacer gets the answer first: after a 429 the whole key waits. */
async function read(attempt: Attempt, response: IN8nHttpFullResponse, timing: Timing) {
	const { context, summary } = attempt;
	const { secrets } = attempt.connection;
	const headers = redactValue(response.headers, secrets);
	const status = response.statusCode;
	const wait =
		status === 429 ? rateLimitWait(headers, Date.now(), attempt.rateLimitRetries) : undefined;
	attempt.pacer.settle(attempt.turn as PacerTurn, status, headers, wait?.ms);
	const success = status >= 200 && status < 300;
	const max = success ? READ.maxAnswerBytes : READ.maxErrorBodyBytes;
	// Typed by its one assignment (the catch throws).
	let content;
	try {
		content = await readBody(response.body as BodyStream, max, timing.stop);
	} catch (error) {
		throw failure(attempt, error, timing, status);
	}
	const contentType = contentTypeOf(headers);
	if (success && content.more) {
		const { method, path } = summary;
		const most = `${READ.maxAnswerBytes / 1024 / 1024} MB, the most the node reads of one answer`;
		throw apiError(context.getNode(), summary, {
			message: `The CRM API's answer to ${method} ${path} (${status}, ${contentType}) is larger than ${most}; it stopped reading`,
			description: `One record or one page of a list is far smaller than this. ${CHECK_BASE_URL} For Custom API Request, ask for fewer records per page.${checkFirst(method)}`,
			status,
		});
	}
	// The key in any spelling, in the parsed body; a first look at the raw text spares most pages the walk.
	const body = mayHoldSecret(content.text, secrets)
		? redactValue(content.body, secrets)
		: content.body;
	const answer = { ...response, headers, body, bodyBytes: content.bytes } as ApiResponse;
	if (!success) return classify(attempt, answer, wait);
	// n8n's getNode() deep-copies the node: read only when an error needs it, not once per request.
	const wrong = unexpectedAnswerError(() => context.getNode(), {
		request: summary,
		status,
		contentType,
		body,
		expected: attempt.request.expect,
	});
	if (wrong) throw wrong;
	return answer;
}

/** Not a 2xx: a redirect to follow, a wait before the next try, a DELETE already done, or an error. */
function classify(attempt: Attempt, answer: ApiResponse, wait?: RateLimitWait) {
	const { statusCode: status, headers, body } = answer;
	if (followsRedirect(attempt, status, headerValue(headers, 'location'))) return 0;
	if (wait && waitsOut(attempt, wait, body)) return 0;
	// DELETE is idempotent: a 404 on a retry means the attempt whose answer was lost deleted it.
	if (status === 404 && attempt.transientRetries > 0 && attempt.request.method === 'DELETE')
		return answer;
	const waitMs = [502, 503, 504].includes(status) ? backOff(attempt) : undefined;
	if (waitMs !== undefined) return waitMs;
	throw apiErrorFromResponse(attempt.context.getNode(), status, body, attempt.summary);
}

import { NodeOperationError, sleep } from 'n8n-workflow';
import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { contentTypeOf, headerValue } from '../values';
import type { ApiContext, ApiRequest } from './connection';
import { API_PREFIX, credentialOf, pacerOf, showPath, unsafePathReason } from './connection';
import {
	answerTooLargeError,
	apiError,
	apiErrorFromResponse,
	checkFirst,
	deadlineError,
	READ,
	RETRY,
	unexpectedAnswerError,
} from './errors';
import type { PacerTurn } from './rateLimit';
import { mayHoldSecret, redactValue } from './redact';
import { connectionError, dropped, readBody, runStatsOf, type BodyStream } from './wire';
import { boundedWait, pacingWaitError, rateLimitTooLongError, rateLimitWait } from './waits';

/** A full response: the body parsed (JSON when it parses, else text) and redacted, and its size as read. */
export type ApiResponse = IN8nHttpFullResponse & { bodyBytes: number };

const REDIRECT_ADVICE = `The node follows a redirect only for GET, only inside the API under the Base URL (same scheme, host and port), at most ${RETRY.maxSameOriginRedirects} times, so that the API key goes nowhere else. Check the Base URL in the "CRM Invoicing API" credential: use the address the API answers on without a redirect (for example https:// rather than http://, or without a trailing path).`;

/**
 * The one place that does HTTP. A path that could leave the API is refused before anything is sent. Each attempt is
 * paced, sent and read under one deadline within a byte cap, the key redacted, and classified: a 2xx of the expected
 * shape is the answer; a redirect inside the rules, a 429 or a 5xx within bounds is tried again; any other throws.
 */
export async function apiRequestFull(this: ApiContext, request: ApiRequest): Promise<ApiResponse> {
	// n8n's getNode() deep-copies the node: read only when an error or a redirect needs it, not once per request.
	const node = () => this.getNode();
	const { method, itemIndex, once } = request;
	// Only these are tried again after a dropped connection or a 502/503/504: they may have been done already.
	const idempotent = !once && (method === 'GET' || method === 'DELETE');
	const path = `${API_PREFIX[request.version ?? 'v1']}${request.path}`;
	const summary = { method, path, itemIndex };
	const stopped = (message: string, description: string) =>
		new NodeOperationError(node(), message, { itemIndex, description });
	const unsafe = unsafePathReason(request.path);
	if (unsafe !== undefined)
		throw stopped(
			`The node refused to send ${method} ${showPath(path)}: ${unsafe}`,
			'So that every request stays under the API path of the Base URL, no ID or path may be "." or ".." or hold a control character (a line break) or a backslash. Check it in the node\'s parameters or the input item. Nothing was sent.',
		);
	const connection = await credentialOf(this);
	const { secrets, auth } = connection;
	const pacer = pacerOf(connection);
	const cancel = this.getExecutionCancelSignal?.();
	const deadline = request.deadline ?? Infinity;
	const options: IHttpRequestOptions = {
		method,
		url: `${connection.baseUrl}${path}`,
		json: true,
		// The body is read here, as a stream, so that its size and time are bounded while it comes.
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		qs: request.qs,
	};
	// Serialised here, not by n8n's client: its config merge drops keys such as "__proto__" or "constructor" at any depth.
	if (request.body !== undefined) {
		options.body = JSON.stringify(request.body);
		options.headers = { 'content-type': 'application/json' };
	}
	const stats = runStatsOf(this);
	let turn: PacerTurn | undefined;
	let [rateLimitRetries, rateLimitWaited, transientRetries, redirects] = [0, 0, 0, 0];

	const fits = (ms: number) => Date.now() + ms < deadline;
	const backOff = async (): Promise<boolean> => {
		const wait = RETRY.transientBackoffMs * 2 ** transientRetries;
		if (!idempotent || transientRetries >= RETRY.maxTransientRetries || !fits(wait)) return false;
		transientRetries++;
		await sleep(boundedWait(wait));
		return true;
	};
	/** A failure with no HTTP answer (or a body that did not finish): cancelled, the deadline, TLS or connection. */
	const failure = (error: unknown, signal: AbortSignal, ms: number, status?: number): Error => {
		if (cancel?.aborted)
			return stopped(
				`The execution was stopped while ${method} ${path} was under way`,
				'The request was abandoned. For a request that changes data, check in the CRM whether it took effect.',
			);
		// Reaching the deadline is not retried: a server that slow would only hold the execution longer.
		if (signal.aborted) return deadlineError(node(), summary, ms, status);
		return connectionError(node(), error, summary, transientRetries > 0, status);
	};

	/**
	 * A redirect (n8n's client follows none: it would send the key, and on 307/308 the body, to any host) is followed
	 * only inside the API, for GET only, at most RETRY.maxSameOriginRedirects times; else the error says why not.
	 */
	const followRedirect = (status: number, location = '//'): boolean => {
		if (status < 300 || status >= 400 || status === 304) return false;
		const base = new URL(connection.baseUrl);
		const target = URL.canParse(location, options.url) ? new URL(location, options.url) : undefined;
		const roots = Object.values(API_PREFIX).map((api) => base.pathname.replace(/\/+$/, '') + api);
		const refuse = (why: string, to = target && showPath(`${target.pathname}${target.search}`)) => {
			const said = `The CRM API answered ${status} with a redirect to ${to ?? 'no address'}${why}. The node did not follow it: the API key ${method === 'GET' ? 'was' : 'and the request body were'} not sent there`;
			// Redacted again: URL parsing drops tabs and line breaks and lower-cases the host, which may rejoin the key.
			const message = redactValue(said, secrets);
			return apiError(node(), summary, message, REDIRECT_ADVICE + checkFirst(method), status);
		};
		if (!target) throw refuse(' (its Location header is missing or unreadable)');
		if (target.origin !== base.origin || target.origin === 'null')
			throw refuse(
				`, another origin than the Base URL's (${base.origin})`,
				`${target.host} (${target.protocol}//${target.host})`,
			);
		const root = roots.find((one) => `${target.pathname}/`.startsWith(`${one}/`));
		// URL parsing has resolved "." and ".." (also %2e); what is left must stay safe for a server that decodes again.
		if (!root || target.username || target.password || unsafePathReason(target.pathname))
			throw refuse(`, outside the API (${roots.join(' or ')})`);
		if (method !== 'GET')
			throw refuse(` for ${method} ${path}, and the node follows redirects only for GET`);
		if (++redirects > RETRY.maxSameOriginRedirects)
			throw refuse(`, after ${RETRY.maxSameOriginRedirects} redirects, the most the node follows`);
		options.url = target.href;
		delete options.qs; // the Location holds the target's query
		return true;
	};

	for (;;) {
		const maxWaitMs = deadline === Infinity ? undefined : deadline - Date.now();
		turn = await pacer.take({ maxWaitMs, ticket: turn?.ticket }).catch((error) => {
			throw pacingWaitError(node(), summary, error);
		});
		stats.waitedMs += turn.waitedMs;
		stats.requests++;
		const ms = Math.max(1, Math.min(RETRY.requestTimeoutMs, deadline - Date.now()));
		const signal = AbortSignal.timeout(ms);
		// The attempt's one deadline (or cancellation): n8n sends with the context's cancel signal, so it hands out this.
		const stop = cancel ? AbortSignal.any([cancel, signal]) : signal;
		const caller = Object.assign(Object.create(this), { getExecutionCancelSignal: () => stop });
		let response: IN8nHttpFullResponse;
		const send = this.helpers.httpRequestWithAuthentication;
		try {
			response = await send.call(caller, auth.credentialsDecrypted.type, options, auth);
		} catch (error) {
			pacer.settle(turn);
			if (!stop.aborted && dropped(error) && (await backOff())) continue;
			throw failure(error, signal, ms);
		}
		// Every text of the answer is redacted before anything reads it. After a 429 the whole key waits what this one will.
		const headers = redactValue(response.headers, secrets);
		const status = response.statusCode;
		const wait = status === 429 ? rateLimitWait(headers, Date.now(), rateLimitRetries) : undefined;
		pacer.settle(turn, status, headers, wait?.ms);
		const success = status >= 200 && status < 300;
		const type = contentTypeOf(headers);
		const max = success ? READ.maxAnswerBytes : READ.maxErrorBodyBytes;
		const read = await readBody(response.body as BodyStream, max, stop).catch((error) => {
			throw failure(error, signal, ms, status);
		});
		if (success && read.more) throw answerTooLargeError(node(), summary, status, type);
		// The key in any spelling, in the parsed body; a first look at the raw text spares most pages the walk.
		const body = mayHoldSecret(read.text, secrets) ? redactValue(read.body, secrets) : read.body;
		const answer = { ...response, headers, body, bodyBytes: read.bytes } as ApiResponse;
		if (success) {
			const wrong = unexpectedAnswerError(node, summary, status, type, body, request.expect);
			if (wrong) throw wrong;
			return answer;
		}
		if (followRedirect(status, headerValue(headers, 'location'))) continue;
		if (wait) {
			stats.rateLimited++;
			if (wait.ms > RETRY.maxWaitMs || rateLimitWaited + wait.ms > RETRY.maxTotalRateLimitWaitMs)
				throw rateLimitTooLongError(node(), body, summary, wait, rateLimitWaited);
			rateLimitWaited += wait.ms;
			// The limiter now holds the wait; the retry waits for its turn, ahead of later requests.
			if (!once && ++rateLimitRetries <= RETRY.maxRateLimitRetries && fits(wait.ms)) continue;
		}
		// DELETE is idempotent: a 404 on a retry means the attempt whose answer was lost deleted it.
		if (status === 404 && transientRetries > 0 && method === 'DELETE') return answer;
		if ([502, 503, 504].includes(status) && (await backOff())) continue;
		throw apiErrorFromResponse(node(), status, body, summary);
	}
}

/** A request's parsed JSON body; an empty body (a 204) is an empty object, a text `{ body }`. */
export async function apiRequest(this: ApiContext, request: ApiRequest): Promise<IDataObject> {
	const { body } = await apiRequestFull.call(this, request);
	return (typeof body === 'string' ? (body ? { body } : {}) : (body ?? {})) as IDataObject;
}

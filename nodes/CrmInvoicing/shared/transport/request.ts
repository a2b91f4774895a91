import { NodeOperationError, sleep } from 'n8n-workflow';
import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { contentTypeOf, headerValue } from '../values';
import {
	API_PREFIX,
	type ApiContext,
	type ApiRequest,
	type ApiResponse,
	type Connection,
	connectionOf,
	CREDENTIAL_TYPE,
	followRedirect,
	pacerOf,
	showPath,
	unsafePathReason,
} from './connection';

import {
	answerMismatch,
	answerTooLargeError,
	apiErrorFromResponse,
	deadlineError,
	READ,
	type RequestSummary,
	RETRY,
	unexpectedAnswerError,
} from './errors';
import type { PacerTurn, RateLimitPacer } from './rateLimit';
import { mayHoldSecret, redactValue } from './redact';
import {
	AnswerTooLarge,
	type Cancellable,
	connectionError,
	connectionErrorCode,
	raceSignal,
	readBody,
	runStatsOf,
	tlsErrorCode,
} from './wire';
import {
	boundedWait,
	pacingWaitError,
	type PacingWaitTooLongError,
	rateLimitTooLongError,
	rateLimitWait,
	type RateLimitWait,
} from './waits';

const IDEMPOTENT = new Set<string>(['GET', 'HEAD', 'DELETE']);

/**
 * One request through its attempts: pace (the key's limiter, a retry keeping its place), send (under a wall-clock
 * deadline, enforced by aborting), read (within a byte cap, the key redacted) and classify. Every bound is here.
 */
class RequestRun {
	readonly summary: RequestSummary;
	private readonly options: IHttpRequestOptions;
	private readonly pacer: RateLimitPacer;
	private readonly cancel: AbortSignal | undefined;
	private readonly deadline: number;
	private turn: PacerTurn | undefined;
	private rateLimitRetries = 0;
	private rateLimitWaited = 0;
	private transientRetries = 0;
	private redirects = 0;
	/** The wait the last answer asked for, when it was a 429. */
	private rateLimitWait: RateLimitWait | undefined;

	constructor(
		private readonly context: ApiContext,
		private readonly request: ApiRequest,
		private readonly connection: Connection,
	) {
		const path = `${API_PREFIX[request.version ?? 'v1']}${request.path}`;
		this.summary = { method: request.method, path, itemIndex: request.itemIndex };
		this.cancel = (context as Cancellable).getExecutionCancelSignal?.();
		this.deadline = request.deadline ?? Infinity;
		this.pacer = pacerOf(connection);
		this.options = {
			method: request.method,
			url: `${connection.baseUrl}${path}`,
			json: true,
			// The body is read here, as a stream, so that its size and time are bounded while it comes.
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
		};
		if (request.qs && Object.keys(request.qs).length > 0) this.options.qs = request.qs;
		if (request.body !== undefined) this.options.body = request.body;
	}

	private fits(ms: number): boolean {
		return Date.now() + ms < this.deadline;
	}

	private cancelled(): NodeOperationError {
		const { method, path, itemIndex } = this.summary;
		return new NodeOperationError(
			this.context.getNode(),
			`The execution was stopped while ${method} ${path} was under way`,
			{
				itemIndex,
				description:
					'The request was abandoned. For a request that changes data, check in the CRM whether it took effect.',
			},
		);
	}

	/** Waits a transient back-off when one more retry is allowed and fits; false when not. */
	private async backOff(): Promise<boolean> {
		const wait = RETRY.transientBackoffMs * 2 ** this.transientRetries;
		const { once, method } = this.request;
		if (once || !IDEMPOTENT.has(method) || this.transientRetries >= RETRY.maxTransientRetries)
			return false;
		if (!this.fits(wait)) return false;
		this.transientRetries++;
		await sleep(boundedWait(wait));
		return true;
	}

	/** A failure with no HTTP answer (or a body that did not finish): cancelled, the deadline, TLS or connection. */
	private failure(error: unknown, signal: AbortSignal, ms: number, status?: number): Error {
		if (this.cancel?.aborted) return this.cancelled();
		// Reaching the deadline is not retried: a server that slow would only hold the execution longer.
		if (signal.aborted) return deadlineError(this.context.getNode(), this.summary, ms, status);
		const code = tlsErrorCode(error) ?? connectionErrorCode(error);
		const retried = this.transientRetries > 0;
		const shown = code ?? (status === undefined ? undefined : 'ECONNRESET');
		return connectionError(this.context.getNode(), shown, this.summary, retried);
	}

	/** One attempt; the answer, or undefined when it is to be tried again. */
	async attempt(): Promise<ApiResponse | undefined> {
		const { context, summary, connection } = this;
		try {
			const maxWaitMs = this.deadline === Infinity ? undefined : this.deadline - Date.now();
			this.turn = await this.pacer.take({ maxWaitMs, ticket: this.turn?.ticket });
		} catch (error) {
			const late = error as PacingWaitTooLongError;
			throw pacingWaitError(context.getNode(), summary, late, this.deadline !== Infinity);
		}
		const stats = runStatsOf(context);
		stats.waitedMs += this.turn.waitedMs;
		stats.requests++;
		const ms = Math.max(1, Math.min(RETRY.requestTimeoutMs, this.deadline - Date.now()));
		const signal = AbortSignal.timeout(ms);
		this.options.timeout = ms;
		this.options.abortSignal = signal;
		const stop = this.cancel ? AbortSignal.any([this.cancel, signal]) : signal;
		let response: IN8nHttpFullResponse;
		try {
			let caller = context as Cancellable;
			if (typeof caller.getExecutionCancelSignal === 'function') {
				caller = Object.create(context) as Cancellable;
				caller.getExecutionCancelSignal = () => stop;
			}
			const credentialsDecrypted = connection.credentials;
			const { httpRequestWithAuthentication } = context.helpers;
			const sent = httpRequestWithAuthentication.call(caller, CREDENTIAL_TYPE, this.options, {
				credentialsDecrypted,
			}) as Promise<IN8nHttpFullResponse>;
			response = await raceSignal(sent, signal);
		} catch (error) {
			this.pacer.settle(this.turn);
			const dropped = !this.cancel?.aborted && !signal.aborted && !tlsErrorCode(error);
			if (dropped && connectionErrorCode(error) && (await this.backOff())) return undefined;
			throw this.failure(error, signal, ms);
		}
		// Every text the answer brings is redacted before anything reads it: its headers here (a Content-Type or a
		// Location that echoes the key reaches errors), its body below. The limiter learns of the answer as soon as its
		// status and headers are here; after a 429 the whole key waits what this request will wait.
		const headers = redactValue(response.headers, connection.secrets);
		const status = response.statusCode;
		const tries = this.rateLimitRetries;
		this.rateLimitWait = status === 429 ? rateLimitWait(headers, Date.now(), tries) : undefined;
		this.pacer.settle(this.turn, status, headers, this.rateLimitWait?.ms);
		const success = status >= 200 && status < 300;
		let read: { text: string; bytes: number };
		try {
			const max = success ? READ.maxAnswerBytes : READ.maxErrorBodyBytes;
			read = await readBody(response.body, max, !success, stop);
		} catch (error) {
			if (!(error instanceof AnswerTooLarge)) throw this.failure(error, signal, ms, status);
			throw answerTooLargeError(context.getNode(), summary, status, contentTypeOf(headers));
		}
		// Whatever the answer echoes of the key is redacted in what was decoded: every string of the parsed JSON, or the
		// text, in any spelling. A first look at the raw text rules out most answers, so a page is rarely walked.
		const text = read.text.trim();
		let body: unknown = text;
		try {
			body = text === '' ? '' : JSON.parse(text);
		} catch {
			body = read.text;
		}
		if (mayHoldSecret(read.text, connection.secrets)) body = redactValue(body, connection.secrets);
		const answer = { ...response, headers, body, bodyBytes: read.bytes } as ApiResponse;
		return await this.classify(status, answer);
	}

	/** A 2xx of the expected shape is the answer; a redirect inside the rules, a 429 or a 5xx within bounds is retried. */
	private async classify(status: number, response: ApiResponse): Promise<ApiResponse | undefined> {
		const { summary, request, context } = this;
		if (status >= 200 && status < 300) {
			const expected = request.expect ?? (request.method === 'DELETE' ? 'empty-or-object' : 'any');
			const mismatch = answerMismatch(response.body, status, expected);
			if (!mismatch) return response;
			const type = contentTypeOf(response.headers);
			const { body } = response;
			throw unexpectedAnswerError(context.getNode(), summary, status, type, body, mismatch);
		}
		if (status >= 300 && status < 400 && status !== 304) {
			const base = this.connection.origin ?? new URL(this.options.url);
			const location = headerValue(response.headers, 'location');
			const node = context.getNode();
			const { url } = this.options;
			const target = followRedirect(node, summary, status, location, url, base, this.redirects);
			this.redirects++;
			this.options.url = target.href;
			delete this.options.qs;
			return undefined;
		}
		if (status === 429) {
			runStatsOf(context).rateLimited++;
			const wait = this.rateLimitWait as RateLimitWait;
			const waited = this.rateLimitWaited;
			if (wait.ms > RETRY.maxWaitMs || waited + wait.ms > RETRY.maxTotalRateLimitWaitMs)
				throw rateLimitTooLongError(context.getNode(), response.body, summary, wait, waited);
			const retries = this.rateLimitRetries;
			if (!request.once && retries < RETRY.maxRateLimitRetries && this.fits(wait.ms)) {
				this.rateLimitRetries++;
				this.rateLimitWaited += wait.ms;
				// The limiter now holds the wait; the retry waits for its turn, ahead of later requests.
				return undefined;
			}
		} else if (status === 404 && this.transientRetries > 0 && request.notFoundOnRetryIsDeleted) {
			if (request.method === 'DELETE') return response;
		} else if ([502, 503, 504].includes(status) && (await this.backOff())) {
			return undefined;
		}
		throw apiErrorFromResponse(context.getNode(), status, response.body, summary);
	}
}

/**
 * A request and its full response (status, headers, body parsed as JSON when it is JSON, redacted). The one place
 * that does HTTP. A path that could leave the API (`.`/`..` segments, control characters, backslashes) is refused
 * before anything is sent. Throws NodeApiError (or NodeOperationError) for every failure.
 */
export async function apiRequestFull(this: ApiContext, request: ApiRequest): Promise<ApiResponse> {
	const unsafe = unsafePathReason(request.path);
	if (unsafe !== undefined) {
		const path = showPath(`${API_PREFIX[request.version ?? 'v1']}${request.path}`);
		throw new NodeOperationError(
			this.getNode(),
			`The node refused to send ${request.method} ${path}: ${unsafe}`,
			{
				itemIndex: request.itemIndex,
				description:
					'IDs and paths must not be "." or "..", and must not contain control characters (such as line breaks) or backslashes, so that every request stays under the API path of the Base URL. Check the ID or path in the node\'s parameters or in the input item. Nothing was sent.',
			},
		);
	}
	const run = new RequestRun(this, request, await connectionOf(this));
	for (;;) {
		const done = await run.attempt();
		if (done !== undefined) return done;
	}
}

/** A request's parsed JSON body; an empty body (a 204) is an empty object, a text `{ body }`. */
export async function apiRequest(this: ApiContext, request: ApiRequest): Promise<IDataObject> {
	const { body } = await apiRequestFull.call(this, request);
	if (body === '' || body === null || body === undefined) return {};
	return (typeof body === 'string' ? { body } : body) as IDataObject;
}

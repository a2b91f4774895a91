import { NodeOperationError, sleep } from 'n8n-workflow';
import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { AnswerTooLarge, parseBody, readBody } from './body';
import {
	type ApiContext,
	type ApiRequest,
	type ApiResponse,
	type Connection,
	connectionOf,
	CREDENTIAL_TYPE,
} from './connection';
import { connectionError, connectionErrorCode, tlsErrorCode } from './connectionErrors';
import {
	answerMismatch,
	answerTooLargeError,
	apiErrorFromResponse,
	deadlineError,
	type RequestSummary,
	unexpectedAnswerError,
} from './errors';
import { READ, RETRY } from './limits';
import type { PacerTurn, PacingWaitTooLongError } from './pacer';
import { showPath, unsafePathReason } from './paths';
import {
	boundedWait,
	pacingWaitError,
	rateLimitTooLongError,
	rateLimitWait,
	type RateLimitWait,
} from './rateLimit';
import { mayHoldSecret, redactHeaders, redactValue } from './redact';
import { redirectError, redirectTarget } from './redirects';
import { cancelSignalOf, raceSignal, withSignal } from './signals';
import { API_PREFIX } from './spec';
import { countStats } from './stats';
import { contentTypeOf, headerValue } from './values';

const IDEMPOTENT = new Set<string>(['GET', 'HEAD', 'DELETE']);
const TRANSIENT_STATUSES = new Set([502, 503, 504]);

/** An answer whose status and headers came, and whose body was read within its limits, parsed and redacted. */
interface Answer {
	response: ApiResponse;
	status: number;
}

/**
 * One request through its attempts: `pace`, `send`, `read` (within limits) and `classify`, each a method. The loop in
 * apiRequestFull runs them until `classify` returns the response or one of them throws.
 */
class RequestRun {
	readonly summary: RequestSummary;

	private readonly options: IHttpRequestOptions;

	private readonly idempotent: boolean;

	private readonly cancel: AbortSignal | undefined;

	/** Wall-clock end of the whole request (its time limit), or Infinity. */
	private readonly deadline: number;

	private turn: PacerTurn | undefined;

	private rateLimitRetries = 0;

	private rateLimitWaited = 0;

	private transientRetries = 0;

	private redirects = 0;

	/** The wait the last answer asked for, when it was a 429 (read with the request's count of 429s so far). */
	private rateLimitWait: RateLimitWait | undefined;

	/** The deadline of the current attempt, and how long it was. */
	private attempt: { signal: AbortSignal; ms: number } | undefined;

	constructor(
		private readonly context: ApiContext,
		private readonly request: ApiRequest,
		private readonly connection: Connection,
	) {
		const path = `${API_PREFIX[request.version ?? 'v1']}${request.path}`;
		this.summary = { method: request.method, path, itemIndex: request.itemIndex };
		this.cancel = cancelSignalOf(context);
		this.idempotent = IDEMPOTENT.has(request.method);
		this.deadline = Math.min(
			request.deadline ?? Infinity,
			request.timeLimitMs === undefined ? Infinity : Date.now() + request.timeLimitMs,
		);
		this.options = {
			method: request.method,
			url: `${connection.baseUrl}${path}`,
			json: true,
			// The body is read here, as a stream, so that its size and time are bounded while it comes.
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			timeout: RETRY.requestTimeoutMs,
		};
		if (request.qs && Object.keys(request.qs).length > 0) this.options.qs = request.qs;
		if (request.body !== undefined) this.options.body = request.body;
	}

	private get node() {
		return this.context.getNode();
	}

	/** Whether a wait of `ms` still fits the request's time limit. */
	private fits(ms: number): boolean {
		return Date.now() + ms < this.deadline;
	}

	private cancelled(): NodeOperationError {
		const { method, path, itemIndex } = this.summary;
		return new NodeOperationError(
			this.node,
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
		if (
			!this.idempotent ||
			this.request.once ||
			this.transientRetries >= RETRY.maxTransientRetries ||
			!this.fits(wait)
		)
			return false;
		this.transientRetries++;
		await sleep(boundedWait(wait));
		return true;
	}

	/**
	 * Pace: the key's pacer, first in, first out, within the known budget; a retry keeps its place (its ticket). A turn
	 * that would come too late is refused before anything is sent.
	 */
	async pace(): Promise<void> {
		try {
			this.turn = await this.connection.pacer.take({
				maxWaitMs: this.deadline === Infinity ? undefined : Math.max(0, this.deadline - Date.now()),
				ticket: this.turn?.ticket,
			});
		} catch (error) {
			throw pacingWaitError(
				this.node,
				this.summary,
				error as PacingWaitTooLongError,
				this.request.timeLimitMs,
			);
		}
		countStats.waited(this.context, this.turn.waitedMs);
	}

	/**
	 * Send: one attempt, under a wall-clock deadline (RETRY.requestTimeoutMs, or what is left of the time limit)
	 * enforced by aborting it. Resolves to the response (status and headers; the body still a stream), or to undefined
	 * after the back-off of a dropped connection that may be retried.
	 */
	async send(): Promise<IN8nHttpFullResponse | undefined> {
		const turn = this.turn as PacerTurn;
		const ms = Math.max(1, Math.min(RETRY.requestTimeoutMs, this.deadline - Date.now()));
		const signal = AbortSignal.timeout(ms);
		this.attempt = { signal, ms };
		this.options.timeout = ms;
		this.options.abortSignal = signal;
		countStats.request(this.context);
		let response: IN8nHttpFullResponse;
		try {
			const caller = withSignal(this.context, signal, this.cancel);
			const sent = this.context.helpers.httpRequestWithAuthentication.call(
				caller,
				CREDENTIAL_TYPE,
				this.options,
				{
					credentialsDecrypted: this.connection.credentials,
				},
			) as Promise<IN8nHttpFullResponse>;
			response = await raceSignal(sent, signal);
		} catch (error) {
			this.connection.pacer.settle(turn);
			if (this.cancel?.aborted) throw this.cancelled();
			// Reaching the deadline is not retried: a server that slow would only hold the execution longer.
			if (signal.aborted) throw deadlineError(this.node, this.summary, ms);
			const tls = tlsErrorCode(error);
			if (tls) throw connectionError(this.node, tls, this.summary, false);
			const code = connectionErrorCode(error);
			if (code && (await this.backOff())) return undefined;
			throw connectionError(this.node, code, this.summary, this.transientRetries > 0);
		}
		// The pacer learns of the answer as soon as its status and headers are here, also when its body then fails to
		// read (deadline, size): the window is known, and the next request need not wait for this one.
		// After a 429 the whole key waits what this request will wait (see rateLimitWait), so retries and the other
		// requests of the key keep one pace.
		// Every text the answer brings is redacted before anything reads it: its headers here (a Content-Type, a Location
		// that echoes the key reaches errors), its body in `read`.
		response.headers = redactHeaders(response.headers, this.connection.secrets);
		const status = response.statusCode;
		this.rateLimitWait =
			status === 429
				? rateLimitWait(response.headers, Date.now(), this.rateLimitRetries)
				: undefined;
		this.connection.pacer.settle(turn, status, response.headers, this.rateLimitWait?.ms);
		return response;
	}

	/**
	 * Read within limits: the body counted against its byte cap (READ.maxAnswerBytes; error bodies
	 * READ.maxErrorBodyBytes, cut) under the attempt's deadline, parsed, and the API key redacted.
	 */
	async read(response: IN8nHttpFullResponse): Promise<Answer> {
		const status = response.statusCode;
		const success = status >= 200 && status < 300;
		const attempt = this.attempt as { signal: AbortSignal; ms: number };
		let read: { text: string; bytes: number };
		try {
			const stop = this.cancel ? AbortSignal.any([this.cancel, attempt.signal]) : attempt.signal;
			read = await readBody(
				response.body,
				success ? READ.maxAnswerBytes : READ.maxErrorBodyBytes,
				!success,
				stop,
			);
		} catch (error) {
			if (error instanceof AnswerTooLarge) {
				throw answerTooLargeError(
					this.node,
					this.summary,
					status,
					contentTypeOf(response.headers),
					READ.maxAnswerBytes,
				);
			}
			if (this.cancel?.aborted) throw this.cancelled();
			if (attempt.signal.aborted) throw deadlineError(this.node, this.summary, attempt.ms, status);
			const tls = tlsErrorCode(error);
			throw connectionError(
				this.node,
				tls ?? connectionErrorCode(error) ?? 'ECONNRESET',
				this.summary,
				this.transientRetries > 0,
			);
		}
		// Whatever the answer echoes of the key (a 401 "key sk_… is not valid", a record that holds it) is redacted in
		// what was decoded: every string of the parsed JSON, or the text when it is not JSON, in any escape. Nothing
		// downstream (errors, the shape check, the list reader, outputs, stored executions) sees the key. A first look
		// at the raw text rules out most answers, so a page without the key is not walked string by string.
		const { secrets } = this.connection;
		const parsed = parseBody(read.text);
		const body = mayHoldSecret(read.text, secrets) ? redactValue(parsed, secrets) : parsed;
		return {
			status,
			response: { ...response, body: body as IN8nHttpFullResponse['body'], bodyBytes: read.bytes },
		};
	}

	/**
	 * Classify: a 2xx of the expected shape is the response; a redirect inside the rules, a 429 within the waits, or a
	 * transient failure of an idempotent request is tried again (undefined); anything else is an error.
	 */
	async classify({ status, response }: Answer): Promise<ApiResponse | undefined> {
		// The node (n8n hands out a deep copy on each getNode) is read only for an error.
		const { summary, request } = this;
		if (status >= 200 && status < 300) {
			const mismatch = answerMismatch(
				response.body,
				status,
				request.expect ?? (request.method === 'DELETE' ? 'empty-or-object' : 'any'),
			);
			if (mismatch) {
				const type = contentTypeOf(response.headers);
				throw unexpectedAnswerError(this.node, summary, status, type, response.body, mismatch);
			}
			return response;
		}
		if (status >= 300 && status < 400 && status !== 304) {
			const base = this.connection.origin ?? new URL(this.options.url);
			const verdict = redirectTarget(
				headerValue(response.headers, 'location'),
				this.options.url,
				base,
				request.method,
				this.redirects,
			);
			if ('refused' in verdict)
				throw redirectError(this.node, status, verdict.target, base, summary, verdict.refused);
			this.redirects++;
			this.options.url = verdict.target.href;
			delete this.options.qs;
			return undefined;
		}
		if (status === 429) {
			countStats.rateLimited(this.context);
			const wait =
				this.rateLimitWait ?? rateLimitWait(response.headers, Date.now(), this.rateLimitRetries);
			if (
				wait.ms > RETRY.maxWaitMs ||
				this.rateLimitWaited + wait.ms > RETRY.maxTotalRateLimitWaitMs
			) {
				throw rateLimitTooLongError(this.node, response.body, summary, wait, this.rateLimitWaited);
			}
			if (
				!request.once &&
				this.rateLimitRetries < RETRY.maxRateLimitRetries &&
				this.fits(wait.ms)
			) {
				this.rateLimitRetries++;
				this.rateLimitWaited += wait.ms;
				// The pacer now holds the wait; the retry waits for its turn in `pace`, ahead of later requests.
				return undefined;
			}
		} else if (
			status === 404 &&
			this.transientRetries > 0 &&
			request.method === 'DELETE' &&
			request.notFoundOnRetryIsDeleted
		) {
			return response;
		} else if (TRANSIENT_STATUSES.has(status) && (await this.backOff())) {
			return undefined;
		}
		throw apiErrorFromResponse(this.node, status, response.body, summary);
	}
}

/** Refuses a path that could leave the API (`.`/`..` segments, control characters, backslashes) before anything is sent. */
function refuseUnsafePath(context: ApiContext, request: ApiRequest): void {
	const unsafe = unsafePathReason(request.path);
	if (unsafe === undefined) return;
	const path = `${API_PREFIX[request.version ?? 'v1']}${request.path}`;
	throw new NodeOperationError(
		context.getNode(),
		`The node refused to send ${request.method} ${showPath(path)}: ${unsafe}`,
		{
			itemIndex: request.itemIndex,
			description:
				'IDs and paths must not be "." or "..", and must not contain control characters (such as line breaks) or backslashes, so that every request stays under the API path of the Base URL. Check the ID or path in the node\'s parameters or in the input item. Nothing was sent.',
		},
	);
}

/**
 * A request and its full response (status, headers, body parsed as JSON when it is JSON). Throws NodeApiError for
 * every failure. The one place that does HTTP, and the one place of its bounds: each attempt is paced, sent under a
 * wall-clock deadline, read within a byte cap with the API key redacted, and classified (RequestRun).
 */
export async function apiRequestFull(this: ApiContext, request: ApiRequest): Promise<ApiResponse> {
	refuseUnsafePath(this, request);
	const run = new RequestRun(this, request, await connectionOf(this));
	for (;;) {
		await run.pace();
		const response = await run.send();
		if (response === undefined) continue;
		const done = await run.classify(await run.read(response));
		if (done !== undefined) return done;
	}
}

/** A request's parsed JSON body; an empty body (a 204) is an empty object. */
export async function apiRequest(this: ApiContext, request: ApiRequest): Promise<IDataObject> {
	const response = await apiRequestFull.call(this, request);
	const body = response.body as unknown;
	if (body === '' || body === null || body === undefined) return {};
	if (typeof body === 'string') {
		try {
			return JSON.parse(body) as IDataObject;
		} catch {
			return { body };
		}
	}
	return body as IDataObject;
}

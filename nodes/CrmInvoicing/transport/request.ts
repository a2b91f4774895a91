import { NodeOperationError, sleep } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { API_PREFIX } from './spec';
import {
	answerMismatch,
	answerTooLargeError,
	apiErrorFromResponse,
	connectionError,
	connectionErrorCode,
	deadlineError,
	type ExpectedAnswer,
	rateLimitTooLongError,
	redactSecrets,
	redirectError,
	type RequestSummary,
	tlsErrorCode,
	unexpectedAnswerError,
} from './errors';
import { DOCUMENTED_RATE_LIMIT, READ, REDIRECTS, RETRY } from './limits';
import { showPath, unsafePathReason } from './paths';
import {
	boundedWait,
	pacerFor,
	pacingWaitError,
	type PacingWaitTooLongError,
	rateLimitWaitMs,
	type PacerTurn,
	type RateLimitPacer,
} from './rateLimit';
import { countStats } from './stats';
import { contentTypeOf, headerValue } from './values';

export const CREDENTIAL_TYPE = 'crmInvoicingApi';

/**
 * Any n8n context that may call the API: node execution, list searches, the trigger's webhook lifecycle, the
 * trigger's handling of a delivery (Output Full Record), and the polling trigger's polls.
 */
export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions | IPollFunctions;

export type ApiVersion = keyof typeof API_PREFIX;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path under the version prefix, e.g. `/leads` or `/leads/lead_1`. */
	path: string;
	version?: ApiVersion;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[];
	/** The input item the request is for, so errors point at it. */
	itemIndex?: number;
	/**
	 * Time limit for the whole request in ms, waits and retries included (e.g. while a webhook delivery waits for its
	 * answer). Without it, the limits of RETRY apply. A wait that would pass it is not started: the request fails.
	 */
	timeLimitMs?: number;
	/**
	 * For a DELETE: a 404 on a retry (after a 502/503/504 or a dropped connection, whose first attempt may have
	 * deleted the record) is answered as the response instead of an error. A 404 on the first attempt stays an error.
	 */
	notFoundOnRetryIsDeleted?: boolean;
	/**
	 * What a 2xx answer must hold before it counts as success (default `'any'`, and `'empty-or-object'` for DELETE):
	 * - `'record'`: a JSON object with a non-empty string or finite number `id` (create, get, update of a record);
	 * - `'object'`: any JSON object;
	 * - `'empty-or-record'` / `'empty-or-object'`: also an empty body or a 204, where the spec allows it (e.g. PATCH
	 *   /leads, whose answer the spec does not show; every DELETE, whose answer the spec does not show either: a
	 *   sign-in page answered 200 is not a deletion);
	 * - `'any'`: whatever came (Custom API Request's other methods; lists check their shape in the list reader).
	 * Anything else is an error naming the status, content type and first bytes, never a success that did not happen.
	 */
	expect?: ExpectedAnswer;
}

/** A full response as the transport returns it: the body parsed (JSON when it parses, else text), and its size. */
export interface ApiResponse extends IN8nHttpFullResponse {
	/** Bytes of the body as read (after decompression). */
	bodyBytes: number;
}

interface Connection {
	/** Texts never shown in clear: the API key. */
	secrets: string[];
	baseUrl: string;
	/** The Base URL parsed, when it parses: redirects are compared with its origin. */
	origin: URL | undefined;
	credentials: ICredentialsDecrypted;
	pacer: RateLimitPacer;
}

/** Credentials are read once per execution (or list search, or hook call), not once per request or page. */
const connections = new WeakMap<object, Promise<Connection>>();

/** `https://crm.example.com/`, `…/api/v1` and `…/api/v2` all mean the same workspace. */
export function normalizeBaseUrl(raw: unknown): string {
	return String(raw ?? '')
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/api\/v[12]$/i, '');
}

/** The credential's "Requests per Minute" (for plans above the documented 60), else the documented rate. */
export function requestsPerMinuteOf(data: ICredentialDataDecryptedObject): number {
	const value = Number(data.requestsPerMinute);
	return Number.isFinite(value) && value >= 1 ? Math.floor(value) : DOCUMENTED_RATE_LIMIT.requests;
}

function parseUrl(url: string, base?: string): URL | undefined {
	try {
		return new URL(url, base);
	} catch {
		return undefined;
	}
}

async function openConnection(context: ApiContext): Promise<Connection> {
	const data: ICredentialDataDecryptedObject = await context.getCredentials(CREDENTIAL_TYPE);
	const baseUrl = normalizeBaseUrl(data.baseUrl);
	const apiKey = String(data.apiKey ?? '');
	return {
		secrets: apiKey === '' ? [] : [apiKey],
		baseUrl,
		origin: parseUrl(baseUrl),
		credentials: { id: '', name: CREDENTIAL_TYPE, type: CREDENTIAL_TYPE, data },
		pacer: pacerFor(baseUrl, apiKey, requestsPerMinuteOf(data)),
	};
}

function connectionOf(context: ApiContext): Promise<Connection> {
	let connection = connections.get(context);
	if (!connection) {
		connection = openConnection(context);
		connections.set(context, connection);
		connection.catch(() => connections.delete(context));
	}
	return connection;
}

const IDEMPOTENT = new Set<string>(['GET', 'HEAD', 'DELETE']);
const TRANSIENT_STATUSES = new Set([502, 503, 504]);

/** Thrown inside the body reader when an answer passes its byte cap. */
class AnswerTooLarge extends Error {}

/** A readable stream as n8n hands it back with `encoding: 'stream'` (an IncomingMessage). */
interface BodyStream extends AsyncIterable<Buffer | string> {
	destroy(error?: Error): void;
}

function isStream(value: unknown): value is BodyStream {
	return (
		!!value &&
		typeof value === 'object' &&
		typeof (value as BodyStream).destroy === 'function' &&
		typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
	);
}

/**
 * Reads a body, counting bytes as they come. Past `maxBytes`: with `cut`, keeps what was read and stops (an error
 * body); without it, fails with AnswerTooLarge. Either way the stream is destroyed, so the connection is closed and
 * nothing more is read into memory. The deadline's signal destroys the stream too (a trickling body).
 */
async function readBody(
	body: unknown,
	maxBytes: number,
	cut: boolean,
	signal: AbortSignal,
): Promise<{ text: string; bytes: number }> {
	if (!isStream(body)) {
		// Not a stream (a helper that already buffered or parsed it): measure what is there.
		if (body === undefined || body === null) return { text: '', bytes: 0 };
		const text = Buffer.isBuffer(body) ? body.toString('utf8') : typeof body === 'string' ? body : JSON.stringify(body);
		const bytes = Buffer.byteLength(text);
		if (bytes > maxBytes && !cut) throw new AnswerTooLarge();
		return { text: cut ? text.slice(0, maxBytes) : text, bytes };
	}
	const stream = body;
	const onAbort = () => stream.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
	if (signal.aborted) onAbort();
	else signal.addEventListener('abort', onAbort, { once: true });
	const chunks: Buffer[] = [];
	let bytes = 0;
	try {
		for await (const chunk of stream) {
			const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
			if (bytes + buffer.length > maxBytes) {
				if (!cut) {
					bytes += buffer.length;
					throw new AnswerTooLarge();
				}
				chunks.push(buffer.subarray(0, maxBytes - bytes));
				bytes = maxBytes;
				break;
			}
			chunks.push(buffer);
			bytes += buffer.length;
		}
	} finally {
		signal.removeEventListener('abort', onAbort);
		// Closes the connection when the loop stopped early (cap, error); a no-op after the end of the body.
		stream.destroy();
	}
	return { text: Buffer.concat(chunks).toString('utf8'), bytes };
}

/** A body's text parsed as JSON when it is JSON, else the text itself ('' when empty). */
function parseBody(text: string): unknown {
	const trimmed = text.trim();
	if (trimmed === '') return '';
	try {
		return JSON.parse(trimmed) as unknown;
	} catch {
		return text;
	}
}

/**
 * The context the request helper is called with. n8n replaces a request's `abortSignal` by the execution's cancel
 * signal in contexts that have one (a node's execution), so the deadline's signal would be dropped there. This
 * context hands n8n a signal that aborts on either: the user's cancellation or the deadline. Everything else is the
 * context itself (its prototype).
 */
function withSignal(context: ApiContext, signal: AbortSignal, cancel: AbortSignal | undefined): ApiContext {
	const own = context as ApiContext & { getExecutionCancelSignal?: () => AbortSignal | undefined };
	if (typeof own.getExecutionCancelSignal !== 'function') return context;
	const combined = cancel ? AbortSignal.any([cancel, signal]) : signal;
	const derived = Object.create(context) as typeof own;
	derived.getExecutionCancelSignal = () => combined;
	return derived;
}

/** The execution's cancel signal (the user stopped the execution), in contexts that have one. */
function cancelSignalOf(context: ApiContext): AbortSignal | undefined {
	const own = context as ApiContext & { getExecutionCancelSignal?: () => AbortSignal | undefined };
	return typeof own.getExecutionCancelSignal === 'function' ? own.getExecutionCancelSignal() : undefined;
}

/** Resolves like `promise`, or rejects when `signal` aborts first (whatever the request helper does with it). */
async function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
	if (signal.aborted) throw signal.reason;
	let onAbort: (() => void) | undefined;
	const aborted = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(signal.reason as Error);
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		return await Promise.race([promise, aborted]);
	} finally {
		if (onAbort) signal.removeEventListener('abort', onAbort);
		// The helper may still settle after the race was decided: a late answer's body is closed, not left open.
		promise.then(
			(late) => {
				if (signal.aborted) {
					const body = (late as { body?: unknown } | undefined)?.body;
					if (isStream(body)) body.destroy();
				}
			},
			() => undefined,
		);
	}
}

/**
 * A request and its full response (status, headers, body parsed as JSON when it is JSON). Throws NodeApiError for
 * every failure. The one place that does HTTP, and the one place of its bounds:
 * - a wall-clock deadline per attempt (RETRY.requestTimeoutMs, or what is left of `timeLimitMs`) covering
 *   connecting, waiting and reading the whole body, enforced by aborting the request;
 * - a byte cap counted while the body is read (READ.maxAnswerBytes; error bodies READ.maxErrorBodyBytes);
 * - the shape check of `expect`, so that a 2xx that does not show success is an error;
 * - the API key redacted from every error body before anything looks at it.
 *
 * n8n's HTTP client is never allowed to follow a redirect (it would send `x-api-key`, and on 307/308 the body, to
 * any host). Redirects are handled here: another origin is an error, the same origin is followed for GET only.
 */
export async function apiRequestFull(this: ApiContext, request: ApiRequest): Promise<ApiResponse> {
	const path = `${API_PREFIX[request.version ?? 'v1']}${request.path}`;
	const unsafe = unsafePathReason(request.path);
	if (unsafe !== undefined) {
		throw new NodeOperationError(this.getNode(), `The node refused to send ${request.method} ${showPath(path)}: ${unsafe}`, {
			itemIndex: request.itemIndex,
			description:
				'IDs and paths must not be "." or "..", and must not contain control characters (such as line breaks) or backslashes, so that every request stays under the API path of the Base URL. Check the ID or path in the node\'s parameters or in the input item. Nothing was sent.',
		});
	}
	const connection = await connectionOf(this);
	const summary: RequestSummary = { method: request.method, path, itemIndex: request.itemIndex };
	const cancel = cancelSignalOf(this);
	const cancelled = () =>
		new NodeOperationError(this.getNode(), `The execution was stopped while ${request.method} ${path} was under way`, {
			itemIndex: request.itemIndex,
			description: 'The request was abandoned. For a request that changes data, check in the CRM whether it took effect.',
		});
	const options: IHttpRequestOptions = {
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
	if (request.qs && Object.keys(request.qs).length > 0) options.qs = request.qs;
	if (request.body !== undefined) options.body = request.body;

	const idempotent = IDEMPOTENT.has(request.method);
	let rateLimitRetries = 0;
	let rateLimitWaited = 0;
	let transientRetries = 0;
	let redirects = 0;
	const deadline = request.timeLimitMs === undefined ? Infinity : Date.now() + request.timeLimitMs;
	const fits = (waitMs: number): boolean => Date.now() + waitMs < deadline;

	let turn: PacerTurn | undefined;
	for (;;) {
		// The key's pacer: first in, first out, within the known budget; a retry keeps its place (its ticket).
		try {
			turn = await connection.pacer.take({
				maxWaitMs: deadline === Infinity ? undefined : Math.max(0, deadline - Date.now()),
				ticket: turn?.ticket,
			});
		} catch (error) {
			throw pacingWaitError(this.getNode(), summary, error as PacingWaitTooLongError, request.timeLimitMs);
		}
		countStats.waited(this, turn.waitedMs);
		const attemptMs = Math.max(1, Math.min(RETRY.requestTimeoutMs, deadline - Date.now()));
		const attemptDeadline = AbortSignal.timeout(attemptMs);
		options.timeout = attemptMs;
		options.abortSignal = attemptDeadline;
		const caller = withSignal(this, attemptDeadline, cancel);

		let response: IN8nHttpFullResponse;
		countStats.request(this);
		try {
			response = (await raceSignal(
				this.helpers.httpRequestWithAuthentication.call(caller, CREDENTIAL_TYPE, options, {
					credentialsDecrypted: connection.credentials,
				}) as Promise<IN8nHttpFullResponse>,
				attemptDeadline,
			)) as IN8nHttpFullResponse;
		} catch (error) {
			connection.pacer.settle(turn);
			if (cancel?.aborted) throw cancelled();
			// Reaching the deadline is not retried: a server that slow would only hold the execution longer.
			if (attemptDeadline.aborted) throw deadlineError(this.getNode(), summary, attemptMs);
			const tls = tlsErrorCode(error);
			if (tls) throw connectionError(this.getNode(), tls, summary, false);
			const code = connectionErrorCode(error);
			if (idempotent && code && transientRetries < RETRY.maxTransientRetries && fits(RETRY.transientBackoffMs * 2 ** transientRetries)) {
				await sleep(boundedWait(RETRY.transientBackoffMs * 2 ** transientRetries++));
				continue;
			}
			throw connectionError(this.getNode(), code, summary, transientRetries > 0);
		}

		const status = response.statusCode;
		// The pacer learns of the answer as soon as its status and headers are here, also when its body then fails to
		// read (deadline, size): the window is known, and the next request need not wait for this one.
		// A 429's wait is remembered only up to RETRY.maxWaitMs (the pacer reads it the way rateLimitWaitMs does).
		connection.pacer.settle(turn, status, response.headers);
		const success = status >= 200 && status < 300;
		let read: { text: string; bytes: number };
		try {
			const stop = cancel ? AbortSignal.any([cancel, attemptDeadline]) : attemptDeadline;
			read = await readBody(response.body, success ? READ.maxAnswerBytes : READ.maxErrorBodyBytes, !success, stop);
		} catch (error) {
			if (error instanceof AnswerTooLarge) {
				throw answerTooLargeError(this.getNode(), summary, status, contentTypeOf(response.headers), READ.maxAnswerBytes);
			}
			if (cancel?.aborted) throw cancelled();
			if (attemptDeadline.aborted) throw deadlineError(this.getNode(), summary, attemptMs, status);
			const tls = tlsErrorCode(error);
			throw connectionError(this.getNode(), tls ?? connectionErrorCode(error) ?? 'ECONNRESET', summary, transientRetries > 0);
		}
		// An error body may echo the key (a 401 "key sk_… is not valid"): redacted before it is parsed or shown. So is
		// a 2xx that is not JSON (a page): no record is lost, and whatever shows its first bytes (the shape check here,
		// the list reader's errors, Custom API Request's output) never shows the key.
		const text = success ? read.text : redactSecrets(read.text, connection.secrets);
		let parsed = parseBody(text);
		if (success && typeof parsed === 'string') parsed = redactSecrets(parsed, connection.secrets);
		const full: ApiResponse = { ...response, body: parsed as IN8nHttpFullResponse['body'], bodyBytes: read.bytes };

		if (success) {
			const mismatch = answerMismatch(full.body, status, request.expect ?? (request.method === 'DELETE' ? 'empty-or-object' : 'any'));
			if (mismatch) {
				throw unexpectedAnswerError(this.getNode(), summary, status, contentTypeOf(response.headers), full.body, mismatch, connection.secrets);
			}
			return full;
		}

		if (status >= 300 && status < 400 && status !== 304) {
			const location = headerValue(response.headers, 'location');
			const base = connection.origin ?? new URL(options.url);
			const target = location === undefined ? undefined : parseUrl(location, options.url);
			if (!target) throw redirectError(this.getNode(), status, undefined, base, summary, 'noLocation');
			if (target.origin !== base.origin || target.origin === 'null') {
				throw redirectError(this.getNode(), status, target, base, summary, 'crossOrigin');
			}
			if (request.method !== 'GET') throw redirectError(this.getNode(), status, target, base, summary, 'method');
			if (redirects >= REDIRECTS.maxSameOriginRedirects) {
				throw redirectError(this.getNode(), status, target, base, summary, 'tooMany');
			}
			redirects++;
			options.url = target.href;
			delete options.qs;
			continue;
		}

		if (status === 429) {
			countStats.rateLimited(this);
			const wait = rateLimitWaitMs(response.headers);
			if (wait > RETRY.maxWaitMs || rateLimitWaited + wait > RETRY.maxTotalRateLimitWaitMs) {
				throw rateLimitTooLongError(this.getNode(), full.body, summary, wait, rateLimitWaited);
			}
			if (rateLimitRetries < RETRY.maxRateLimitRetries && fits(wait)) {
				rateLimitRetries++;
				rateLimitWaited += wait;
				// The pacer now holds the wait; the retry waits for its turn at the top of the loop, ahead of later requests.
				continue;
			}
		} else if (status === 404 && transientRetries > 0 && request.method === 'DELETE' && request.notFoundOnRetryIsDeleted) {
			return full;
		} else if (
			idempotent &&
			TRANSIENT_STATUSES.has(status) &&
			transientRetries < RETRY.maxTransientRetries &&
			fits(RETRY.transientBackoffMs * 2 ** transientRetries)
		) {
			await sleep(boundedWait(RETRY.transientBackoffMs * 2 ** transientRetries++));
			continue;
		}
		throw apiErrorFromResponse(this.getNode(), status, full.body, summary);
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

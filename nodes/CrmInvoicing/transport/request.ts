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
	IWebhookFunctions,
} from 'n8n-workflow';

import { API_PREFIX } from './apiChoices';
import {
	apiErrorFromResponse,
	connectionError,
	connectionErrorCode,
	rateLimitTooLongError,
	redirectError,
	type RequestSummary,
} from './errors';
import { DOCUMENTED_RATE_LIMIT, REDIRECTS, RETRY } from './limits';
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

export const CREDENTIAL_TYPE = 'crmInvoicingApi';

/**
 * Any n8n context that may call the API: node execution, list searches, the trigger's webhook lifecycle, and the
 * trigger's handling of a delivery (Output Full Record).
 */
export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions;

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
}

interface Connection {
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
	return {
		baseUrl,
		origin: parseUrl(baseUrl),
		credentials: { id: '', name: CREDENTIAL_TYPE, type: CREDENTIAL_TYPE, data },
		pacer: pacerFor(baseUrl, String(data.apiKey ?? ''), requestsPerMinuteOf(data)),
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

function headerValue(headers: IN8nHttpFullResponse['headers'], name: string): string | undefined {
	const value = headers?.[name] ?? headers?.[name.toLowerCase()];
	if (value === undefined || value === null) return undefined;
	return Array.isArray(value) ? String(value[0]) : String(value);
}

/**
 * A request and its full response (status, headers, body). Throws NodeApiError for every failure.
 *
 * n8n's HTTP client is never allowed to follow a redirect (it would send `x-api-key`, and on 307/308 the body, to
 * any host). Redirects are handled here: another origin is an error, the same origin is followed for GET only.
 */
export async function apiRequestFull(this: ApiContext, request: ApiRequest): Promise<IN8nHttpFullResponse> {
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
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${connection.baseUrl}${path}`,
		json: true,
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
		if (deadline !== Infinity) options.timeout = Math.max(1, Math.min(RETRY.requestTimeoutMs, deadline - Date.now()));

		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, options, {
				credentialsDecrypted: connection.credentials,
			})) as IN8nHttpFullResponse;
		} catch (error) {
			connection.pacer.settle(turn);
			const code = connectionErrorCode(error);
			if (idempotent && code && transientRetries < RETRY.maxTransientRetries && fits(RETRY.transientBackoffMs * 2 ** transientRetries)) {
				await sleep(boundedWait(RETRY.transientBackoffMs * 2 ** transientRetries++));
				continue;
			}
			throw connectionError(this.getNode(), code, summary, transientRetries > 0);
		}

		const status = response.statusCode;
		// A 429's wait is remembered only up to RETRY.maxWaitMs (the pacer reads it the way rateLimitWaitMs does).
		connection.pacer.settle(turn, status, response.headers);
		if (status >= 200 && status < 300) return response;

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
			const wait = rateLimitWaitMs(response.headers);
			if (wait > RETRY.maxWaitMs || rateLimitWaited + wait > RETRY.maxTotalRateLimitWaitMs) {
				throw rateLimitTooLongError(this.getNode(), response.body, summary, wait, rateLimitWaited);
			}
			if (rateLimitRetries < RETRY.maxRateLimitRetries && fits(wait)) {
				rateLimitRetries++;
				rateLimitWaited += wait;
				// The pacer now holds the wait; the retry waits for its turn at the top of the loop, ahead of later requests.
				continue;
			}
		} else if (status === 404 && transientRetries > 0 && request.method === 'DELETE' && request.notFoundOnRetryIsDeleted) {
			return response;
		} else if (
			idempotent &&
			TRANSIENT_STATUSES.has(status) &&
			transientRetries < RETRY.maxTransientRetries &&
			fits(RETRY.transientBackoffMs * 2 ** transientRetries)
		) {
			await sleep(boundedWait(RETRY.transientBackoffMs * 2 ** transientRetries++));
			continue;
		}
		throw apiErrorFromResponse(this.getNode(), status, response.body, summary);
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

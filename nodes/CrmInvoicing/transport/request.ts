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
import { apiErrorFromResponse, connectionError, connectionErrorCode, type RequestSummary } from './errors';
import { RETRY } from './limits';
import { pacerFor, rateLimitWaitMs, type RateLimitPacer } from './rateLimit';

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

async function openConnection(context: ApiContext): Promise<Connection> {
	const data: ICredentialDataDecryptedObject = await context.getCredentials(CREDENTIAL_TYPE);
	const baseUrl = normalizeBaseUrl(data.baseUrl);
	return {
		baseUrl,
		credentials: { id: '', name: CREDENTIAL_TYPE, type: CREDENTIAL_TYPE, data },
		pacer: pacerFor(baseUrl, String(data.apiKey ?? '')),
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

/** A request and its full response (status, headers, body). Throws NodeApiError for every failure. */
export async function apiRequestFull(this: ApiContext, request: ApiRequest): Promise<IN8nHttpFullResponse> {
	const connection = await connectionOf(this);
	const path = `${API_PREFIX[request.version ?? 'v1']}${request.path}`;
	const summary: RequestSummary = { method: request.method, path, itemIndex: request.itemIndex };
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${connection.baseUrl}${path}`,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: RETRY.requestTimeoutMs,
	};
	if (request.qs && Object.keys(request.qs).length > 0) options.qs = request.qs;
	if (request.body !== undefined) options.body = request.body;

	const idempotent = IDEMPOTENT.has(request.method);
	let rateLimitRetries = 0;
	let rateLimitWaited = 0;
	let transientRetries = 0;
	const deadline = request.timeLimitMs === undefined ? Infinity : Date.now() + request.timeLimitMs;
	const fits = (waitMs: number): boolean => Date.now() + waitMs < deadline;

	for (;;) {
		const delay = connection.pacer.delayBeforeNextRequest();
		if (delay > 0 && !fits(delay)) {
			throw new NodeOperationError(
				this.getNode(),
				`${summary.method} ${summary.path} was not sent: the rate limit asks to wait ${Math.ceil(delay / 1000)} s, longer than its time limit of ${Math.ceil((request.timeLimitMs ?? 0) / 1000)} s`,
				{ description: 'The CRM\'s rate limit is used up for now; the request can be made again later.' },
			);
		}
		if (delay > 0) await sleep(delay);
		connection.pacer.onRequestSent();
		if (deadline !== Infinity) options.timeout = Math.max(1, Math.min(RETRY.requestTimeoutMs, deadline - Date.now()));

		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, options, {
				credentialsDecrypted: connection.credentials,
			})) as IN8nHttpFullResponse;
		} catch (error) {
			const code = connectionErrorCode(error);
			if (idempotent && code && transientRetries < RETRY.maxTransientRetries && fits(RETRY.transientBackoffMs * 2 ** transientRetries)) {
				await sleep(RETRY.transientBackoffMs * 2 ** transientRetries++);
				continue;
			}
			throw connectionError(this.getNode(), code, summary, transientRetries > 0);
		}

		connection.pacer.onResponse(response.headers);
		const status = response.statusCode;
		if (status >= 200 && status < 300) return response;

		if (status === 429) {
			const wait = rateLimitWaitMs(response.headers);
			connection.pacer.onRateLimited(wait);
			if (rateLimitRetries < RETRY.maxRateLimitRetries && rateLimitWaited + wait <= RETRY.maxTotalRateLimitWaitMs && fits(wait)) {
				rateLimitRetries++;
				rateLimitWaited += wait;
				// The pacer now holds the wait; the top of the loop sleeps it.
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
			await sleep(RETRY.transientBackoffMs * 2 ** transientRetries++);
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

import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { apiKeyOf } from '../../../../credentials/CrmInvoicingApi.credentials';
import type { ExpectedAnswer } from './errors';
import { DOCUMENTED_RATE_LIMIT } from './limits';
import { keyIdOf, pacerOf, type RateLimitPacer } from './pacer';
import { secretSpellings } from './redact';
import type { API_PREFIX } from './spec';

/** What a request is (ApiRequest), what it answers (ApiResponse), and what it is sent with (the Connection). */

export const CREDENTIAL_TYPE = 'crmInvoicingApi';

/**
 * Any n8n context that may call the API: node execution, list searches, the trigger's webhook lifecycle, the
 * trigger's handling of a delivery (Output Full Record), and the polling trigger's polls.
 */
export type ApiContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions
	| IPollFunctions;

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
	/** The instant (ms since the epoch) by which the whole request must be done; with timeLimitMs, the earlier wins. */
	deadline?: number;
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
	/**
	 * One attempt only: no retry after a 429, a 502/503/504 or a dropped connection (redirects inside the API are still
	 * followed). For a question whose cost must be exactly one request, such as the trigger's lookup on a signature
	 * that does not match, which unauthenticated senders can cause.
	 */
	once?: boolean;
}

/** A full response as the transport returns it: the body parsed (JSON when it parses, else text), and its size. */
export interface ApiResponse extends IN8nHttpFullResponse {
	/** Bytes of the body as read (after decompression). */
	bodyBytes: number;
}

export interface Connection {
	apiKey: string;
	/** Texts never shown in clear: the API key in each spelling (secretSpellings). */
	secrets: string[];
	/** The credential's Requests per Minute (requestsPerMinuteOf). */
	requestsPerMinute: number;
	baseUrl: string;
	/** The Base URL parsed, when it parses: redirects are compared with it. */
	origin: URL | undefined;
	credentials: ICredentialsDecrypted;
	pacer: RateLimitPacer;
	/** The API key's name in this process's memories (keyIdOf: a hash, never the key itself). */
	keyId: string;
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

async function openConnection(context: ApiContext): Promise<Connection> {
	const data: ICredentialDataDecryptedObject = await context.getCredentials(CREDENTIAL_TYPE);
	const baseUrl = normalizeBaseUrl(data.baseUrl);
	// Trimmed once, by the credential's own reader: the key sent (authenticate gets these data) is the key redacted.
	const apiKey = apiKeyOf(data);
	const requestsPerMinute = requestsPerMinuteOf(data);
	const keyId = keyIdOf(baseUrl, apiKey);
	let origin: URL | undefined;
	try {
		origin = new URL(baseUrl);
	} catch {
		origin = undefined;
	}
	return {
		apiKey,
		secrets: secretSpellings(apiKey),
		requestsPerMinute,
		baseUrl,
		origin,
		credentials: {
			id: '',
			name: CREDENTIAL_TYPE,
			type: CREDENTIAL_TYPE,
			data: { ...data, apiKey },
		},
		pacer: pacerOf(keyId, requestsPerMinute),
		keyId,
	};
}

export function connectionOf(context: ApiContext): Promise<Connection> {
	let connection = connections.get(context);
	if (!connection) {
		connection = openConnection(context);
		connections.set(context, connection);
		connection.catch(() => connections.delete(context));
	}
	return connection;
}

/**
 * The credential's API key, Requests per Minute and the key's id (Connection.keyId), from the context's one read of
 * the credential (connectionOf).
 */
export async function credentialOf(
	context: ApiContext,
): Promise<{ apiKey: string; requestsPerMinute: number; keyId: string }> {
	const { apiKey, requestsPerMinute, keyId } = await connectionOf(context);
	return { apiKey, requestsPerMinute, keyId };
}

/**
 * Waits for the context's share of its API key (`perMinute` requests in any 60 s, for every caller of the key in this
 * process asking the same share), and takes one request of it: the polling triggers ask for half the key this way,
 * before each page, so the key has one limiter (its pacer), of which they take a part.
 */
export async function takeShare(context: ApiContext, perMinute: number): Promise<void> {
	await (await connectionOf(context)).pacer.takeShare(perMinute);
}

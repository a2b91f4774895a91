import type { IDataObject, IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';

import { apiKeyOf, baseUrlOf } from '../../../../credentials/CrmInvoicingApi.credentials';
import { BoundedMap } from '../boundedMap';
import type { Deadline } from '../deadline';
import { sha256 } from '../hash';
import { cut } from '../values';
import type { ExpectedAnswer } from './errors';
import { DOCUMENTED_RATE_LIMIT } from './limits';
import { RateLimitPacer } from './rateLimit';
import { secretSpellings } from './redact';

/** What a request is, what it is sent with (the Connection), and which paths it may take. */

export const CREDENTIAL_TYPE = 'crmInvoicingApi';

/** Path prefixes of the two API versions, appended to the Base URL (spec §9). */
export const API_PREFIX = { v1: '/api/v1', v2: '/api/v2' } as const;
export type ApiVersion = keyof typeof API_PREFIX;

/** What the transport calls of an n8n context (an execution, a list search, a hook, a webhook, a poll). */
export type ApiContext = Pick<IExecuteFunctions, 'getNode' | 'getCredentials'> & {
	getExecutionCancelSignal?(): AbortSignal | undefined;
	helpers: Pick<IExecuteFunctions['helpers'], 'httpRequestWithAuthentication'>;
};

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path under the version prefix, e.g. `/leads/lead_1`. */
	path: string;
	version?: ApiVersion;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[];
	itemIndex?: number;
	/** By when the whole request, waits and retries included, must be done. */
	deadline?: Deadline;
	/** What a 2xx must hold (unexpectedAnswerError): default `'any'`, `'empty-or-object'` for DELETE. */
	expect?: ExpectedAnswer;
	/** One attempt (redirects still followed): a question strangers can cause must cost exactly one request. */
	once?: boolean;
}

/** What a request is sent with: the credential's Base URL, its key (trimmed, and each spelling the redactor seeks). */
async function open(context: ApiContext) {
	const data = await context.getCredentials(CREDENTIAL_TYPE);
	const baseUrl = baseUrlOf(data);
	// Trimmed once, by the credential's own reader: the key sent (authenticate gets these data) is the key redacted.
	const apiKey = apiKeyOf(data);
	// The key as saved, spaces and all: 0.3 and 0.4 wrapped the trigger's secret under it (trigger/store.ts).
	const savedKey = String(data.apiKey ?? '');
	const type = CREDENTIAL_TYPE;
	const secrets = secretSpellings(apiKey);
	const auth = { credentialsDecrypted: { id: '', name: type, type, data: { ...data, apiKey } } };
	const rate = Math.floor(Number(data.requestsPerMinute));
	const requestsPerMinute = rate >= 1 && rate < Infinity ? rate : DOCUMENTED_RATE_LIMIT.requests;
	// The key's name in this process's memories: a hash with the Base URL, never the key itself.
	const keyId = sha256(`${baseUrl}\n${apiKey}`, 24);
	return { apiKey, savedKey, secrets, requestsPerMinute, baseUrl, auth, keyId };
}
export type Connection = Awaited<ReturnType<typeof open>>;

const connections = new WeakMap<object, Promise<Connection>>();

/** The context's Connection, read once per context (not per request), opening no pacer (the credential's Test). */
export function credentialOf(context: ApiContext): Promise<Connection> {
	const known = connections.get(context);
	if (known) return known;
	const opened = open(context);
	connections.set(context, opened);
	opened.catch(() => connections.delete(context));
	return opened;
}

/** Pacers by key and rate, at most 1,000 (the least recently used dropped: a key unused that long has none waiting). */
const pacers = new BoundedMap<string, RateLimitPacer>(1_000);

/** The one rate limiter of an API key and rate, shared by all executions in this n8n process. */
export function pacerOf(key: Pick<Connection, 'keyId' | 'requestsPerMinute'>): RateLimitPacer {
	const rate = key.requestsPerMinute;
	return pacers.getOrSet(`${key.keyId}\n${rate}`, () => new RateLimitPacer(rate));
}

/**
 * One request of the context's share (`perMinute` in any 60 s) of its key's limiter: the poller's turn per page; false
 * when it would come after `maxWaitMs`.
 */
export const takeShare = async (
	context: ApiContext,
	perMinute: number,
	maxWaitMs?: number,
): Promise<boolean> => await pacerOf(await credentialOf(context)).takeShare(perMinute, maxWaitMs);

const isDotSegment = (segment: string) => segment === '.' || segment === '..';

/** `text` with its percent-escapes of ASCII decoded: what the path rules read (no other escape decodes to ASCII). */
const decodeAscii = (text: string): string =>
	text.replace(/%[0-7][0-9a-f]/gi, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));

/** A path as it can be shown in a message: control characters written out (`\n`), cut when long. */
export const showPath = (path: string): string => JSON.stringify(cut(path, 200)).slice(1, -1);

/**
 * Why a path must not be sent, or undefined: the one check of every path, a redirect's target and Custom API Request's
 * "Path". Refused: control characters, a backslash (URL parsers read it as "/"), "." or ".." segments (raw or encoded).
 */
export function unsafePathReason(path: string): string | undefined {
	// Only the ASCII escapes are decoded, so that no malformed one (`%E0` alone) hides a "\" or ".." beside it.
	// eslint-disable-next-line no-control-regex
	if (/[\u0000-\u001f\u007f]/.test(decodeAscii(path)))
		return 'it contains a control character (such as a line break or a tab)';
	const decoded = decodeAscii(path.split(/[?#]/, 1)[0]);
	if (decoded.includes('\\')) return 'it contains a backslash (\\)';
	const dots = decoded.split('/').find(isDotSegment);
	return dots && `it has a "${dots}" segment, which would point outside the API path`;
}

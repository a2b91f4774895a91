import type { IDataObject, IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';

import { apiKeyOf, baseUrlOf } from '../../../../credentials/CrmInvoicingApi.credentials';
import { BoundedMap } from '../boundedMap';
import { sha256 } from '../hash';
import { cut } from '../values';
import type { ExpectedAnswer } from './errors';
import { DOCUMENTED_RATE_LIMIT } from './limits';
import { RateLimitPacer } from './rateLimit';
import { secretSpellings } from './redact';

export const CREDENTIAL_TYPE = 'crmInvoicingApi';

/** spec §9 */
export const API_PREFIX = { v1: '/api/v1', v2: '/api/v2' } as const;
export type ApiVersion = keyof typeof API_PREFIX;

export type ApiContext = Pick<IExecuteFunctions, 'getNode' | 'getCredentials'> & {
	getExecutionCancelSignal?(): AbortSignal | undefined;
	helpers: Pick<IExecuteFunctions['helpers'], 'httpRequestWithAuthentication'>;
};

export interface ApiRequest {
	method: IHttpRequestMethods;
	path: string;
	version?: ApiVersion;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[];
	itemIndex?: number;
	/** Ms since the epoch (shared/deadline.ts). */
	deadline?: number;
	/** Default `'any'`; `'empty-or-object'` for DELETE. */
	expect?: ExpectedAnswer;
	/** Redirects still followed; a question strangers can cause must cost exactly one request. */
	once?: boolean;
}

async function open(context: ApiContext) {
	const data = await context.getCredentials(CREDENTIAL_TYPE);
	const baseUrl = baseUrlOf(data);
	// Trimmed once, by the credential's reader: the key sent is the key redacted.
	const apiKey = apiKeyOf(data);
	const rate = Math.floor(Number(data.requestsPerMinute));
	return {
		apiKey,
		// 0.3 and 0.4 wrapped the trigger's secret under the key as saved (trigger/store.ts).
		savedKey: String(data.apiKey ?? ''),
		secrets: secretSpellings(apiKey),
		requestsPerMinute: rate >= 1 && rate < Infinity ? rate : DOCUMENTED_RATE_LIMIT.requests,
		baseUrl,
		auth: {
			credentialsDecrypted: {
				id: '',
				name: CREDENTIAL_TYPE,
				type: CREDENTIAL_TYPE,
				data: { ...data, apiKey },
			},
		},
		// Never the key itself.
		keyId: sha256(`${baseUrl}\n${apiKey}`, 24),
	};
}
export type Connection = Awaited<ReturnType<typeof open>>;

const connections = new WeakMap<object, Promise<Connection>>();

/** Read once per context; opens no pacer (the credential's Test). */
export function credentialOf(context: ApiContext) {
	const known = connections.get(context);
	if (known) return known;
	const opened = open(context);
	connections.set(context, opened);
	opened.catch(() => connections.delete(context));
	return opened;
}

// For the execution hint; kept for one run (one n8n context) only.
const fresh = () => ({ requests: 0, pages: 0, mostPagesOfOneList: 0, rateLimited: 0, waitedMs: 0 });
export type RunStats = ReturnType<typeof fresh>;
const statsByContext = new WeakMap<object, RunStats>();

export function runStatsOf(context: object) {
	const stats = statsByContext.get(context) ?? fresh();
	statsByContext.set(context, stats);
	return stats;
}

/** LRU: a key unused that long has none waiting. */
const pacers = new BoundedMap<string, RateLimitPacer>(1_000);

/** Shared by all executions in this n8n process. */
export function pacerOf({
	keyId,
	requestsPerMinute: rate,
}: Pick<Connection, 'keyId' | 'requestsPerMinute'>) {
	return pacers.getOrSet(`${keyId}\n${rate}`, () => new RateLimitPacer(rate));
}

/** The poller's turn per page: `perMinute` in any 60 s; false when it would come after `maxWaitMs`. */
export const takeShare = async (context: ApiContext, perMinute: number, maxWaitMs?: number) =>
	await pacerOf(await credentialOf(context)).takeShare(perMinute, maxWaitMs);

const isDotSegment = (segment: string) => segment === '.' || segment === '..';

/** No other escape decodes to ASCII. */
const decodeAscii = (text: string) =>
	text.replace(/%[0-7][0-9a-f]/gi, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));

export const showPath = (path: string) => JSON.stringify(cut(path, 200)).slice(1, -1);

/** The one path check (also of redirects and Custom API Request's "Path"); URL parsers read "\" as "/". */
export function unsafePathReason(path: string) {
	// Only the ASCII escapes are decoded, so that no malformed one (`%E0` alone) hides a "\" or ".." beside it.
	// eslint-disable-next-line no-control-regex
	if (/[\u0000-\u001f\u007f]/.test(decodeAscii(path)))
		return 'it contains a control character (such as a line break or a tab)';
	const decoded = decodeAscii(path.split(/[?#]/, 1)[0]);
	if (decoded.includes('\\')) return 'it contains a backslash (\\)';
	const dots = decoded.split('/').find(isDotSegment);
	return dots && `it has a "${dots}" segment, which would point outside the API path`;
}

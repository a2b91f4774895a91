/** Shared set-up of the transport tests: a fresh execution context per test, and a log of the requests nock saw. */
import nock from 'nock';

import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { createExecuteContext, TEST_CREDENTIALS } from '../../helpers/harness';
import type { ExecuteContextParts } from '../../helpers/harness';

export const BASE = TEST_CREDENTIALS.baseUrl;

let keys = 0;

/** A real ExecuteContext with an API key of its own: a window one test spends holds back no other (pacing is per key). */
export function freshContext(
	apiKey = `${TEST_CREDENTIALS.apiKey}_${++keys}`,
): ExecuteContextParts & { apiKey: string } {
	const parts = createExecuteContext({
		nodeType: new CrmInvoicing(),
		parameters: { resource: 'lead', operation: 'get' },
		credentials: { ...TEST_CREDENTIALS, baseUrl: BASE, apiKey },
	});
	return { ...parts, apiKey };
}

/** A request as nock saw it (`path` with its query string). */
export interface SeenRequest {
	method: string;
	path: string;
	apiKey: string | undefined;
	body: unknown;
}

/** Answers an interceptor while logging the request into `seen`. */
export function replyLogging(
	interceptor: nock.Interceptor,
	seen: SeenRequest[],
	status: number,
	body?: nock.ReplyBody,
	headers?: nock.ReplyHeaders,
): nock.Scope {
	return interceptor.reply(function (path, requestBody) {
		const key = this.req.headers['x-api-key'];
		seen.push({
			method: this.req.method ?? '',
			path,
			apiKey: Array.isArray(key) ? key[0] : key,
			body: requestBody === '' ? undefined : requestBody,
		});
		return [status, body ?? '', headers ?? {}];
	});
}

export { useNock as setUpNock } from '../../helpers/nock';
export { errorOf } from '../../helpers/harness';

/**
 * A low-level network error for `replyWithError`. nock 14 needs an Error instance here: a plain object such as
 * `{ code: 'ECONNRESET' }` makes its interceptor throw inside the mocked socket and the request never settles
 * (nock/nock#2789, #2829).
 */
export function networkError(
	code: string,
	message = code === 'ECONNRESET' ? 'socket hang up' : code,
): Error {
	return Object.assign(new Error(message), { code });
}

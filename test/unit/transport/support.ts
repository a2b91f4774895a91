/** Shared set-up of the transport tests: a fresh execution context per test, and a log of the requests nock saw. */
import nock from 'nock';
import { sleep } from 'n8n-workflow';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { apiRequest } from '../../../nodes/CrmInvoicing/shared/transport';
import type { ApiContext } from '../../../nodes/CrmInvoicing/shared/transport';
import { createExecuteContext, TEST_CREDENTIALS } from '../../helpers/harness';
import type { ExecuteContextParts } from '../../helpers/harness';

export const BASE = TEST_CREDENTIALS.baseUrl;

/** The path of the request `getLead` sends, as nock sees it. */
export const LEAD_1 = '/api/v1/leads/lead_1';

let keys = 0;

/** A real ExecuteContext whose credential holds exactly `credentials` (no test default: pacing reads them). */
export function contextWith(credentials: ICredentialDataDecryptedObject): ExecuteContextParts {
	return createExecuteContext({
		nodeType: new CrmInvoicing(),
		parameters: { resource: 'lead', operation: 'get' },
		credentials,
	});
}

/** A real ExecuteContext with an API key of its own: a window one test spends holds back no other (pacing is per key). */
export function freshContext(
	apiKey = `${TEST_CREDENTIALS.apiKey}_${++keys}`,
): ExecuteContextParts & { apiKey: string } {
	return { ...contextWith({ ...TEST_CREDENTIALS, baseUrl: BASE, apiKey }), apiKey };
}

/** GET /leads/lead_1 through the request function, with `extra` request options. */
export const getLead = (
	context: ApiContext = freshContext().context,
	extra: Partial<Parameters<typeof apiRequest>[0]> = {},
) => apiRequest.call(context, { method: 'GET', path: '/leads/lead_1', ...extra });

/** n8n's `sleep`, which the test file mocks (jest.mock must stand in it), its calls cleared before each test. */
export function mockedSleep(): jest.MockedFunction<typeof sleep> {
	beforeEach(() => jest.mocked(sleep).mockClear());
	return jest.mocked(sleep);
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
export { shownOf } from '../../helpers/transport';

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

/** Error answers and failed connections: message and what to do, which requests are retried, TLS failures. */
import nock from 'nock';
import { NodeApiError } from 'n8n-workflow';

import { apiRequest } from '../../../nodes/CrmInvoicing/shared/transport';
import { apiErrorFromResponse } from '../../../nodes/CrmInvoicing/shared/transport/errors';
import { RETRY } from '../../../nodes/CrmInvoicing/shared/transport/limits';
import {
	BASE,
	errorOf,
	freshContext,
	getLead,
	LEAD_1,
	mockedSleep,
	networkError,
	replyLogging,
	setUpNock,
	shownOf,
} from './support';
import type { SeenRequest } from './support';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn().mockResolvedValue(undefined),
}));

setUpNock();
const sleepMock = mockedSleep();

/** What to do, by status. */
const TODO: Record<number, RegExp> = {
	400: /rejected a value: "email must be a valid email address"\. Correct that field/,
	401: /API key was missing or not accepted\. Open the "CRM Invoicing API" credential/,
	403: /not allowed to do this \(DELETE \/api\/v1\/webhooks\/wh_1\)\. Ask a workspace admin to give that user the permission/,
	404: /Nothing was found at GET \/api\/v1\/leads\/lead_missing\. Check that the ID is right/,
	409: /changed or already exists/,
	500: /CRM service failed to handle the request\. It was not retried, so that nothing is created twice/,
	502: /CRM service failed to handle the request \(the node retried it\)/,
	429: /allows 60 requests per minute per API key\. The node waited and retried/,
};

/** The requests a status draws: a 502 and a 429 are retried (this 429 asks for 1 s each time). */
const REQUESTS: Record<number, number> = {
	502: 1 + RETRY.maxTransientRetries,
	429: 1 + RETRY.maxRateLimitRetries,
};

describe('error statuses', () => {
	it.each([
		[400, 'POST', '/leads', 'VALIDATION_ERROR', 'email must be a valid email address'],
		[401, 'GET', '/leads/lead_1', 'UNAUTHORIZED', 'An API key is required in the x-api-key header'],
		[403, 'DELETE', '/webhooks/wh_1', 'FORBIDDEN', 'You do not have permission to delete webhooks'],
		[404, 'GET', '/leads/lead_missing', 'NOT_FOUND', 'Lead not found'],
		// a Node.js code in the API's message is kept (n8n would swap it for its own text)
		[409, 'POST', '/leads', 'CONFLICT', 'Import lock held (EEXIST), try again'],
		[500, 'POST', '/leads', 'INTERNAL_ERROR', 'Unexpected error'],
		[502, 'GET', '/leads/lead_1', 'BAD_GATEWAY', 'Upstream failed'],
		[429, 'GET', '/leads/lead_1', 'RATE_LIMITED', 'Too many requests'],
	] as const)(
		'%s on %s %s → NodeApiError with status, code, message and what to do',
		async (status, method, path, code, message) => {
			const requests = REQUESTS[status] ?? 1;
			const seen: SeenRequest[] = [];
			const { context, apiKey } = freshContext();
			const headers: Record<string, string> = status === 429 ? { 'Retry-After': '1' } : {};
			const interceptor = nock(BASE).intercept(`/api/v1${path}`, method).times(requests);
			replyLogging(interceptor, seen, status, { error: { code, message } }, headers);
			const body = method === 'POST' ? { name: 'Jane', email: 'nope' } : undefined;

			const error = await errorOf(apiRequest.call(context, { method, path, body, itemIndex: 0 }));

			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toBe(`The CRM API answered ${status} ${code}: ${message}`);
			expect(error.description).toMatch(TODO[status]);
			expect(error.httpCode).toBe(String(status));
			expect(seen).toHaveLength(requests);
			expect(sleepMock).toHaveBeenCalledTimes(requests - 1);
			expect(seen.every((request) => request.apiKey === apiKey)).toBe(true);
			expect(shownOf(error)).not.toContain(apiKey);
		},
	);

	it.each([
		[
			'a flat { code, message } body',
			404,
			{ code: 'NOT_FOUND', message: 'No such lead' },
			'The CRM API answered 404 NOT_FOUND: No such lead',
		],
		['an empty body: the status alone', 500, '', 'The CRM API answered 500'],
	])('reads %s', async (_name, status, body, message) => {
		nock(BASE).get('/api/v1/leads/x').reply(status, body);
		const error = await errorOf(
			apiRequest.call(freshContext().context, { method: 'GET', path: '/leads/x' }),
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(message);
	});

	it('a 2 MB proxy HTML page (502) → a short message with the page title, not the markup', async () => {
		const seen: SeenRequest[] = [];
		const { context, apiKey } = freshContext();
		const html =
			'<html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head>' +
			`<body><center><h1>502 Bad Gateway</h1></center>${'<p>x</p>'.repeat(260_000)}</body></html>`;
		replyLogging(nock(BASE).post('/api/v1/leads'), seen, 502, html, {
			'Content-Type': 'text/html',
		});

		const error = await errorOf(
			apiRequest.call(context, { method: 'POST', path: '/leads', body: { name: 'Jane' } }),
		);

		expect(error.message).toBe(
			'The CRM API answered 502 with a page that is not JSON: "502 Bad Gateway"',
		);
		expect(error.description).toMatch(/CRM service failed/);
		expect(seen).toHaveLength(1);
		expect(shownOf(error)).not.toContain(apiKey);
	});

	it('an HTML page without a title → its text without the tags, shortened', () => {
		const node = freshContext().context.getNode();
		const page = `<html><body><p>Service ${'unavailable '.repeat(40)}</p></body></html>`;
		const error = apiErrorFromResponse(node, 503, page, { method: 'GET', path: '/api/v1/leads' });
		const text = /: "(.*)"$/.exec(error.message)?.[1];
		expect(text).toMatch(/^Service unavailable unavailable.*…$/);
		expect(text!.length).toBeLessThanOrEqual(161);
	});

	it('a 500 on GET says the service failed, not that the node retried it (only 502/503/504 are retried)', () => {
		const node = freshContext().context.getNode();
		const get = { method: 'GET', path: '/api/v1/leads' };
		expect(apiErrorFromResponse(node, 500, '', get).description).not.toMatch(/retried/);
		expect(apiErrorFromResponse(node, 500, '', get).description).toMatch(/try again later/);
		expect(apiErrorFromResponse(node, 503, '', get).description).toMatch(/the node retried it/);
	});
});

/** What the server answers, request by request: a status (with an error body) or a network error's code. */
type Answer = number | string;
const BACKOFFS = Array.from(
	{ length: RETRY.maxTransientRetries },
	(_, n) => RETRY.transientBackoffMs * 2 ** n,
);
const always = (answer: Answer): Answer[] => Array(RETRY.maxTransientRetries + 2).fill(answer);
const NOT_RETRIED = /It was not retried, so that nothing is created twice/;
const POST_DROPPED =
	/Check the Base URL .* The request was not retried, so that nothing is created twice/;
const RETRIED = /the node retried it/;
const GAVE_UP = /The node retried the request before giving up\./;
const EVERY_TRY = 1 + RETRY.maxTransientRetries;
const ONE_BACKOFF = [RETRY.transientBackoffMs];

describe('which requests are retried', () => {
	it.each<
		[string, 'GET' | 'POST' | 'PATCH' | 'DELETE', Answer[], number, number[], string | RegExp]
	>([
		['POST after a 503', 'POST', always(503), 1, [], NOT_RETRIED],
		['POST after a dropped connection', 'POST', ['ECONNRESET', 201], 1, [], POST_DROPPED],
		['PATCH after a 502', 'PATCH', always(502), 1, [], NOT_RETRIED],
		['GET after a 503', 'GET', [503, 200], 2, ONE_BACKOFF, 'done'],
		['GET after a dropped connection', 'GET', ['ECONNRESET', 200], 2, ONE_BACKOFF, 'done'],
		['DELETE after a 502', 'DELETE', [502, 204], 2, ONE_BACKOFF, 'done'],
		['GET 504 every time: doubling back-off', 'GET', always(504), EVERY_TRY, BACKOFFS, RETRIED],
		['GET dropped every time', 'GET', always('ECONNRESET'), EVERY_TRY, BACKOFFS, GAVE_UP],
		['GET to an unknown host every time', 'GET', always('ENOTFOUND'), EVERY_TRY, BACKOFFS, GAVE_UP],
		['GET 500 (not transient)', 'GET', always(500), 1, [], /try again later/],
	])('%s → %s: %i request(s)', async (_name, method, answers, requests, sleeps, outcome) => {
		const { context, apiKey } = freshContext();
		const scopes = answers.map((answer) => {
			const interceptor = nock(BASE).intercept(LEAD_1, method);
			if (typeof answer === 'string') return interceptor.replyWithError(networkError(answer));
			return interceptor.reply(
				answer,
				answer < 300 ? { id: 'lead_1' } : { error: { code: 'DOWN', message: 'x' } },
			);
		});
		const body = method === 'POST' || method === 'PATCH' ? { name: 'Jane' } : undefined;

		const result = apiRequest.call(context, { method, path: '/leads/lead_1', body });

		if (outcome === 'done')
			expect(await result).toEqual(answers[1] === 204 ? {} : { id: 'lead_1' });
		else {
			const error = await errorOf(result);
			const last = answers[requests - 1];
			expect(error.message).toBe(
				typeof last === 'string'
					? `Could not reach the CRM API for ${method} /api/v1/leads/lead_1 (${last})`
					: `The CRM API answered ${last} DOWN: x`,
			);
			expect(error.description).toMatch(outcome);
			expect(shownOf(error)).not.toContain(apiKey);
		}
		expect(scopes.filter((scope) => scope.isDone())).toHaveLength(requests);
		expect(sleepMock.mock.calls).toEqual(sleeps.map((ms) => [ms]));
	});
});

describe('TLS failures: the code and what to check, never "Could not reach", never retried', () => {
	const CHECK = /failed n8n's check/;
	const PRIVATE_CA = /private certificate authority/;
	it.each([
		['DEPTH_ZERO_SELF_SIGNED_CERT', /is self-signed/, /NODE_EXTRA_CA_CERTS/],
		['SELF_SIGNED_CERT_IN_CHAIN', CHECK, PRIVATE_CA],
		['CERT_HAS_EXPIRED', CHECK, /Expired or not yet valid: check the n8n server's clock/],
		['CERT_NOT_YET_VALID', CHECK, /not yet valid: check the n8n server's clock/],
		['ERR_TLS_CERT_ALTNAME_INVALID', CHECK, /another host name \(ALTNAME\)/],
		['UNABLE_TO_VERIFY_LEAF_SIGNATURE', CHECK, PRIVATE_CA],
		['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', CHECK, PRIVATE_CA],
		['ERR_SSL_WRONG_VERSION_NUMBER', CHECK, /did not answer with TLS \(http:\/\//],
		['CERT_REVOKED', CHECK, /install a valid certificate/],
	])('%s', async (code, problem, toCheck) => {
		const scope = nock(BASE)
			.get(LEAD_1)
			.replyWithError(networkError(code, `request failed: ${code}`));

		const error = await errorOf(getLead());

		expect(scope.isDone()).toBe(true);
		expect(error.message).toMatch(problem);
		expect(error.message).toMatch(
			new RegExp(`\\(${code}\\); the node did not send GET /api/v1/leads/lead_1$`),
		);
		expect(error.message).not.toMatch(/Could not reach/);
		expect(error.description).toMatch(/valid certificate for this host name/);
		expect(error.description).toMatch(toCheck);
	});

	it.each([
		['self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT'],
		['certificate has expired', 'CERT_HAS_EXPIRED'],
		["Hostname/IP does not match certificate's altnames", 'ERR_TLS_CERT_ALTNAME_INVALID'],
	])('n8n 1.x hands on only the message "%s": still named as %s', async (message, code) => {
		nock(BASE).get(LEAD_1).replyWithError(new Error(message));
		const error = await errorOf(getLead());
		expect(error.message).toMatch(new RegExp(`\\(${code}\\); the node did not send GET`));
	});
});

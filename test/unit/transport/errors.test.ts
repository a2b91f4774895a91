import nock from 'nock';
import { NodeApiError, sleep } from 'n8n-workflow';

import { apiRequest } from '../../../nodes/CrmInvoicing/shared/transport';
import { apiErrorFromResponse } from '../../../nodes/CrmInvoicing/shared/transport/errors';
import { RETRY } from '../../../nodes/CrmInvoicing/shared/transport/limits';
import { TEST_CREDENTIALS } from '../../helpers/harness';
import { BASE, errorOf, freshContext, networkError, replyLogging, setUpNock } from './support';
import type { SeenRequest } from './support';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn().mockResolvedValue(undefined),
}));

const sleepMock = jest.mocked(sleep);

setUpNock();
beforeEach(() => sleepMock.mockClear());

/** Nothing of the error, as n8n shows, logs or stores it, may hold the API key. */
function expectNoKey(error: Error & Record<string, unknown>, apiKey: string): void {
	expect(error.message).not.toContain(apiKey);
	expect(String(error.description ?? '')).not.toContain(apiKey);
	expect(JSON.stringify(error)).not.toContain(apiKey);
	expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain(apiKey);
	expect(String(error.stack ?? '')).not.toContain(apiKey);
}

describe('error statuses', () => {
	const cases: Array<{
		status: number;
		method: 'GET' | 'POST' | 'DELETE';
		path: string;
		code: string;
		message: string;
		description: RegExp;
		requests: number;
	}> = [
		{
			status: 400,
			method: 'POST',
			path: '/leads',
			code: 'VALIDATION_ERROR',
			message: 'email must be a valid email address',
			description: /rejected a value: "email must be a valid email address"\. Correct that field/,
			requests: 1,
		},
		{
			status: 401,
			method: 'GET',
			path: '/leads/lead_1',
			code: 'UNAUTHORIZED',
			message: 'An API key is required in the x-api-key header',
			description: /API key was missing or not accepted\. Open the "CRM Invoicing API" credential/,
			requests: 1,
		},
		{
			status: 403,
			method: 'DELETE',
			path: '/webhooks/wh_1',
			code: 'FORBIDDEN',
			message: 'You do not have permission to delete webhooks',
			description:
				/not allowed to do this \(DELETE \/api\/v1\/webhooks\/wh_1\)\. Ask a workspace admin to give that user the permission/,
			requests: 1,
		},
		{
			status: 404,
			method: 'GET',
			path: '/leads/lead_missing',
			code: 'NOT_FOUND',
			message: 'Lead not found',
			description:
				/Nothing was found at GET \/api\/v1\/leads\/lead_missing\. Check that the ID is right/,
			requests: 1,
		},
		{
			status: 500,
			method: 'POST',
			path: '/leads',
			code: 'INTERNAL_ERROR',
			message: 'Unexpected error',
			description:
				/CRM service failed to handle the request\. It was not retried, so that nothing is created twice/,
			requests: 1,
		},
		{
			status: 502,
			method: 'GET',
			path: '/leads/lead_1',
			code: 'BAD_GATEWAY',
			message: 'Upstream failed',
			description: /CRM service failed to handle the request \(the node retried it\)/,
			requests: 1 + RETRY.maxTransientRetries,
		},
	];

	it.each(cases)(
		'$status on $method $path → NodeApiError with status, code, message and what to do',
		async ({ status, method, path, code, message, description, requests }) => {
			const seen: SeenRequest[] = [];
			const { context, apiKey } = freshContext();
			replyLogging(nock(BASE).intercept(`/api/v1${path}`, method).times(requests), seen, status, {
				error: { code, message },
			});

			const error = await errorOf(
				apiRequest.call(context, {
					method,
					path,
					body: method === 'POST' ? { name: 'Jane', email: 'nope' } : undefined,
					itemIndex: 0,
				}),
			);

			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toBe(`The CRM API answered ${status} ${code}: ${message}`);
			expect(error.description).toMatch(description);
			expect(error.httpCode).toBe(String(status));
			expect(seen).toHaveLength(requests);
			expect(seen.every((request) => request.apiKey === apiKey)).toBe(true);
			expectNoKey(error, apiKey);
		},
	);

	it('429 after the retries are used up → names the rate limit', async () => {
		const seen: SeenRequest[] = [];
		const { context, apiKey } = freshContext();
		replyLogging(
			nock(BASE)
				.get('/api/v1/leads/lead_1')
				.times(RETRY.maxRateLimitRetries + 1),
			seen,
			429,
			{ error: { code: 'RATE_LIMITED', message: 'Too many requests' } },
			{ 'Retry-After': '1', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '1' },
		);

		const error = await errorOf(apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' }));

		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('The CRM API answered 429 RATE_LIMITED: Too many requests');
		expect(error.description).toMatch(
			/allows 60 requests per minute per API key\. The node waited and retried/,
		);
		expect(seen).toHaveLength(RETRY.maxRateLimitRetries + 1);
		expectNoKey(error, apiKey);
	});

	it('reads a flat { code, message } body too', async () => {
		const { context } = freshContext();
		nock(BASE).get('/api/v1/leads/x').reply(404, { code: 'NOT_FOUND', message: 'No such lead' });

		const error = await errorOf(apiRequest.call(context, { method: 'GET', path: '/leads/x' }));

		expect(error.message).toBe('The CRM API answered 404 NOT_FOUND: No such lead');
	});

	it('keeps an API message that happens to name a Node.js error code (n8n would swap it for its own text)', async () => {
		const { context } = freshContext();
		nock(BASE)
			.post('/api/v1/leads')
			.reply(409, { error: { code: 'CONFLICT', message: 'Import lock held (EEXIST), try again' } });

		const error = await errorOf(
			apiRequest.call(context, { method: 'POST', path: '/leads', body: { name: 'x' } }),
		);

		expect(error.message).toBe(
			'The CRM API answered 409 CONFLICT: Import lock held (EEXIST), try again',
		);
		expect(error.description).toMatch(/changed or already exists/);
	});

	it('gives the status alone when the body is empty', async () => {
		const { context } = freshContext();
		nock(BASE).post('/api/v1/leads').reply(500);

		const error = await errorOf(
			apiRequest.call(context, { method: 'POST', path: '/leads', body: { name: 'x' } }),
		);

		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('The CRM API answered 500');
	});

	it('a proxy HTML page (502) → a clear message with the page title, not the markup', async () => {
		const seen: SeenRequest[] = [];
		const { context, apiKey } = freshContext();
		const html =
			'<html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head>' +
			'<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
		replyLogging(nock(BASE).post('/api/v1/leads'), seen, 502, html, {
			'Content-Type': 'text/html',
		});

		const error = await errorOf(
			apiRequest.call(context, { method: 'POST', path: '/leads', body: { name: 'Jane' } }),
		);

		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			'The CRM API answered 502 with a page that is not JSON: "502 Bad Gateway"',
		);
		expect(error.message).not.toMatch(/<|>/);
		expect(error.description).toMatch(/CRM service failed/);
		expect(seen).toHaveLength(1);
		expectNoKey(error, apiKey);
	});

	it('an HTML page without a title → its text without the tags, shortened', () => {
		const node = freshContext().context.getNode();
		const page = `<html><body><p>Service ${'unavailable '.repeat(40)}</p></body></html>`;
		const error = apiErrorFromResponse(node, 503, page, { method: 'GET', path: '/api/v1/leads' });
		const text = /: "(.*)"$/.exec(error.message)?.[1];
		expect(text).toMatch(/^Service unavailable unavailable/);
		expect(text!.length).toBeLessThanOrEqual(161);
		expect(text).toMatch(/…$/);
	});

	it('a 500 on GET says the service failed, not that the node retried it (only 502/503/504 are retried)', () => {
		const node = freshContext().context.getNode();
		const get = { method: 'GET', path: '/api/v1/leads' };
		expect(apiErrorFromResponse(node, 500, '', get).description).not.toMatch(/retried/);
		expect(apiErrorFromResponse(node, 500, '', get).description).toMatch(/try again later/);
		expect(apiErrorFromResponse(node, 503, '', get).description).toMatch(/the node retried it/);
	});

	it('the key of the default test credential is not in a 401 error either', async () => {
		const { context } = freshContext(TEST_CREDENTIALS.apiKey);
		nock(BASE)
			.get('/api/v1/leads/lead_1')
			.matchHeader('x-api-key', TEST_CREDENTIALS.apiKey)
			.reply(401, { error: { code: 'UNAUTHORIZED', message: 'Invalid API key' } });

		const error = await errorOf(apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' }));

		expect(error.message).toBe('The CRM API answered 401 UNAUTHORIZED: Invalid API key');
		expectNoKey(error, TEST_CREDENTIALS.apiKey);
	});
});

describe('connection errors', () => {
	it('a dropped connection on POST → says it was not retried, holds no key', async () => {
		const { context, apiKey } = freshContext();
		const scope = nock(BASE).post('/api/v1/leads').replyWithError(networkError('ECONNRESET'));

		const error = await errorOf(
			apiRequest.call(context, { method: 'POST', path: '/leads', body: { name: 'Jane' } }),
		);

		expect(scope.isDone()).toBe(true);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('Could not reach the CRM API for POST /api/v1/leads (ECONNRESET)');
		expect(error.description).toMatch(
			/Check the Base URL .* The request was not retried, so that nothing is created twice/,
		);
		expectNoKey(error, apiKey);
	});

	it('an unknown host on GET → retried, then says so', async () => {
		const { context, apiKey } = freshContext();
		nock(BASE)
			.get('/api/v1/leads/lead_1')
			.times(RETRY.maxTransientRetries + 1)
			.replyWithError(networkError('ENOTFOUND', 'getaddrinfo ENOTFOUND crm.test'));

		const error = await errorOf(apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' }));

		expect(error.message).toBe(
			'Could not reach the CRM API for GET /api/v1/leads/lead_1 (ENOTFOUND)',
		);
		expect(error.description).toMatch(/The node retried the request before giving up\./);
		expect(sleepMock).toHaveBeenCalledTimes(RETRY.maxTransientRetries);
		expectNoKey(error, apiKey);
	});
});

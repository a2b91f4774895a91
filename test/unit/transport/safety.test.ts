/**
 * Issue 11, transport side: redirects never carry the key or a body to another origin; no answer makes a request
 * wait longer than RETRY.maxWaitMs; error bodies of any size are cut before they are read; unsafe paths and IDs are
 * refused before any request.
 */
import nock from 'nock';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { apiRequest } from '../../../nodes/CrmInvoicing/shared/transport';
import { apiErrorFromResponse } from '../../../nodes/CrmInvoicing/shared/transport/errors';
import { READ, RETRY } from '../../../nodes/CrmInvoicing/shared/transport/limits';
import { FakeTime, flush, pacerOn } from './pacerSim';
import { BASE, errorOf, freshContext, replyLogging, setUpNock } from './support';
import type { SeenRequest } from './support';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn().mockResolvedValue(undefined),
}));

const sleepMock = jest.mocked(sleep);
const OTHER = 'https://elsewhere.test';

setUpNock();
beforeEach(() => sleepMock.mockClear());

/** An interceptor on the other origin that records whatever reaches it (it must stay empty). */
function catcher(): SeenRequest[] {
	const seen: SeenRequest[] = [];
	for (const method of ['GET', 'POST', 'PATCH', 'PUT', 'DELETE']) {
		replyLogging(nock(OTHER).persist().intercept(/.*/, method), seen, 200, {
			id: 'from_elsewhere',
		});
	}
	return seen;
}

describe('redirects', () => {
	it.each([301, 302, 303, 307, 308])(
		'GET answered %i to another host → error naming status and host; the other host gets nothing',
		async (status) => {
			const elsewhere = catcher();
			const { context, apiKey } = freshContext();
			nock(BASE)
				.get('/api/v1/clients/cl_1')
				.reply(status, '', { Location: `${OTHER}/api/v1/clients/cl_1` });

			const error = await errorOf(
				apiRequest.call(context, { method: 'GET', path: '/clients/cl_1' }),
			);

			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toBe(
				`The CRM API answered ${status} with a redirect to elsewhere.test (https://elsewhere.test), another origin than the Base URL's (https://crm.test). The node did not follow it: the API key was not sent there`,
			);
			expect(error.httpCode).toBe(String(status));
			expect(elsewhere).toEqual([]);
			expect(JSON.stringify(error)).not.toContain(apiKey);
		},
	);

	it('POST answered 307 to another host → neither key nor body reach it, and the error says so', async () => {
		const elsewhere = catcher();
		const { context } = freshContext();
		nock(BASE)
			.post('/api/v1/leads')
			.reply(307, '', { Location: `${OTHER}/api/v1/leads` });

		const error = await errorOf(
			apiRequest.call(context, { method: 'POST', path: '/leads', body: { name: 'Jane' } }),
		);

		expect(error.message).toMatch(
			/^The CRM API answered 307 with a redirect to elsewhere\.test .* the API key and the request body were not sent there$/,
		);
		expect(elsewhere).toEqual([]);
	});

	it.each([
		['another port', 'https://crm.test:8443/api/v1/leads/lead_1', 'crm.test:8443'],
		['https → http on the same host', 'http://crm.test/api/v1/leads/lead_1', 'crm.test'],
		['a relative Location that is protocol-relative', '//elsewhere.test/x', 'elsewhere.test'],
	])('%s is another origin: refused', async (_what, location, host) => {
		const { context } = freshContext();
		nock(BASE).get('/api/v1/leads/lead_1').reply(302, '', { Location: location });

		await expect(
			apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' }),
		).rejects.toThrow(`with a redirect to ${host} (`);
	});

	it("a GET redirected within the Base URL's origin is followed, with the key", async () => {
		const seen: SeenRequest[] = [];
		const { context, apiKey } = freshContext();
		nock(BASE)
			.get('/api/v1/leads/lead_1')
			.query(true)
			.reply(301, '', { Location: '/api/v1/leads/lead_1/' });
		replyLogging(nock(BASE).get('/api/v1/leads/lead_1/'), seen, 200, { id: 'lead_1' });

		expect(
			await apiRequest.call(context, { method: 'GET', path: '/leads/lead_1', qs: { x: 1 } }),
		).toEqual({ id: 'lead_1' });
		expect(seen).toEqual([
			{ method: 'GET', path: '/api/v1/leads/lead_1/', apiKey, body: undefined },
		]);
	});

	it('same-origin redirects are followed at most 3 times', async () => {
		const { context } = freshContext();
		const loop = nock(BASE)
			.get('/api/v1/leads/lead_1')
			.times(10)
			.reply(302, '', { Location: '/api/v1/leads/lead_1' });

		await expect(
			apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' }),
		).rejects.toThrow(
			'The CRM API answered 302 with a redirect to /api/v1/leads/lead_1, after 3 redirects, the most the node follows. The node did not follow it: the API key was not sent there',
		);
		expect(loop.pendingMocks()).toHaveLength(1);
		nock.cleanAll();
	});

	it('a PATCH redirected within the origin is not repeated', async () => {
		const seen: SeenRequest[] = [];
		const { context } = freshContext();
		nock(BASE).patch('/api/v1/leads/lead_1').reply(308, '', { Location: '/api/v1/leads/lead_1/' });
		replyLogging(nock(BASE).patch('/api/v1/leads/lead_1/'), seen, 200, { id: 'lead_1' });

		await expect(
			apiRequest.call(context, { method: 'PATCH', path: '/leads/lead_1', body: { name: 'x' } }),
		).rejects.toThrow(
			'The CRM API answered 308 with a redirect to /api/v1/leads/lead_1/ for PATCH /api/v1/leads/lead_1, and the node follows redirects only for GET. The node did not follow it: the API key and the request body were not sent there',
		);
		expect(seen).toEqual([]);
		nock.cleanAll();
	});

	it('a redirect without Location is an error', async () => {
		const { context } = freshContext();
		nock(BASE).get('/api/v1/leads/lead_1').reply(302);

		await expect(
			apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' }),
		).rejects.toThrow(
			'The CRM API answered 302 with a redirect to no address (its Location header is missing or unreadable). The node did not follow it: the API key was not sent there',
		);
	});
});

describe('waits are bounded', () => {
	it('429 with Retry-After: 3600 fails at once, says how long the API asked for, and does not wait', async () => {
		const seen: SeenRequest[] = [];
		const { context } = freshContext();
		replyLogging(
			nock(BASE).get('/api/v1/leads/lead_1').times(2),
			seen,
			429,
			{ error: { code: 'RATE_LIMITED', message: 'Slow down' } },
			{ 'Retry-After': '3600' },
		);

		const error = await errorOf(apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' }));

		expect(error.message).toBe(
			'The CRM API answered 429 (rate limit) and asked to wait 1 h before the next request; the node waits at most 60 s, so it did not wait',
		);
		expect(error.httpCode).toBe('429');
		expect(seen).toHaveLength(1);
		expect(sleepMock).not.toHaveBeenCalled();
		nock.cleanAll();
	});

	it('…and the next request with that key is not held back by it (the pacer did not remember the hour)', async () => {
		const apiKey = 'sk_test_not_poisoned';
		nock(BASE).get('/api/v1/leads/lead_1').reply(429, '', {
			'Retry-After': '3600',
			'RateLimit-Remaining': '0',
			'RateLimit-Reset': '3600',
		});
		nock(BASE).get('/api/v1/leads/lead_2').reply(200, { id: 'lead_2' });

		await expect(
			apiRequest.call(freshContext(apiKey).context, { method: 'GET', path: '/leads/lead_1' }),
		).rejects.toThrow(/asked to wait 1 h/);
		expect(
			await apiRequest.call(freshContext(apiKey).context, { method: 'GET', path: '/leads/lead_2' }),
		).toEqual({ id: 'lead_2' });

		expect(sleepMock).not.toHaveBeenCalled();
	});

	it.each([
		[
			'a RateLimit-Reset far in the future on a 429',
			{ 'RateLimit-Remaining': '0', 'RateLimit-Reset': '99999999' },
		],
		['a Retry-After beyond 2^31 ms', { 'Retry-After': String(2 ** 31) }],
	])('%s fails at once: no timer is ever set beyond the cap', async (_what, headers) => {
		const { context } = freshContext();
		nock(BASE).get('/api/v1/leads/lead_1').reply(429, '', headers);

		await expect(
			apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' }),
		).rejects.toThrow(/asked to wait .* the node waits at most 60 s/);
		expect(sleepMock).not.toHaveBeenCalled();
	});

	it("a Retry-After HTTP date next year by the answer's own Date (a clock is off) is not used: the default wait, below the cap", async () => {
		const { context } = freshContext();
		const headers = {
			'Retry-After': new Date(Date.now() + 365 * 86_400_000).toUTCString(),
			Date: new Date().toUTCString(),
		};
		nock(BASE)
			.get('/api/v1/leads/lead_1')
			.reply(429, '', headers)
			.get('/api/v1/leads/lead_1')
			.reply(200, { id: 'lead_1' });

		expect(await apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' })).toEqual({
			id: 'lead_1',
		});
		expect(sleepMock).toHaveBeenCalledTimes(1);
		expect(sleepMock.mock.calls[0][0]).toBeGreaterThanOrEqual(RETRY.defaultRateLimitWaitMs - 100);
		expect(sleepMock.mock.calls[0][0]).toBeLessThanOrEqual(RETRY.defaultRateLimitWaitMs + 100);
	});

	it('a 2xx announcing a spent window for an hour holds the next request back at most RETRY.maxWaitMs', async () => {
		const apiKey = 'sk_test_long_reset';
		nock(BASE)
			.get('/api/v1/leads/lead_1')
			.reply(200, { id: 'lead_1' }, { 'RateLimit-Remaining': '0', 'RateLimit-Reset': '3600' });
		nock(BASE)
			.get('/api/v1/leads/lead_2')
			.reply(200, { id: 'lead_2' }, { 'RateLimit-Remaining': '59', 'RateLimit-Reset': '60' });

		await apiRequest.call(freshContext(apiKey).context, { method: 'GET', path: '/leads/lead_1' });
		await apiRequest.call(freshContext(apiKey).context, { method: 'GET', path: '/leads/lead_2' });

		expect(sleepMock).toHaveBeenCalledTimes(1);
		// The cap, plus the 50 ms margin that lands the request in the new window.
		expect(sleepMock.mock.calls[0][0]).toBeLessThanOrEqual(RETRY.maxWaitMs + 50);
		expect(sleepMock.mock.calls[0][0]).toBeGreaterThan(RETRY.maxWaitMs - 1_000);
	});

	it('every wait the transport can take is below the cap and far below 2^31 ms', async () => {
		const time = new FakeTime();
		const announced = pacerOn(time, 1);
		const first = await announced.take();
		announced.settle(first, 200, {
			'ratelimit-remaining': '0',
			'ratelimit-reset': String(2 ** 40),
		});
		void announced.take().catch(() => undefined);
		await flush();
		expect(time.longestTimer).toBeLessThanOrEqual(RETRY.maxWaitMs + 50);
		// 500 queued at 1 request per minute: all but the few that fit in the cap are refused; no timer beyond it.
		const documented = pacerOn(time, 1);
		let refused = 0;
		for (let n = 0; n < 500; n++) documented.take().catch(() => refused++);
		await flush();
		expect(refused).toBeGreaterThan(490);
		expect(time.longestTimer).toBeLessThanOrEqual(RETRY.maxPacingWaitMs + 1_000);
		expect(RETRY.maxWaitMs).toBeLessThan(2 ** 31);
		expect(RETRY.maxPacingWaitMs).toBeLessThan(2 ** 31);
		expect(RETRY.maxTotalRateLimitWaitMs).toBeLessThan(2 ** 31);
	});
});

describe('error bodies of any size', () => {
	const node = freshContext().context.getNode();
	const request = { method: 'GET', path: '/api/v1/leads/lead_1' };

	it('a 2 MB HTML page gives a short error in well under a second', () => {
		const page = `<html><head><title>502 Bad Gateway</title></head><body>${'<div>'.repeat(400_000)}</body></html>`;
		expect(page.length).toBeGreaterThan(2_000_000);
		const started = performance.now();
		const error = apiErrorFromResponse(node, 502, page, request);
		const took = performance.now() - started;

		expect(error.message).toBe(
			'The CRM API answered 502 with a page that is not JSON: "502 Bad Gateway"',
		);
		expect(took).toBeLessThan(500);
	});

	it.each([
		['2 MB of "<"', '<'.repeat(2_000_000)],
		['2 MB of "<title" without an end', '<title'.repeat(350_000)],
		['2 MB of "<script" without an end', '<script'.repeat(300_000)],
		['2 MB of whitespace and "<a"', ' <a \n'.repeat(400_000)],
	])('%s: error in well under a second, message cut', (_what, page) => {
		const started = performance.now();
		const error = apiErrorFromResponse(node, 500, page, request);
		expect(performance.now() - started).toBeLessThan(500);
		expect(error.message.length).toBeLessThan(400);
	});

	it('a 2 MB Buffer is cut before it is decoded', () => {
		const error = apiErrorFromResponse(node, 500, Buffer.from('x'.repeat(2_000_000)), request);
		expect(error.message.length).toBeLessThan(400);
	});

	it('a JSON error whose message is 1 MB long is cut in the error', () => {
		const error = apiErrorFromResponse(
			node,
			400,
			{ error: { code: 'VALIDATION_ERROR', message: 'm'.repeat(1_000_000) } },
			request,
		);
		expect(error.message.length).toBeLessThan(READ.maxErrorSnippetChars + 100);
		expect(error.message).toMatch(/^The CRM API answered 400 VALIDATION_ERROR: m+…$/);
	});

	it('through the transport: a 2 MB HTML 503 on a POST → the short error', async () => {
		const { context } = freshContext();
		nock(BASE)
			.post('/api/v1/leads')
			.reply(503, `<html><title>Service Unavailable</title>${'<p>x</p>'.repeat(260_000)}</html>`, {
				'Content-Type': 'text/html',
			});

		await expect(
			apiRequest.call(context, { method: 'POST', path: '/leads', body: { name: 'x' } }),
		).rejects.toThrow(
			'The CRM API answered 503 with a page that is not JSON: "Service Unavailable"',
		);
	});
});

describe('paths and IDs', () => {
	it.each([
		['/leads/..', '".." segment'],
		['/leads/.', '"." segment'],
		['/leads/%2e%2e', '".." segment'],
		['/leads/%2E%2E/x', '".." segment'],
		['/leads/..%2Fusers', '".." segment'],
		['/leads/lead_1%0A', 'control character'],
		['/.\n./x', 'control character'],
		['/leads/a\tb', 'control character'],
		['/leads/%7F', 'control character'],
		['/leads/a\\..\\b', 'backslash'],
		['/leads/%E0/a%5Cb', 'backslash'], // a malformed escape in one segment hides nothing in another
		// … nor in its own segment: the ASCII escapes around it are still read
		['/leads/a%E0%5Cb', 'backslash'],
		['/leads/x%E0%2F..%2Fusers', '".." segment'],
		['/leads/%E0%0A', 'control character'],
	])('%p is refused before any request (%s)', async (path, reason) => {
		const { context } = freshContext();
		const anything = nock(BASE).persist().get(/.*/).reply(200, {});

		const error = await errorOf(apiRequest.call(context, { method: 'GET', path, itemIndex: 2 }));

		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toContain('The node refused to send GET /api/v1');
		expect(error.message).toContain(reason);
		expect(String(error.description)).toMatch(/Nothing was sent/);
		expect(anything.isDone()).toBe(false);
		nock.cleanAll();
	});

	it('IDs that only look odd still pass: dots inside a segment, encoded characters', async () => {
		const { context } = freshContext();
		nock(BASE).get('/api/v1/leads/lead.1..x').reply(200, { id: 'ok' });
		nock(BASE).get('/api/v1/leads/a%20b').reply(200, { id: 'ok' });

		await apiRequest.call(context, { method: 'GET', path: '/leads/lead.1..x' });
		await apiRequest.call(context, { method: 'GET', path: '/leads/a%20b' });
	});
});

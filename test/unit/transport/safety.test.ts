/** No answer makes a request wait past RETRY.maxWaitMs or its time limit; error bodies cut; unsafe paths refused. */
import nock from 'nock';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest } from '../../../nodes/CrmInvoicing/shared/transport';
import { apiErrorFromResponse } from '../../../nodes/CrmInvoicing/shared/transport/errors';
import { READ, RETRY } from '../../../nodes/CrmInvoicing/shared/transport/limits';
import { FakeTime, flush, pacerOn } from './pacerSim';
import {
	BASE,
	errorOf,
	freshContext,
	getLead,
	LEAD_1,
	mockedSleep,
	replyLogging,
	setUpNock,
} from './support';
import type { SeenRequest } from './support';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn().mockResolvedValue(undefined),
}));

setUpNock();
const sleepMock = mockedSleep();

/** RateLimit-* headers of a spent window that resets in `reset` seconds. */
const spent = (reset: string) => ({ 'RateLimit-Remaining': '0', 'RateLimit-Reset': reset });

describe('waits are bounded', () => {
	it.each([
		['Retry-After: 3600', { 'Retry-After': '3600', ...spent('3600') }, '1 h'],
		['a RateLimit-Reset far in the future', spent('99999999'), '.+'],
		['a Retry-After beyond 2^31 ms', { 'Retry-After': String(2 ** 31) }, '.+'],
	])(
		'a 429 with %s fails at once, says how long was asked, sets no timer, and is not remembered',
		async (_what, headers, asked) => {
			const seen: SeenRequest[] = [];
			const { context, apiKey } = freshContext();
			replyLogging(nock(BASE).get(LEAD_1).times(2), seen, 429, '', headers);
			nock(BASE).get('/api/v1/leads/lead_2').reply(200, { id: 'lead_2' });

			const error = await errorOf(getLead(context));

			expect(error.message).toMatch(
				new RegExp(
					`^The CRM API answered 429 \\(rate limit\\) and asked to wait ${asked} before the next request; the node waits at most 60 s, so it did not wait$`,
				),
			);
			expect(error.httpCode).toBe('429');
			expect(seen).toHaveLength(1);
			// The next request with that key is not held back by it: the pacer did not remember the wait.
			const next = await apiRequest.call(freshContext(apiKey).context, {
				method: 'GET',
				path: '/leads/lead_2',
			});
			expect(next).toEqual({ id: 'lead_2' });
			expect(sleepMock).not.toHaveBeenCalled();
		},
	);

	it('a 2xx announcing a spent window for an hour holds the next request back at most RETRY.maxWaitMs', async () => {
		const apiKey = 'sk_test_long_reset';
		nock(BASE).get(LEAD_1).reply(200, { id: 'lead_1' }, spent('3600'));
		nock(BASE)
			.get('/api/v1/leads/lead_2')
			.reply(200, { id: 'lead_2' }, { 'RateLimit-Remaining': '59', 'RateLimit-Reset': '60' });

		await getLead(freshContext(apiKey).context);
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
	});
});

// ApiRequest.deadline: one bound on a request's waits and retries (used by Output Full Record); the time on the
// wire against the sandbox's faults is in bounds.test.ts.
describe('a request with a time limit', () => {
	it('does not retry a 503 when the back-off would pass the limit, and says the API answered 503', async () => {
		const scope = nock(BASE)
			.get(LEAD_1)
			.reply(503, { error: { code: 'UNAVAILABLE', message: 'Down' } });

		const error = await errorOf(getLead(freshContext().context, { deadline: Date.now() + 400 }));

		expect(scope.isDone()).toBe(true);
		// A retry would have met no second answer (nock), so the message itself shows there was none.
		expect(error.message).toBe('The CRM API answered 503 UNAVAILABLE: Down');
	});

	it('still retries when the back-off fits in the limit', async () => {
		const scope = nock(BASE).get(LEAD_1).reply(503, {});
		nock(BASE).get(LEAD_1).reply(200, { id: 'lead_1' });

		const lead = await getLead(freshContext().context, { deadline: Date.now() + 5_000 });

		expect(lead).toEqual({ id: 'lead_1' });
		expect(scope.isDone()).toBe(true);
	});

	it('does not wait out a 429 whose Retry-After passes the limit, nor send a later request while the wait lasts', async () => {
		const { context } = freshContext();
		const scope = nock(BASE).get(LEAD_1).reply(429, {}, { 'Retry-After': '30' });

		const limited = await errorOf(getLead(context, { deadline: Date.now() + 2_000 }));
		expect(scope.isDone()).toBe(true);
		expect(limited.httpCode).toBe('429');

		// Same key, same execution: the pacer now holds the 30 s; a limited request is refused before it is sent.
		const refused = await errorOf(getLead(context, { deadline: Date.now() + 2_000 }));
		// (the pacer adds its safety margin to the 30 s)
		expect(refused.message).toMatch(
			/^GET \/api\/v1\/leads\/lead_1 was not sent: its turn under the API key's rate limit would come in about 3\d s, and it waits at most 2 s$/,
		);
		expect(refused.httpCode).toBeUndefined();
	});
});

describe('error bodies of any size are cut before they are read', () => {
	const node = freshContext().context.getNode();
	const request = { method: 'GET', path: '/api/v1/leads/lead_1' };
	const maxLength = READ.maxErrorSnippetChars + 100;
	const ANSWERED_500 = /^The CRM API answered 500/;

	it.each<[string, number, unknown, RegExp]>([
		['2 MB of "<"', 500, '<'.repeat(2_000_000), ANSWERED_500],
		['2 MB of "<title" without an end', 500, '<title'.repeat(350_000), ANSWERED_500],
		['2 MB of "<script" without an end', 500, '<script'.repeat(300_000), ANSWERED_500],
		['2 MB of whitespace and "<a"', 500, ' <a \n'.repeat(400_000), ANSWERED_500],
		[
			'a 2 MB Buffer, cut before it is decoded',
			500,
			Buffer.from('x'.repeat(2_000_000)),
			ANSWERED_500,
		],
		[
			'a JSON error whose message is 1 MB long',
			400,
			{ error: { code: 'VALIDATION_ERROR', message: 'm'.repeat(1_000_000) } },
			/^The CRM API answered 400 VALIDATION_ERROR: m+…$/,
		],
	])('%s: a short message', (_what, status, body, message) => {
		const error = apiErrorFromResponse(node, status, body, request);
		expect(error.message).toMatch(message);
		expect(error.message.length).toBeLessThan(maxLength);
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

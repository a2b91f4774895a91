import nock from 'nock';
import { NodeApiError, sleep } from 'n8n-workflow';

import { apiRequest } from '../../../nodes/CrmInvoicing/shared/transport';
import { RETRY } from '../../../nodes/CrmInvoicing/shared/transport/limits';
import { BASE, errorOf, freshContext, networkError, replyLogging, setUpNock } from './support';
import type { SeenRequest } from './support';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn().mockResolvedValue(undefined),
}));

const sleepMock = jest.mocked(sleep);

setUpNock();
beforeEach(() => sleepMock.mockClear());

/** The back-offs of the transient retries, in order: 500, 1000, 2000 ms. */
const BACKOFFS = Array.from(
	{ length: RETRY.maxTransientRetries },
	(_, n) => RETRY.transientBackoffMs * 2 ** n,
);

describe('requests that create or change (POST) are never repeated', () => {
	it('POST after a 503 → exactly one request, and the error says it was not retried', async () => {
		const seen: SeenRequest[] = [];
		const { context } = freshContext();
		replyLogging(nock(BASE).post('/api/v1/leads').times(4), seen, 503, {
			error: { code: 'UNAVAILABLE', message: 'Down' },
		});

		const error = await errorOf(
			apiRequest.call(context, { method: 'POST', path: '/leads', body: { name: 'Jane' } }),
		);

		expect(seen).toHaveLength(1);
		expect(seen[0]).toMatchObject({
			method: 'POST',
			path: '/api/v1/leads',
			body: { name: 'Jane' },
		});
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('The CRM API answered 503 UNAVAILABLE: Down');
		expect(error.description).toMatch(/It was not retried, so that nothing is created twice/);
		expect(sleepMock).not.toHaveBeenCalled();
	});

	it('POST after a dropped connection (ECONNRESET) → exactly one request', async () => {
		const { context } = freshContext();
		const first = nock(BASE).post('/api/v1/leads').replyWithError(networkError('ECONNRESET'));
		const second = nock(BASE).post('/api/v1/leads').reply(201, { id: 'lead_dup' });

		const error = await errorOf(
			apiRequest.call(context, { method: 'POST', path: '/leads', body: { name: 'Jane' } }),
		);

		expect(first.isDone()).toBe(true);
		expect(second.isDone()).toBe(false);
		expect(error.message).toBe('Could not reach the CRM API for POST /api/v1/leads (ECONNRESET)');
		expect(sleepMock).not.toHaveBeenCalled();
	});

	it('PATCH after a 502 → exactly one request', async () => {
		const seen: SeenRequest[] = [];
		const { context } = freshContext();
		replyLogging(nock(BASE).patch('/api/v1/leads/lead_1').times(2), seen, 502, {
			error: { code: 'BAD_GATEWAY', message: 'x' },
		});

		await expect(
			apiRequest.call(context, { method: 'PATCH', path: '/leads/lead_1', body: { name: 'Jane' } }),
		).rejects.toThrow('The CRM API answered 502 BAD_GATEWAY: x');

		expect(seen).toHaveLength(1);
	});
});

describe('reads and deletes are retried on transient failures', () => {
	it('GET retried after a 503, then succeeds', async () => {
		const seen: SeenRequest[] = [];
		const { context } = freshContext();
		replyLogging(nock(BASE).get('/api/v1/leads/lead_1'), seen, 503, {
			error: { code: 'UNAVAILABLE', message: 'Down' },
		});
		replyLogging(nock(BASE).get('/api/v1/leads/lead_1'), seen, 200, { id: 'lead_1' });

		const lead = await apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' });

		expect(lead).toEqual({ id: 'lead_1' });
		expect(seen.map((request) => request.path)).toEqual([
			'/api/v1/leads/lead_1',
			'/api/v1/leads/lead_1',
		]);
		expect(sleepMock.mock.calls).toEqual([[RETRY.transientBackoffMs]]);
	});

	it('GET retried after a dropped connection (ECONNRESET), then succeeds', async () => {
		const { context } = freshContext();
		const dropped = nock(BASE)
			.get('/api/v1/leads/lead_1')
			.replyWithError(networkError('ECONNRESET'));
		const answered = nock(BASE).get('/api/v1/leads/lead_1').reply(200, { id: 'lead_1' });

		const lead = await apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' });

		expect(lead).toEqual({ id: 'lead_1' });
		expect(dropped.isDone()).toBe(true);
		expect(answered.isDone()).toBe(true);
		expect(sleepMock.mock.calls).toEqual([[RETRY.transientBackoffMs]]);
	});

	it('DELETE retried after a 502, then succeeds with an empty 204', async () => {
		const seen: SeenRequest[] = [];
		const { context } = freshContext();
		replyLogging(nock(BASE).delete('/api/v1/webhooks/wh_1'), seen, 502, {
			error: { code: 'BAD_GATEWAY', message: 'x' },
		});
		replyLogging(nock(BASE).delete('/api/v1/webhooks/wh_1'), seen, 204);

		const result = await apiRequest.call(context, { method: 'DELETE', path: '/webhooks/wh_1' });

		expect(result).toEqual({});
		expect(seen.map((request) => request.method)).toEqual(['DELETE', 'DELETE']);
	});

	it('GET 504 every time → bounded: 1 + maxTransientRetries requests with doubling back-off, then the error', async () => {
		const seen: SeenRequest[] = [];
		const { context } = freshContext();
		replyLogging(
			nock(BASE)
				.get('/api/v1/leads/lead_1')
				.times(RETRY.maxTransientRetries + 2),
			seen,
			504,
			{ error: { code: 'GATEWAY_TIMEOUT', message: 'Upstream timed out' } },
		);

		const error = await errorOf(apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' }));

		expect(seen).toHaveLength(RETRY.maxTransientRetries + 1);
		expect(sleepMock.mock.calls).toEqual(BACKOFFS.map((ms) => [ms]));
		expect(error.message).toBe('The CRM API answered 504 GATEWAY_TIMEOUT: Upstream timed out');
		expect(error.description).toMatch(/the node retried it/);
	});

	it('GET 500 is not transient → no retry', async () => {
		const seen: SeenRequest[] = [];
		const { context } = freshContext();
		replyLogging(nock(BASE).get('/api/v1/leads/lead_1').times(2), seen, 500, {
			error: { code: 'INTERNAL', message: 'x' },
		});

		await expect(
			apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' }),
		).rejects.toThrow(NodeApiError);

		expect(seen).toHaveLength(1);
	});

	it('GET 4xx is never retried', async () => {
		const seen: SeenRequest[] = [];
		const { context } = freshContext();
		replyLogging(nock(BASE).get('/api/v1/leads/lead_1').times(2), seen, 404, {
			error: { code: 'NOT_FOUND', message: 'x' },
		});

		await expect(
			apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' }),
		).rejects.toThrow(NodeApiError);

		expect(seen).toHaveLength(1);
		expect(sleepMock).not.toHaveBeenCalled();
	});

	it('GET dropped every time → bounded, then a connection error that says it was retried', async () => {
		const { context } = freshContext();
		const scope = nock(BASE)
			.get('/api/v1/leads/lead_1')
			.times(RETRY.maxTransientRetries + 1)
			.replyWithError(networkError('ECONNRESET'));
		const extra = nock(BASE).get('/api/v1/leads/lead_1').reply(200, {});

		const error = await errorOf(apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' }));

		expect(scope.isDone()).toBe(true);
		expect(extra.isDone()).toBe(false);
		expect(error.message).toBe(
			'Could not reach the CRM API for GET /api/v1/leads/lead_1 (ECONNRESET)',
		);
		expect(error.description).toMatch(/The node retried the request before giving up/);
		expect(sleepMock.mock.calls).toEqual(BACKOFFS.map((ms) => [ms]));
	});
});

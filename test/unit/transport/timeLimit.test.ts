/**
 * ApiRequest.deadline: one bound on a request's waits and retries (used by Output Full Record); the time on the wire
 * against the sandbox's faults is in bounds.test.ts.
 */
import nock from 'nock';

import { apiRequest } from '../../../nodes/CrmInvoicing/shared/transport';
import { BASE, errorOf, freshContext, setUpNock } from './support';

setUpNock();

describe('a request with a time limit', () => {
	it('does not retry a 503 when the back-off would pass the limit, and says the API answered 503', async () => {
		const { context } = freshContext();
		const scope = nock(BASE)
			.get('/api/v1/leads/lead_1')
			.reply(503, { error: { code: 'UNAVAILABLE', message: 'Down' } });

		const error = await errorOf(
			apiRequest.call(context, {
				method: 'GET',
				path: '/leads/lead_1',
				deadline: Date.now() + 400,
			}),
		);

		expect(scope.isDone()).toBe(true);
		// A retry would have met no second answer (nock), so the message itself shows there was none.
		expect(error.message).toBe('The CRM API answered 503 UNAVAILABLE: Down');
	});

	it('still retries when the back-off fits in the limit', async () => {
		const { context } = freshContext();
		const scope = nock(BASE)
			.get('/api/v1/leads/lead_1')
			.reply(503, {})
			.get('/api/v1/leads/lead_1')
			.reply(200, { id: 'lead_1' });

		expect(
			await apiRequest.call(context, {
				method: 'GET',
				path: '/leads/lead_1',
				deadline: Date.now() + 5_000,
			}),
		).toEqual({ id: 'lead_1' });
		expect(scope.isDone()).toBe(true);
	});

	it('does not wait out a 429 whose Retry-After passes the limit, nor send a later request while the wait lasts', async () => {
		const { context } = freshContext();
		const scope = nock(BASE).get('/api/v1/leads/lead_1').reply(429, {}, { 'Retry-After': '30' });

		const limited = await errorOf(
			apiRequest.call(context, {
				method: 'GET',
				path: '/leads/lead_1',
				deadline: Date.now() + 2_000,
			}),
		);
		expect(scope.isDone()).toBe(true);
		expect(limited.httpCode).toBe('429');

		// Same key, same execution: the pacer now holds the 30 s; a limited request is refused before it is sent.
		const refused = await errorOf(
			apiRequest.call(context, {
				method: 'GET',
				path: '/leads/lead_1',
				deadline: Date.now() + 2_000,
			}),
		);
		// (the pacer adds its safety margin to the 30 s)
		expect(refused.message).toMatch(
			/^GET \/api\/v1\/leads\/lead_1 was not sent: its turn under the API key's rate limit would come in about 3\d s, and it waits at most 2 s$/,
		);
		expect(refused.httpCode).toBeUndefined();
	});
});

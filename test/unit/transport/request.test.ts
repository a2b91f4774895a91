import nock from 'nock';

import { apiRequest, apiRequestFull } from '../../../nodes/CrmInvoicing/shared/transport';
import { baseUrlOf } from '../../../credentials/CrmInvoicingApi.credentials';
import { TEST_CREDENTIALS } from '../../helpers/harness';
import {
	BASE,
	contextWith,
	freshContext,
	getLead,
	LEAD_1,
	replyLogging,
	setUpNock,
} from './support';
import type { SeenRequest } from './support';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn().mockResolvedValue(undefined),
}));

setUpNock();

describe('baseUrlOf', () => {
	it.each([
		['https://crm.example.com', 'https://crm.example.com'],
		['https://crm.example.com/', 'https://crm.example.com'],
		['https://crm.example.com///', 'https://crm.example.com'],
		['https://crm.example.com/api/v1', 'https://crm.example.com'],
		['https://crm.example.com/api/v1/', 'https://crm.example.com'],
		['https://crm.example.com/api/v2', 'https://crm.example.com'],
		['https://crm.example.com/API/V1', 'https://crm.example.com'],
		['  https://crm.example.com/api/v1  ', 'https://crm.example.com'],
		['https://example.com/crm/api/v1', 'https://example.com/crm'],
		['https://example.com/api/v10', 'https://example.com/api/v10'],
		['https://example.com/api/v1/leads', 'https://example.com/api/v1/leads'],
		[undefined, ''],
	])('%p → %p', (raw, expected) => {
		expect(baseUrlOf(raw === undefined ? {} : { baseUrl: raw })).toBe(expected);
	});
});

describe('apiRequest', () => {
	it.each(['https://crm.test/', 'https://crm.test/api/v1', 'https://crm.test/api/v1/'])(
		'a Base URL of %p still reaches /api/v1/… once',
		async (baseUrl) => {
			const { context } = contextWith({ baseUrl, apiKey: `${TEST_CREDENTIALS.apiKey}_${baseUrl}` });
			const scope = nock(BASE).get(LEAD_1).reply(200, { id: 'lead_1' });

			expect(await getLead(context)).toEqual({ id: 'lead_1' });
			expect(scope.isDone()).toBe(true);
		},
	);

	it('sends the key in x-api-key only, and a JSON body', async () => {
		const seen: SeenRequest[] = [];
		const { context, apiKey } = freshContext();
		const post = nock(BASE)
			.matchHeader('content-type', /^application\/json/)
			.post('/api/v1/leads');
		replyLogging(post, seen, 201, { id: 'lead_1', name: 'Jane' });

		const body = { name: 'Jane', value: 5 };
		const lead = await apiRequest.call(context, { method: 'POST', path: '/leads', body });

		expect(lead).toEqual({ id: 'lead_1', name: 'Jane' });
		expect(seen).toEqual([{ method: 'POST', path: '/api/v1/leads', apiKey, body }]);
	});

	it.each([
		['version v2: the /api/v2 prefix', 'v2', { pageSize: 5 }, '/api/v2/contacts?pageSize=5'],
		['an empty qs: no query string', 'v1', {}, '/api/v1/contacts'],
	] as const)('%s', async (_name, version, qs, path) => {
		const seen: SeenRequest[] = [];
		const contacts = nock(BASE).get(/contacts/);
		replyLogging(contacts.query(true), seen, 200, { items: [] });

		await apiRequest.call(freshContext().context, {
			method: 'GET',
			path: '/contacts',
			version,
			qs,
		});

		expect(seen.map((request) => request.path)).toEqual([path]);
	});

	// A DELETE counts as done only on an empty answer or a JSON object: a 200 sign-in page is an error.
	it.each<[number, nock.Body, object | string | RegExp]>([
		[204, '', {}],
		[200, '', {}],
		[200, { deleted: true }, { deleted: true }],
		[
			200,
			'<!DOCTYPE html><html><body>Sign in to continue</body></html>',
			'The CRM API answered DELETE /api/v1/webhooks/wh_1 with 200 (text/html) and text starting "<!DOCTYPE html><html><body>Sign in to continue</body></html>", not an empty answer or a JSON object',
		],
		[200, [{ id: 'wh_1' }], /not an empty answer or a JSON object/],
	])('a DELETE answered %i with %j → %j', async (status, body, outcome) => {
		const headers: nock.ReplyHeaders =
			typeof body === 'string' && body ? { 'Content-Type': 'text/html' } : {};
		nock(BASE).delete('/api/v1/webhooks/wh_1').reply(status, body, headers);

		const answer = apiRequest.call(freshContext().context, {
			method: 'DELETE',
			path: '/webhooks/wh_1',
		});

		if (typeof outcome === 'string' || outcome instanceof RegExp)
			await expect(answer).rejects.toThrow(outcome);
		else expect(await answer).toEqual(outcome);
	});

	it('a 200 that is not JSON → { body: text }', async () => {
		nock(BASE).patch('/api/v1/leads/lead_1').reply(200, 'OK', { 'Content-Type': 'text/plain' });
		const patch = { method: 'PATCH' as const, path: '/leads/lead_1', body: { name: 'x' } };
		expect(await apiRequest.call(freshContext().context, patch)).toEqual({ body: 'OK' });
	});

	it('apiRequestFull hands back status and headers too', async () => {
		const { context } = freshContext();
		nock(BASE).post('/api/v1/webhooks').reply(201, { id: 'wh_1' }, { 'X-Request-Id': 'req_9' });

		const response = await apiRequestFull.call(context, {
			method: 'POST',
			path: '/webhooks',
			body: { name: 'n8n', url: 'https://n8n.example.com/webhook/x', events: ['lead.created'] },
		});

		expect(response.statusCode).toBe(201);
		expect(response.headers['x-request-id']).toBe('req_9');
		expect(response.body).toEqual({ id: 'wh_1' });
	});
});

/**
 * Issue 23, point 2: a redirect is followed only inside the API: the Base URL's origin, under its path followed by
 * /api/v1 or /api/v2, with no path trick. Anything else is an error that names the target and says the key was not
 * sent; nothing reaches the target.
 */
import nock from 'nock';

import { apiRequest } from '../../../nodes/CrmInvoicing/shared/transport';
import { createExecuteContext, TEST_CREDENTIALS } from '../../helpers/harness';
import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { BASE, errorOf, freshContext, replyLogging, setUpNock } from './support';
import type { SeenRequest } from './support';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn().mockResolvedValue(undefined),
}));

setUpNock();

/** Records whatever reaches paths of the Base URL's host outside the API (it must stay empty). */
function outsideTheApi(origin = BASE): SeenRequest[] {
	const seen: SeenRequest[] = [];
	replyLogging(
		nock(origin)
			.persist()
			.get(/^\/(?!api\/v[12]\/).*/),
		seen,
		200,
		{ id: 'not_the_api', items: [] },
	);
	return seen;
}

describe('which targets are inside the API (followed) and which not (refused, nothing sent)', () => {
	it.each([
		['https://crm.test/api/v1/leads/lead_1', '', true],
		['https://crm.test/api/v2/contacts?cursor=c', '', true],
		['https://crm.test/api/v1', '', true],
		['https://crm.test/admin/export-all', '', false],
		['https://crm.test/api/v3/leads', '', false],
		['https://crm.test/api/v10/leads', '', false],
		['https://crm.test/api/v1evil', '', false],
		['https://crm.test/API/V1/leads', '', false],
		['https://crm.test/api/v1/../../admin', '', false],
		['https://crm.test/api/v1/%2e%2e/%2E%2E/admin', '', false],
		['https://crm.test/api/v1/..%2f..%2fadmin', '', false],
		['https://crm.test/api/v1/leads%5c..%5c..%5cadmin', '', false],
		['https://crm.test/api/v1/leads/%0aX', '', false],
		['https://user:pass@crm.test/api/v1/leads', '', false],
		['https://crm.test/crm/api/v1/leads', '/crm', true],
		['https://crm.test/api/v1/leads', '/crm', false],
		['https://crm.test/crm/../api/v1/leads', '/crm', false],
	] as const)('%s (Base URL path "%s"): followed %p', async (target, prefix, followed) => {
		const seen: SeenRequest[] = [];
		const apiKey = `sk_test_inside_${Math.random().toString(36).slice(2)}`;
		const { context } = createExecuteContext({
			nodeType: new CrmInvoicing(),
			parameters: { resource: 'lead', operation: 'get' },
			credentials: { ...TEST_CREDENTIALS, baseUrl: `${BASE}${prefix}`, apiKey },
		});
		nock(BASE).get(`${prefix}/api/v1/start`).reply(302, '', { Location: target });
		replyLogging(nock(BASE).persist().get(/.*/), seen, 200, { id: 'reached' });

		const answer = apiRequest.call(context, { method: 'GET', path: '/start' });

		if (followed) {
			expect(await answer).toEqual({ id: 'reached' });
			expect(seen).toEqual([
				{
					method: 'GET',
					path: new URL(target).pathname + new URL(target).search,
					apiKey,
					body: undefined,
				},
			]);
		} else {
			await expect(answer).rejects.toThrow(
				/The node did not follow it: the API key was not sent there$/,
			);
			expect(seen).toEqual([]);
		}
		nock.cleanAll();
	});
});

describe('redirects of the same origin out of the API', () => {
	it.each([
		['/admin/export-all', '/admin/export-all'],
		['/api/v1/../../admin/export-all', '/admin/export-all'],
		['https://crm.test/login?next=%2Fapi%2Fv1', '/login?next=%2Fapi%2Fv1'],
		['/api/v1/..%2f..%2fadmin', '/api/v1/..%2f..%2fadmin'],
	])('302 to %s: an error naming %s; the key goes nowhere else', async (location, shown) => {
		const elsewhere = outsideTheApi();
		const { context } = freshContext();
		nock(BASE).get('/api/v1/leads/lead_1').reply(302, '', { Location: location });

		const error = await errorOf(apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' }));

		expect(error.message).toBe(
			`The CRM API answered 302 with a redirect to ${shown}, outside the API (/api/v1 or /api/v2). The node did not follow it: the API key was not sent there`,
		);
		expect(error.httpCode).toBe('302');
		expect(elsewhere).toEqual([]);
	});

	it('a POST redirected out of the API says the body was not sent either', async () => {
		const { context } = freshContext();
		nock(BASE).post('/api/v1/leads').reply(307, '', { Location: '/admin/import' });

		await expect(
			apiRequest.call(context, { method: 'POST', path: '/leads', body: { name: 'Jane' } }),
		).rejects.toThrow(
			'redirect to /admin/import, outside the API (/api/v1 or /api/v2). The node did not follow it: the API key and the request body were not sent there',
		);
	});

	it('a target that carries the key shows it redacted', async () => {
		const { context, apiKey } = freshContext();
		nock(BASE)
			.get('/api/v1/leads/lead_1')
			.reply(302, '', { Location: `/signin?key=${encodeURIComponent(apiKey)}` });

		const error = await errorOf(apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' }));

		expect(error.message).toContain('redirect to /signin?key=[redacted], outside the API');
		expect(JSON.stringify(error)).not.toContain(apiKey);
	});

	it("with a Base URL that has a path, the API is under that path: inside is followed, the host's own /api/v1 is not", async () => {
		const seen: SeenRequest[] = [];
		const { context } = createExecuteContext({
			nodeType: new CrmInvoicing(),
			parameters: { resource: 'lead', operation: 'get' },
			credentials: { ...TEST_CREDENTIALS, baseUrl: `${BASE}/crm`, apiKey: 'sk_test_prefixed_base' },
		});
		nock(BASE)
			.get('/crm/api/v1/leads/lead_1')
			.reply(301, '', { Location: '/crm/api/v1/leads/lead_1/' });
		replyLogging(nock(BASE).get('/crm/api/v1/leads/lead_1/'), seen, 200, { id: 'lead_1' });
		nock(BASE).get('/crm/api/v1/leads/lead_2').reply(301, '', { Location: '/api/v1/leads/lead_2' });

		expect(await apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' })).toEqual({
			id: 'lead_1',
		});
		expect(seen).toHaveLength(1);
		await expect(
			apiRequest.call(context, { method: 'GET', path: '/leads/lead_2' }),
		).rejects.toThrow(
			'redirect to /api/v1/leads/lead_2, outside the API (/crm/api/v1 or /crm/api/v2)',
		);
	});

	it('a redirect inside the API (another version too) is still followed for GET, with the key', async () => {
		const seen: SeenRequest[] = [];
		const { context, apiKey } = freshContext();
		nock(BASE).get('/api/v1/contacts').reply(308, '', { Location: '/api/v2/contacts' });
		replyLogging(nock(BASE).get('/api/v2/contacts'), seen, 200, {
			data: [],
			meta: { hasMore: false },
		});

		await apiRequest.call(context, { method: 'GET', path: '/contacts' });

		expect(seen).toEqual([{ method: 'GET', path: '/api/v2/contacts', apiKey, body: undefined }]);
	});
});

/** A redirect is followed only for GET, only inside the API, at most 3 times; anything else reaches nothing. */
import nock from 'nock';
import { NodeApiError } from 'n8n-workflow';

import { apiRequest } from '../../../nodes/CrmInvoicing/shared/transport';
import { TEST_CREDENTIALS } from '../../helpers/harness';
import { BASE, contextWith, errorOf, freshContext, replyLogging, setUpNock } from './support';
import type { SeenRequest } from './support';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn().mockResolvedValue(undefined),
}));

setUpNock();

const OTHER = 'https://elsewhere.test';

const contextUnder = (prefix: string, apiKey: string) =>
	contextWith({ ...TEST_CREDENTIALS, baseUrl: `${BASE}${prefix}`, apiKey }).context;

describe('which targets are inside the API (followed) and which not (refused, nothing sent)', () => {
	it.each([
		['https://crm.test/api/v1/leads/lead_1', '', true],
		['https://crm.test/api/v2/contacts?cursor=c', '', true],
		['https://crm.test/api/v1', '', true],
		['https://crm.test/api/v3/leads', '', false],
		['https://crm.test/api/v10/leads', '', false],
		['https://crm.test/api/v1evil', '', false],
		['https://crm.test/API/V1/leads', '', false],
		['https://crm.test/api/v1/%2e%2e/%2E%2E/admin', '', false],
		['https://crm.test/api/v1/leads%5c..%5c..%5cadmin', '', false],
		['https://crm.test/api/v1/leads/%0aX', '', false],
		['https://crm.test/api/v1/leads/x%E0%2F..%2Fusers', '', false],
		['https://user:pass@crm.test/api/v1/leads', '', false],
		['https://crm.test/crm/api/v1/leads', '/crm', true],
		['https://crm.test/api/v1/leads', '/crm', false],
		['https://crm.test/crm/../api/v1/leads', '/crm', false],
	] as const)('%s (Base URL path "%s"): followed %p', async (target, prefix, followed) => {
		const seen: SeenRequest[] = [];
		const apiKey = `sk_test_inside_${Math.random().toString(36).slice(2)}`;
		nock(BASE).get(`${prefix}/api/v1/start`).reply(302, '', { Location: target });
		replyLogging(nock(BASE).persist().get(/.*/), seen, 200, { id: 'reached' });

		const answer = apiRequest.call(contextUnder(prefix, apiKey), { method: 'GET', path: '/start' });

		if (followed) {
			expect(await answer).toEqual({ id: 'reached' });
			const { pathname, search } = new URL(target);
			expect(seen).toEqual([{ method: 'GET', path: pathname + search, apiKey, body: undefined }]);
		} else {
			await expect(answer).rejects.toThrow(
				/The node did not follow it: the API key was not sent there$/,
			);
			expect(seen).toEqual([]);
		}
		nock.cleanAll();
	});
});

const ANSWERED = 'The CRM API answered';
const KEY_ONLY = 'The node did not follow it: the API key was not sent there';
const KEY_AND_BODY =
	'The node did not follow it: the API key and the request body were not sent there';
const otherOrigin = (status: number, keyAndBody = KEY_ONLY) =>
	`${ANSWERED} ${status} with a redirect to elsewhere.test (https://elsewhere.test), another origin than the Base URL's (https://crm.test). ${keyAndBody}`;
const outside = (status: number, shown: string, keyAndBody = KEY_ONLY) =>
	`${ANSWERED} ${status} with a redirect to ${shown}, outside the API (/api/v1 or /api/v2). ${keyAndBody}`;

describe('redirects that are refused: the error names the target, the key and the body go nowhere', () => {
	it.each<[string, number, 'GET' | 'POST' | 'PATCH', string | undefined, string | RegExp]>([
		['another host', 301, 'GET', `${OTHER}/api/v1/leads/lead_1`, otherOrigin(301)],
		['another host', 302, 'GET', `${OTHER}/api/v1/leads/lead_1`, otherOrigin(302)],
		['another host', 303, 'GET', `${OTHER}/api/v1/leads/lead_1`, otherOrigin(303)],
		['another host', 307, 'GET', `${OTHER}/api/v1/leads/lead_1`, otherOrigin(307)],
		['another host', 308, 'GET', `${OTHER}/api/v1/leads/lead_1`, otherOrigin(308)],
		['another host', 307, 'POST', `${OTHER}/api/v1/leads`, otherOrigin(307, KEY_AND_BODY)],
		['another port', 302, 'GET', 'https://crm.test:8443/api/v1/x', /redirect to crm\.test:8443 \(/],
		['https → http, same host', 302, 'GET', 'http://crm.test/api/v1/x', /redirect to crm\.test \(/],
		['a protocol-relative Location', 302, 'GET', '//elsewhere.test/x', /to elsewhere\.test \(/],
		['out of the API', 302, 'GET', '/admin/export-all', outside(302, '/admin/export-all')],
		['by dot segments', 302, 'GET', '/api/v1/../../admin/x', outside(302, '/admin/x')],
		['a login page', 302, 'GET', `${BASE}/login?n=%2Fapi`, outside(302, '/login?n=%2Fapi')],
		[
			'encoded dot segments',
			302,
			'GET',
			'/api/v1/..%2f..%2fx',
			outside(302, '/api/v1/..%2f..%2fx'),
		],
		['a POST out of the API', 307, 'POST', '/admin/i', outside(307, '/admin/i', KEY_AND_BODY)],
		['the key in the target', 302, 'GET', '/in?key=KEY', outside(302, '/in?key=[redacted]')],
		[
			'a PATCH inside the origin (redirects are followed only for GET)',
			308,
			'PATCH',
			'/api/v1/leads/lead_1/',
			`${ANSWERED} 308 with a redirect to /api/v1/leads/lead_1/ for PATCH /api/v1/leads/lead_1, and the node follows redirects only for GET. ${KEY_AND_BODY}`,
		],
		[
			'a fourth redirect',
			302,
			'GET',
			'/api/v1/leads/lead_1',
			`${ANSWERED} 302 with a redirect to /api/v1/leads/lead_1, after 3 redirects, the most the node follows. ${KEY_ONLY}`,
		],
		[
			'no Location',
			302,
			'GET',
			undefined,
			`${ANSWERED} 302 with a redirect to no address (its Location header is missing or unreadable). ${KEY_ONLY}`,
		],
	])('%s: %i for %s to %s', async (_name, status, method, location, message) => {
		const { context, apiKey } = freshContext();
		const start = '/api/v1/leads/lead_1';
		const headers = location
			? { Location: location.replace('KEY', encodeURIComponent(apiKey)) }
			: undefined;
		nock(BASE).intercept(start, method).times(4).reply(status, '', headers);
		const reached: SeenRequest[] = [];
		for (const origin of [BASE, OTHER])
			for (const verb of ['GET', 'POST', 'PATCH'])
				replyLogging(nock(origin).persist().intercept(/.*/, verb), reached, 200, { id: 'reached' });
		const body = method === 'GET' ? undefined : { name: 'Jane' };

		const error = await errorOf(apiRequest.call(context, { method, path: '/leads/lead_1', body }));

		expect(error).toBeInstanceOf(NodeApiError);
		if (typeof message === 'string') expect(error.message).toBe(message);
		else expect(error.message).toMatch(message);
		expect(error.httpCode).toBe(String(status));
		expect(reached).toEqual([]);
		expect(JSON.stringify(error)).not.toContain(apiKey);
		nock.cleanAll();
	});

	it('with a Base URL that has a path, the API is under that path, and the error says so', async () => {
		nock(BASE).get('/crm/api/v1/leads/lead_2').reply(301, '', { Location: '/api/v1/leads/lead_2' });

		const answer = apiRequest.call(contextUnder('/crm', 'sk_test_prefixed_base'), {
			method: 'GET',
			path: '/leads/lead_2',
		});

		await expect(answer).rejects.toThrow(
			'redirect to /api/v1/leads/lead_2, outside the API (/crm/api/v1 or /crm/api/v2)',
		);
	});
});

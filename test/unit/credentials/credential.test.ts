import { NodeHelpers } from 'n8n-workflow';

import {
	baseUrlOf,
	CrmInvoicingApi,
	TEST_TIMEOUT_MS,
} from '../../../credentials/CrmInvoicingApi.credentials';
import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { createExecuteContext } from '../../helpers/harness';

const credential = new CrmInvoicingApi();
const field = (name: string) => credential.properties.find((property) => property.name === name)!;
const notice = field('httpNotice');
type BodyRule = { key: string; value: unknown; message: string };

describe('the http:// notice and the fields', () => {
	it("the notice says the key travels unencrypted, with no `show` condition (n8n 1.x's public API would make it a required field); Base URL's hint explains ECONNREFUSED / ENOTFOUND; Requests per Minute is 60, at least 1", () => {
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toMatch(/http:\/\/.*API key .* unencrypted/);
		expect(credential.properties.filter((property) => property.displayOptions?.show)).toEqual([]);
		expect(field('baseUrl').hint).toMatch(/ECONNREFUSED.*ENOTFOUND/);
		expect(field('baseUrl').hint).toMatch(/check the Base URL.*reachable from where n8n runs/);
		expect(field('requestsPerMinute').default).toBe(60);
		expect(field('requestsPerMinute').typeOptions?.minValue).toBe(1);
	});

	it.each([
		['http://crm.example.com', true],
		['HTTP://crm.example.com/api/v1', true],
		['http://10.0.0.5:8080', true],
		['http://localhost.evil.test', true],
		['http://127.0.0.1.nip.io', true],
		['https://crm.example.com', false],
		['http://localhost', false],
		['http://localhost:3000', false],
		['http://127.0.0.1:8080/', false],
		['http://[::1]:8080/crm', false],
		['', false],
		['crm.example.com', false],
	])('Base URL %p → shown: %p', (baseUrl, shown) => {
		expect(NodeHelpers.displayParameter({ baseUrl }, notice, null, null)).toBe(shown);
	});
});

describe('the Test request (issue 17): same Base URL as the node, its own timeout, OK only for the users list', () => {
	it('does not follow redirects, and has its own message for 401, 403, 404 and each redirect status', () => {
		expect(credential.test.request.disableFollowRedirect).toBe(true);
		const messages = new Map(
			(credential.test.rules ?? [])
				.filter((rule) => rule.type === 'responseCode')
				.map((rule) => [(rule.properties as { value: number }).value, rule.properties.message]),
		);
		expect(messages.get(401)).toMatch(/rejected the key \(401\)/);
		expect(messages.get(403)).toMatch(/^The key is valid, but its user may not list users \(403/);
		expect(messages.get(404)).toMatch(/Check the Base URL/);
		for (const status of [301, 302, 303, 307, 308])
			expect(messages.get(status)).toMatch(/the key was not sent anywhere else/);
	});

	const { workflow, node } = createExecuteContext({
		nodeType: new CrmInvoicing(),
		parameters: { resource: 'lead', operation: 'get' },
	});
	/** The Test's baseURL as n8n's expression engine resolves it for these credentials. */
	const testBaseUrl = (baseUrl: string) =>
		workflow.expression.getSimpleParameterValue(
			node,
			credential.test.request.baseURL as string,
			'internal',
			{ $credentials: { baseUrl } },
			undefined,
			'',
		);

	it.each([
		'https://crm.example.com',
		'https://crm.example.com/',
		'https://crm.example.com/api/v1',
		'https://crm.example.com/api/v1 ',
		'  https://crm.example.com/API/V1/',
		'https://crm.example.com/Api/V2',
		'https://crm.example.com/crm/api/v1',
	])('%p: the same address as the node uses, under /api/v1', (baseUrl) => {
		expect(testBaseUrl(baseUrl)).toBe(`${baseUrlOf({ baseUrl })}/api/v1`);
	});

	/** n8n's rule for a 2xx (credentials-tester.service): fails when `get(json, key) === value`. */
	function verdict(json: unknown): string {
		for (const rule of credential.test.rules ?? []) {
			if ((rule.type as string) !== 'responseSuccessBody') continue;
			const { key, value, message } = rule.properties as BodyRule;
			if ((json as Record<string, unknown> | null)?.[key] === value) return message;
		}
		return 'OK';
	}

	const NOT_THE_API = /not with the CRM API's list of users .* Check the Base URL/;
	it.each([
		['a 200 HTML page (n8n hands it on as text)', '<title>Sign in</title>', NOT_THE_API],
		['an empty body', '', NOT_THE_API],
		['a JSON object without items', { ok: true }, NOT_THE_API],
		['items: null', { items: null }, NOT_THE_API],
		['the users list', { items: [], hasMore: false, nextCursor: null }, /^OK$/],
	])('%s: %s', (_name, json, verdictIs) => {
		expect(verdict(json)).toMatch(verdictIs);
	});

	it("authenticate gives the Test's request (baseURL + /users) its timeout and an abort signal, over n8n's 300 s", async () => {
		const options = await credential.authenticate(
			{ apiKey: 'k_123' },
			{ baseURL: 'https://crm.example.com/api/v1', url: '/users', timeout: 300_000 },
		);
		expect(options.timeout).toBe(TEST_TIMEOUT_MS);
		expect(credential.test.request.timeout).toBe(TEST_TIMEOUT_MS);
		expect(TEST_TIMEOUT_MS).toBeLessThanOrEqual(30_000);
		expect(options.abortSignal).toBeInstanceOf(AbortSignal);
		expect(options.abortSignal?.aborted).toBe(false);
		expect(options.headers).toEqual({ 'x-api-key': 'k_123' });

		// A node's request (a full url, its own deadline) keeps them; its key is sent trimmed.
		const signal = new AbortController().signal;
		const forNode = await credential.authenticate(
			{ apiKey: ' k_123\t ' },
			{ url: 'https://crm.example.com/api/v1/users', timeout: 60_000, abortSignal: signal },
		);
		expect(forNode.timeout).toBe(60_000);
		expect(forNode.abortSignal).toBe(signal);
		expect(forNode.headers).toEqual({ 'x-api-key': 'k_123' });
	});
});

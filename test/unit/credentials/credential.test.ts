/** The "CRM Invoicing API" credential: the http:// notice, Requests per Minute, and a Test that follows no redirect. */
import { NodeHelpers } from 'n8n-workflow';

import {
	baseUrlOf,
	CrmInvoicingApi,
	TEST_TIMEOUT_MS,
} from '../../../credentials/CrmInvoicingApi.credentials';
import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { createExecuteContext } from '../../helpers/harness';

const credential = new CrmInvoicingApi();
const notice = credential.properties.find((property) => property.name === 'httpNotice')!;

describe('the http:// notice', () => {
	it("is a notice that says the key travels unencrypted, with no `show` condition (n8n 1.x's public API would make it a required field)", () => {
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toMatch(/http:\/\/.*API key .* unencrypted/);
		expect(credential.properties.filter((property) => property.displayOptions?.show)).toEqual([]);
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

describe('the fields', () => {
	const field = (name: string) => credential.properties.find((property) => property.name === name)!;

	it("Base URL says what n8n's own ECONNREFUSED / ENOTFOUND Test answer means and what to check", () => {
		expect(field('baseUrl').hint).toMatch(/ECONNREFUSED.*ENOTFOUND/);
		expect(field('baseUrl').hint).toMatch(/check the Base URL.*reachable from where n8n runs/);
	});

	it('Requests per Minute defaults to the documented 60 and cannot go below 1', () => {
		expect(field('requestsPerMinute').default).toBe(60);
		expect(field('requestsPerMinute').typeOptions?.minValue).toBe(1);
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
	const testBaseUrl = (baseUrl: string): string =>
		String(
			workflow.expression.getSimpleParameterValue(
				node,
				credential.test.request.baseURL as string,
				'internal',
				{ $credentials: { baseUrl } },
				undefined,
				'',
			),
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

	it(`gives up after ${TEST_TIMEOUT_MS / 1000} s without an answer, not n8n's 300 s`, () => {
		expect(credential.test.request.timeout).toBe(TEST_TIMEOUT_MS);
		expect(TEST_TIMEOUT_MS).toBeLessThanOrEqual(30_000);
	});

	/** n8n's rule for a 2xx (credentials-tester.service): fails when `get(json, key) === value`. */
	function verdict(json: unknown): string {
		for (const rule of credential.test.rules ?? []) {
			if ((rule.type as string) !== 'responseSuccessBody') continue;
			const { key, value, message } = rule.properties as {
				key: string;
				value: unknown;
				message: string;
			};
			const got =
				json !== null && typeof json === 'object'
					? (json as Record<string, unknown>)[key]
					: undefined;
			if (got === value) return message;
		}
		return 'OK';
	}

	it.each([
		['a 200 HTML page (n8n hands it on as text)', '<!doctype html><title>Sign in</title>'],
		['an empty body', ''],
		['a JSON object without items', { ok: true }],
		['items: null', { items: null }],
	])('%s fails, saying it is not the CRM API and to check the Base URL', (_name, json) => {
		expect(verdict(json)).toMatch(/not with the CRM API's list of users .* Check the Base URL/);
	});

	it('the users list passes', () => {
		expect(verdict({ items: [], hasMore: false, nextCursor: null })).toBe('OK');
	});
});

describe("the Test's deadline, set where n8n cannot override it (authenticate)", () => {
	it("the Test's request (baseURL + /users) gets the 15 s idle timeout and an abort signal, over n8n's 300 s", async () => {
		const options = await credential.authenticate(
			{ apiKey: 'k_123' },
			{ baseURL: 'https://crm.example.com/api/v1', url: '/users', timeout: 300_000 },
		);
		expect(options.timeout).toBe(TEST_TIMEOUT_MS);
		expect(options.abortSignal).toBeInstanceOf(AbortSignal);
		expect(options.abortSignal?.aborted).toBe(false);
		expect(options.headers).toEqual({ 'x-api-key': 'k_123' });
	});

	it('sends the key trimmed: a key pasted with spaces around it is the key without them', async () => {
		const options = await credential.authenticate(
			{ apiKey: ' k_123\t ' },
			{ url: 'https://crm.example.com/api/v1/users' },
		);
		expect(options.headers).toEqual({ 'x-api-key': 'k_123' });
	});

	it("a node's request (a full url, its own deadline) is left as it is", async () => {
		const signal = new AbortController().signal;
		const options = await credential.authenticate(
			{ apiKey: 'k_123' },
			{ url: 'https://crm.example.com/api/v1/users', timeout: 60_000, abortSignal: signal },
		);
		expect(options.timeout).toBe(60_000);
		expect(options.abortSignal).toBe(signal);
	});
});

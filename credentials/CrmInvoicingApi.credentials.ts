import type {
	IAuthenticateRuleResponseCode,
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

/** The path the Test reads, under `<Base URL>/api/v1`. */
const TEST_PATH = '/users';

/**
 * Deadline of the Test, in ms (instead of n8n's 300 s): set by `authenticate` as an idle timeout and an abort signal.
 * n8n words the failure itself (ECONNABORTED or ERR_CANCELED). The credential's own bound: the nodes' requests have
 * theirs in the transport (RETRY), and the credential loads none of the transport.
 */
export const TEST_TIMEOUT_MS = 15_000;

/**
 * The API key as it is sent and looked for: the field trimmed, once, here. A key pasted with a space around it is sent
 * without it (the server would trim it and echo the trimmed key), and redacted as sent. The nodes' transport reads
 * the key through this function too (transport/connection.ts).
 */
export function apiKeyOf(data: ICredentialDataDecryptedObject): string {
	return String(data.apiKey ?? '').trim();
}

/** Whether a request is the credential's Test (see `authenticate`). */
function isTheTest(options: IHttpRequestOptions): boolean {
	return typeof options.baseURL === 'string' && options.baseURL !== '' && options.url === TEST_PATH;
}

/** The Test's message for a 2xx that is not the users list. */
const NOT_THE_API =
	'The Base URL answered, but not with the CRM API\'s list of users (GET <Base URL>/api/v1/users gave no "items"): it is probably a login page, a proxy or a web site. Check the Base URL: it is the address of your CRM workspace, without /api/v1.';

export class CrmInvoicingApi implements ICredentialType {
	name = 'crmInvoicingApi';

	displayName = 'CRM Invoicing API';

	icon: Icon = {
		light: 'file:../nodes/CrmInvoicing/crmInvoicing.svg',
		dark: 'file:../nodes/CrmInvoicing/crmInvoicing.dark.svg',
	};

	documentationUrl = 'https://github.com/crm-invoicing/n8n-nodes-crm-invoicing#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://your-workspace.example.com',
			required: true,
			description:
				'The address of your CRM workspace, without /api/v1 at the end. The node adds /api/v1 or /api/v2 itself.',
			// n8n words a Test that reaches nothing itself (ECONNREFUSED, ENOTFOUND); a declarative credential test cannot
			// replace that text, so the advice stands under the field.
			hint: 'If the Test answers ECONNREFUSED, ENOTFOUND or a timeout (ECONNABORTED, ERR_CANCELED: no complete answer within 15 s), nothing answered at this address from the n8n server: check the Base URL, and that the CRM is reachable from where n8n runs (not only from your browser).',
		},
		{
			displayName:
				'This Base URL starts with http://: the API key and all data travel unencrypted, readable by anyone on the network path. Use https:// unless the CRM runs on this machine.',
			name: 'httpNotice',
			type: 'notice',
			default: '',
			// Only `hide`: n8n 1.x's public API turns a `show` condition into a required field, so creating a credential
			// with an http:// Base URL through it would demand a value for this notice.
			displayOptions: {
				hide: {
					baseUrl: [
						{ _cnd: { regex: '^[^:]*$' } },
						{ _cnd: { regex: '^[Hh][Tt][Tt][Pp][Ss]:' } },
						{
							_cnd: {
								regex: '^[Hh][Tt][Tt][Pp]://(localhost|127\\.0\\.0\\.1|\\[::1\\])(:[0-9]+)?(/.*)?$',
							},
						},
					],
				},
			},
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Create a key in the developer settings of your CRM workspace. The key acts with the permissions of the user who created it.',
		},
		{
			displayName: 'Requests per Minute',
			name: 'requestsPerMinute',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 60,
			description:
				"The API's rate limit for this key. The API documents 60; raise it only if your plan allows more. When the API's answers carry RateLimit-* headers, the node follows those instead.",
		},
	];

	/**
	 * Sends the key as `x-api-key`. A function rather than the declarative `{{$credentials.apiKey}}` form: n8n
	 * evaluates that expression on every request, which cost a quarter of the node time of a 100-page Return All
	 * (bench/: 202 ms against 155 ms).
	 *
	 * It also bounds the Test. n8n runs a declarative Test through its RoutingNode, which sets the request's timeout
	 * to 300 s and ignores a `timeout` in `test.request`; this function is the last to see the Test's request before it
	 * is sent, so it gives the Test its own deadline here: an idle timeout and an abort signal, both
	 * TEST_TIMEOUT_MS. The Test's request is the only one with a `baseURL` and the path `/users` (the
	 * nodes' requests carry a full `url`, and set their own deadline in transport/request.ts).
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const options: IHttpRequestOptions = {
			...requestOptions,
			headers: { ...requestOptions.headers, 'x-api-key': apiKeyOf(credentials) },
		};
		if (isTheTest(requestOptions)) {
			options.timeout = TEST_TIMEOUT_MS;
			options.abortSignal = AbortSignal.timeout(TEST_TIMEOUT_MS);
		}
		return options;
	}

	/**
	 * The Test: GET /api/v1/users?limit=1 with the key. Redirects are not followed (`disableFollowRedirect`), so the
	 * key never reaches another host from here either; a redirect fails the test with its own message.
	 *
	 * - The Base URL is cleaned exactly as the node cleans it (transport/request.ts `normalizeBaseUrl`): spaces around
	 *   it, trailing slashes, and a trailing /api/v1 or /api/v2 in any case.
	 * - It has its own deadline (TEST_TIMEOUT_MS) instead of n8n's 300 s, set in `authenticate` (see there).
	 * - It says OK only for an answer shaped like the users list (`{ items: [...] }`): the `responseSuccessBody` rules
	 *   fail it when `items` is missing (an HTML login page, a proxy's page, a JSON that is not the list). n8n compares
	 *   with `===` only, so "missing" and `null` are checked; a list's `items` that is not an array is not caught here
	 *   (the node's list reader refuses it at the first run).
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL:
				'={{String($credentials.baseUrl ?? "").trim().replace(/\\/+$/, "").replace(/\\/api\\/v[12]$/i, "")}}/api/v1',
			url: TEST_PATH,
			qs: { limit: 1 },
			disableFollowRedirect: true,
			// n8n's RoutingNode replaces this with its own 300 s; `authenticate` sets the Test's deadline instead.
			timeout: TEST_TIMEOUT_MS,
		},
		// n8n checks `responseCode` rules on an error status and `responseSuccessBody` rules on a 2xx, from one list;
		// its type declares the list as one kind or the other, hence the cast.
		rules: [
			{
				type: 'responseSuccessBody',
				properties: { key: 'items', value: undefined, message: NOT_THE_API },
			},
			{
				type: 'responseSuccessBody',
				properties: { key: 'items', value: null, message: NOT_THE_API },
			},
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The API rejected the key (401). Copy the key again from the developer settings of your CRM workspace.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The key is valid, but its user may not list users (403 on <Base URL>/api/v1/users), which is what this test reads. Operations that user may do will work; for the user search, ask a workspace admin for the permission.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'Nothing answered at <Base URL>/api/v1/users (404). Check the Base URL: it is the address of your workspace, without /api/v1.',
				},
			},
			...[301, 302, 303, 307, 308].map((status) => ({
				type: 'responseCode' as const,
				properties: {
					value: status,
					message: `The Base URL answered with a redirect (${status}). The test did not follow it, so the key was not sent anywhere else. Use the address the CRM answers on directly (for example https:// instead of http://).`,
				},
			})),
		] as unknown as IAuthenticateRuleResponseCode[],
	};
}

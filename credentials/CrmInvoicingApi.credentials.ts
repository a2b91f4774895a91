import type {
	IAuthenticateRuleResponseCode,
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

/** Instead of n8n's 300 s (see `authenticate`). The nodes' requests have their deadlines in the transport. */
export const TEST_TIMEOUT_MS = 15_000;

/** Trimmed, once, here: the server would trim a pasted space and echo the trimmed key, which the redactor must know. */
export function apiKeyOf(data: ICredentialDataDecryptedObject) {
	return String(data.apiKey ?? '').trim();
}

/** `https://x.example/`, `…/api/v1` and `…/api/v2` are one. */
export const baseUrlOf = (data: ICredentialDataDecryptedObject) =>
	`${data.baseUrl ?? ''}`.trim().replace(/(\/api\/v[12])?\/*$/i, '');

/** The Test's answers other than 2xx, but for the redirects (their own text, in `test`). */
const REFUSALS: Partial<Record<number, string>> = {
	401: 'The API rejected the key (401). Copy the key again from the developer settings of your CRM workspace.',
	403:
		'The key is valid, but its user may not list users (403 on <Base URL>/api/v1/users), which is what this test reads. ' +
		'Operations that user may do will work; for the user search, ask a workspace admin for the permission.',
	404: 'Nothing answered at <Base URL>/api/v1/users (404). Check the Base URL: it is the address of your workspace, without /api/v1.',
};

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
			// n8n words a Test that reaches nothing itself; a declarative test cannot replace that text.
			hint:
				'If the Test answers ECONNREFUSED, ENOTFOUND or a timeout (ECONNABORTED, ERR_CANCELED: no complete answer within 15 s), nothing answered at this address from the n8n server: ' +
				'check the Base URL, and that the CRM is reachable from where n8n runs (not only from your browser).',
		},
		{
			displayName:
				'This Base URL starts with http://: the API key and all data travel unencrypted, readable by anyone on the network path. Use https:// unless the CRM runs on this machine.',
			name: 'httpNotice',
			type: 'notice',
			default: '',
			// Only `hide`: n8n 1.x's public API turns a `show` condition into a required field.
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

	/** A function, since n8n evaluates `{{$credentials.apiKey}}` on every request (bench/). It also bounds the Test,
	 * which n8n's RoutingNode gives 300 s whatever `test.request` says. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	) {
		// Typed: an inferred type names axios' types, which a build beside another node_modules cannot emit (TS2742).
		const options: IHttpRequestOptions = {
			...requestOptions,
			headers: { ...requestOptions.headers, 'x-api-key': apiKeyOf(credentials) },
		};
		// Only the Test's url is relative: a node's request has the full url (the transport's baseUrl and /api/vN).
		if (requestOptions.url === '/users') {
			options.timeout = TEST_TIMEOUT_MS;
			options.abortSignal = AbortSignal.timeout(TEST_TIMEOUT_MS);
		}
		return options;
	}

	/** A redirect is not followed (the key reaches no other host). n8n compares `items` with `===`, so a missing or null
	 * `items` fails (a login page, a proxy). */
	test: ICredentialTestRequest = {
		request: {
			baseURL:
				'={{String($credentials.baseUrl ?? "").trim().replace(/\\/+$/, "").replace(/\\/api\\/v[12]$/i, "")}}/api/v1',
			url: '/users',
			qs: { limit: 1 },
			disableFollowRedirect: true,
			timeout: TEST_TIMEOUT_MS,
		},
		// n8n reads `responseCode` and `responseSuccessBody` rules from one list; its type allows one kind, hence the cast.
		rules: [
			...[undefined, null].map((value) => ({
				type: 'responseSuccessBody',
				properties: {
					key: 'items',
					value,
					message:
						'The Base URL answered, but not with the CRM API\'s list of users (GET <Base URL>/api/v1/users gave no "items"): ' +
						'it is probably a login page, a proxy or a web site. Check the Base URL: it is the address of your CRM workspace, without /api/v1.',
				},
			})),
			...[401, 403, 404, 301, 302, 303, 307, 308].map((status) => ({
				type: 'responseCode',
				properties: {
					value: status,
					message:
						REFUSALS[status] ??
						`The Base URL answered with a redirect (${status}). The test did not follow it, so the key was not sent anywhere else. ` +
							'Use the address the CRM answers on directly (for example https:// instead of http://).',
				},
			})),
		] as unknown as IAuthenticateRuleResponseCode[],
	};
}

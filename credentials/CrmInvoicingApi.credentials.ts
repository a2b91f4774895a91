import type {
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

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
	];

	/**
	 * Sends the key as `x-api-key`. A function rather than the declarative `{{$credentials.apiKey}}` form: n8n
	 * evaluates that expression on every request, which cost a quarter of the node time of a 100-page Return All
	 * (bench/: 202 ms against 155 ms).
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, 'x-api-key': String(credentials.apiKey ?? '') },
		};
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "").replace(/\\/api\\/v[12]$/, "")}}/api/v1',
			url: '/users',
			qs: { limit: 1 },
		},
		rules: [
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
					value: 404,
					message:
						'Nothing answered at <Base URL>/api/v1/users (404). Check the Base URL: it is the address of your workspace, without /api/v1.',
				},
			},
		],
	};
}

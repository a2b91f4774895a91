import nock from 'nock';
import { NodeApiError, NodeConnectionTypes } from 'n8n-workflow';
import type {
	IDataObject,
	IHookFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { CrmInvoicing } from '../../nodes/CrmInvoicing/CrmInvoicing.node';
import { searchLeads } from '../../nodes/CrmInvoicing/actions/methods/listSearch';
import { apiRequest } from '../../nodes/CrmInvoicing/shared/transport';
import {
	createExecuteContext,
	createHookContext,
	createLoadOptionsContext,
	createWebhookContext,
	runNode,
	TEST_CREDENTIALS,
} from '../helpers/harness';
import { useNock } from '../helpers/nock';

const BASE = TEST_CREDENTIALS.baseUrl;
const LEAD_GET = {
	resource: 'lead',
	operation: 'get',
	leadId: { __rl: true, mode: 'id', value: 'lead_1' },
};

/** A minimal trigger, to drive the hook and webhook contexts the way our trigger node will. */
class FakeTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Fake Trigger',
		name: 'fakeTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Harness test trigger',
		defaults: { name: 'Fake Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'crmInvoicingApi', required: true }],
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		],
		properties: [
			{ displayName: 'Events', name: 'events', type: 'string', default: 'lead.created' },
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return this.getWorkflowStaticData('node').webhookId !== undefined;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const body = {
					name: `n8n ${this.getWorkflow().name}`,
					url: this.getNodeWebhookUrl('default') as string,
					events: [this.getNodeParameter('events') as string],
				};
				const created = await apiRequest.call(this, { method: 'POST', path: '/webhooks', body });
				const staticData = this.getWorkflowStaticData('node');
				staticData.webhookId = created.id;
				staticData.mode = this.getMode();
				staticData.activation = this.getActivationMode();
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				const staticData = this.getWorkflowStaticData('node');
				await apiRequest.call(this, {
					method: 'DELETE',
					path: `/webhooks/${String(staticData.webhookId)}`,
				});
				delete staticData.webhookId;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject() as unknown as { rawBody: Buffer };
		const headers = this.getHeaderData() as IDataObject;
		if (headers['webhook-id'] === 'reject') {
			this.getResponseObject().status(401).json({ error: 'bad signature' });
			return { noWebhookResponse: true };
		}
		const credentials = await this.getCredentials('crmInvoicingApi');
		this.logger.info('delivery received', { id: headers['webhook-id'] });
		return {
			workflowData: [
				this.helpers.returnJsonArray({
					...(this.getBodyData() as IDataObject),
					raw: request.rawBody.toString('utf8'),
					id: headers['webhook-id'] as string,
					param: this.getNodeParameter('events') as string,
					baseUrl: credentials.baseUrl as string,
				}),
			],
		};
	}
}

useNock();

describe('runNode', () => {
	it('sends the x-api-key header from the credential, counts its reads, and resolves resource locators', async () => {
		const scope = nock(BASE)
			.get('/api/v1/leads/lead_1')
			.matchHeader('x-api-key', TEST_CREDENTIALS.apiKey)
			.reply(200, { id: 'lead_1', name: 'Jane' });
		const { context, credentialsHelper } = createExecuteContext({
			nodeType: new CrmInvoicing(),
			parameters: LEAD_GET,
		});

		const output = await new CrmInvoicing().execute.call(context);

		expect(output).toEqual([[{ json: { id: 'lead_1', name: 'Jane' }, pairedItem: { item: 0 } }]]);
		expect(scope.isDone()).toBe(true);
		expect(credentialsHelper.getDecryptedCalls).toBe(1);
	});

	it('resolves expressions per item, and fills in parameter defaults', async () => {
		const bodies: unknown[] = [];
		nock(BASE)
			.post('/api/v1/leads', (body: IDataObject) => {
				bodies.push(body);
				return true;
			})
			.times(2)
			.reply(201, (_uri, body) => ({ id: 'lead_new', ...(body as IDataObject) }));

		const output = await runNode({
			nodeType: new CrmInvoicing(),
			// No "additionalFields": n8n fills in its default ({}). Version 2's parameters (name, additionalFields).
			typeVersion: 2,
			parameters: {
				resource: 'lead',
				operation: 'create',
				name: '={{ $json.first + " " + $json.last }}',
			},
			items: [
				{ json: { first: 'Ada', last: 'Lovelace' } },
				{ json: { first: 'Alan', last: 'Turing' } },
			],
		});

		expect(bodies).toEqual([{ name: 'Ada Lovelace' }, { name: 'Alan Turing' }]);
		expect(output[0].map((item) => item.json.name)).toEqual(['Ada Lovelace', 'Alan Turing']);
	});

	it('rejects with the node error, or returns it as an item with Continue On Fail', async () => {
		const parameters = {
			resource: 'lead',
			operation: 'get',
			leadId: { __rl: true, mode: 'id', value: 'nope' },
		};
		nock(BASE)
			.get('/api/v1/leads/nope')
			.times(2)
			.reply(404, { error: { code: 'NOT_FOUND', message: 'Lead not found' } });

		await expect(runNode({ nodeType: new CrmInvoicing(), parameters })).rejects.toThrow(
			NodeApiError,
		);

		const output = await runNode({
			nodeType: new CrmInvoicing(),
			parameters,
			continueOnFail: true,
		});
		expect(output[0][0].json).toMatchObject({
			error: expect.stringContaining('404'),
			httpCode: '404',
		});
	});

	it('fails like n8n when the node has no credential', async () => {
		const noCredential = { nodeType: new CrmInvoicing(), parameters: LEAD_GET, credentials: null };
		await expect(runNode(noCredential)).rejects.toThrow(/credentials/i);
	});
});

describe('n8n request helpers', () => {
	it('returns status, headers and body of a 500 with ignoreHttpStatusErrors, and throws without, as n8n does', async () => {
		nock(BASE)
			.get('/api/v1/boom')
			.times(2)
			.matchHeader('x-api-key', TEST_CREDENTIALS.apiKey)
			.reply(
				500,
				{ error: { code: 'INTERNAL', message: 'Something broke' } },
				{ 'X-Request-Id': 'req_1' },
			);
		const { context } = createExecuteContext({ nodeType: new CrmInvoicing(), parameters: {} });
		const options: IHttpRequestOptions = { method: 'GET', url: `${BASE}/api/v1/boom`, json: true };
		const request = (extra: Partial<IHttpRequestOptions>) =>
			context.helpers.httpRequestWithAuthentication.call(context, 'crmInvoicingApi', {
				...options,
				...extra,
			});

		const response = (await request({
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		})) as IN8nHttpFullResponse;

		expect(response.statusCode).toBe(500);
		expect(response.headers['x-request-id']).toBe('req_1');
		expect(response.body).toEqual({ error: { code: 'INTERNAL', message: 'Something broke' } });
		await expect(request({})).rejects.toThrow(NodeApiError);
	});
});

describe('createLoadOptionsContext', () => {
	it('runs a list search with the credential', async () => {
		nock(BASE)
			.get('/api/v1/leads')
			.query({ limit: '100', search: 'ja' })
			.matchHeader('x-api-key', TEST_CREDENTIALS.apiKey)
			.reply(200, {
				items: [{ id: 'lead_1', name: 'Jane', email: 'jane@example.com' }],
				hasMore: true,
				nextCursor: 'c2',
			});
		const { context } = createLoadOptionsContext({
			nodeType: new CrmInvoicing(),
			parameters: { resource: 'lead', operation: 'get' },
		});

		const result = await searchLeads.call(context, 'ja');

		expect(result).toEqual({
			results: [{ name: 'Jane · jane@example.com · lead_1', value: 'lead_1' }], // no lead number: the ID takes its place
			paginationToken: 'c2',
		});
		expect(context.getCurrentNodeParameter('operation')).toBe('get');
	});
});

describe('createHookContext', () => {
	const webhookUrl = 'https://n8n.example.com/webhook/abc/webhook';

	it('runs create and delete, and exposes the static data they stored', async () => {
		const trigger = new FakeTrigger();
		const created = nock(BASE)
			.post('/api/v1/webhooks', {
				name: 'n8n Signup flow',
				url: webhookUrl,
				events: ['deal.updated'],
			})
			.matchHeader('x-api-key', TEST_CREDENTIALS.apiKey)
			.reply(201, { id: 'wh_1', secret: 'whsec_x' });
		const { context, staticData } = createHookContext({
			nodeType: trigger,
			parameters: { events: 'deal.updated' },
			webhookUrl,
			workflowName: 'Signup flow',
		});

		expect(await trigger.webhookMethods.default.checkExists.call(context)).toBe(false);
		expect(await trigger.webhookMethods.default.create.call(context)).toBe(true);
		expect(created.isDone()).toBe(true);
		expect(staticData).toEqual({ webhookId: 'wh_1', mode: 'trigger', activation: 'activate' });
		expect(context.getNodeWebhookUrl('default')).toBe(webhookUrl);
		expect(context.getWorkflow()).toMatchObject({ name: 'Signup flow', active: true });

		const deleted = nock(BASE).delete('/api/v1/webhooks/wh_1').reply(204);
		expect(await trigger.webhookMethods.default.delete.call(context)).toBe(true);
		expect(deleted.isDone()).toBe(true);
		expect(staticData).toEqual({ mode: 'trigger', activation: 'activate' });
	});

	it('starts from the given static data, in manual mode', async () => {
		const trigger = new FakeTrigger();
		const initial: IDataObject = { webhookId: 'wh_old' };
		const { context, staticData } = createHookContext({
			nodeType: trigger,
			parameters: {},
			webhookUrl,
			staticData: initial,
			mode: 'manual',
			activation: 'update',
		});

		expect(await trigger.webhookMethods.default.checkExists.call(context)).toBe(true);
		expect(context.getMode()).toBe('manual');
		expect(context.getActivationMode()).toBe('update');
		staticData.extra = 1;
		expect(initial).toEqual({ webhookId: 'wh_old', extra: 1 });
	});
});

describe('createWebhookContext', () => {
	it('hands the trigger the raw body, headers, parsed body, parameters and credential', async () => {
		const trigger = new FakeTrigger();
		const rawBody = Buffer.from('{"event":"lead.created","payload":{"id":"lead_1"}}');
		const { context, response } = createWebhookContext({
			nodeType: trigger,
			parameters: { events: 'lead.created' },
			headers: { 'Webhook-Id': 'msg_1', 'content-type': 'application/json' },
			rawBody,
		});

		const result = await trigger.webhook.call(context);

		expect(result.workflowData).toEqual([
			[
				{
					json: {
						event: 'lead.created',
						payload: { id: 'lead_1' },
						raw: rawBody.toString('utf8'),
						id: 'msg_1',
						param: 'lead.created',
						baseUrl: TEST_CREDENTIALS.baseUrl,
					},
				},
			],
		]);
		expect(response.calls).toEqual([]);
		expect(context.getWebhookName()).toBe('default');
	});

	it('records what the trigger answers', async () => {
		const trigger = new FakeTrigger();
		const { context, response, request } = createWebhookContext({
			nodeType: trigger,
			parameters: {},
			headers: { 'webhook-id': 'reject' },
			rawBody: Buffer.from('not json'),
		});

		expect(request.body).toEqual({});
		expect(await trigger.webhook.call(context)).toEqual({ noWebhookResponse: true });
		expect(response.statusCode).toBe(401);
		expect(response.calls).toEqual([
			{ method: 'status', args: [401] },
			{ method: 'json', args: [{ error: 'bad signature' }] },
		]);
	});
});

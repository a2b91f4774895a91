/**
 * What the harness itself must do like n8n; the rest of it is proved through the node and the triggers (trigger/,
 * actions/lead.test.ts, actions/getById.test.ts, transport/request.test.ts, transport/pagination.test.ts).
 */
import nock from 'nock';
import { NodeApiError } from 'n8n-workflow';
import type { IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { CrmInvoicing } from '../../nodes/CrmInvoicing/CrmInvoicing.node';
import { createExecuteContext, runNode, TEST_CREDENTIALS } from '../helpers/harness';
import { useNock } from '../helpers/nock';

const BASE = TEST_CREDENTIALS.baseUrl;
const LEAD_GET = {
	resource: 'lead',
	operation: 'get',
	leadId: { __rl: true, mode: 'id', value: 'lead_1' },
};

useNock();

describe('runNode', () => {
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

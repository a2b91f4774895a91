/** The operations that address one record by ID: the ID from a list pick, text or an expression's number, URL-encoded. */
import type { INodeParameters } from 'n8n-workflow';

import { byId, fromList, run, useNock } from './support';
import { answer, calls } from '../../helpers/actions';

useNock();

const n = '={{ $json.n }}';
const get = (resource: string, key: string, id: unknown) => ({
	resource,
	operation: 'get',
	[key]: id,
});

describe('get (and update) by ID, every resource', () => {
	it.each([
		['lead from a list pick', get('lead', 'leadId', fromList('lead_1')), '/leads/lead_1'],
		['lead, URL-encoded', get('lead', 'leadId', byId('a/b')), '/leads/a%2Fb'],
		['lead, a number', get('lead', 'leadId', byId(n)), '/leads/42'],
		['client, trimmed', get('client', 'clientId', ' cli_1 '), '/clients/cli_1'],
		['client, URL-encoded', get('client', 'clientId', 'cli 1?'), '/clients/cli%201%3F'],
		['client, a number', get('client', 'clientId', n), '/clients/42'],
		['product', get('product', 'productId', 'prd_1'), '/products/prd_1'],
		['product, a number', get('product', 'productId', n), '/products/42'],
		['webhook, a number', get('webhook', 'webhookId', n), '/webhooks/42'],
		[
			'deal update, a number',
			{ resource: 'deal', operation: 'update', dealId: n, updateFields: { title: 'T' } },
			'/deals/42',
		],
	] as const)('%s', async (_case, parameters, path) => {
		// Update is the one PATCH here; every other operation reads.
		const method = (parameters as INodeParameters).operation === 'update' ? 'patch' : 'get';
		const record = { id: 'rec_1', name: 'Acme' };
		const seen = answer(method, `/api/v1${path}`, record);

		const output = await run(parameters as unknown as INodeParameters, {
			items: [{ json: { n: 42 } }],
		});

		expect(calls(seen)).toEqual([`${method.toUpperCase()} /api/v1${path}`]);
		expect(output).toEqual([{ json: record, pairedItem: { item: 0 } }]);
	});
});

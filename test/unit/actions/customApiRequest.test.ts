import type { IDataObject } from 'n8n-workflow';

import { api, jsonOf, run, useNock } from './support';
import { answer } from '../../helpers/actions';

useNock();

const request = (parameters: IDataObject) => ({
	resource: 'customApiRequest',
	operation: 'request',
	...parameters,
});

describe('custom API request: single requests', () => {
	it('GET under /api/v1 with query parameters outputs an object as one item', async () => {
		api()
			.get('/api/v1/invoices/inv_1')
			.query({ expand: 'lineItems', page: '2' })
			.reply(200, { id: 'inv_1', total: 10 });

		const output = await run(
			request({
				method: 'GET',
				path: '/invoices/inv_1',
				queryParameters: {
					parameters: [
						{ name: 'expand', value: 'lineItems' },
						{ name: ' page ', value: '2' },
						{ name: '', value: 'x' },
					],
				},
			}),
		);

		expect(output).toEqual([{ json: { id: 'inv_1', total: 10 }, pairedItem: { item: 0 } }]);
	});

	it('an array response becomes one item per record; non-objects are wrapped', async () => {
		api()
			.get('/api/v2/pipelines')
			.reply(200, [{ id: 'pip_1' }, { id: 'pip_2' }, 'odd']);

		const output = await run(request({ method: 'GET', apiVersion: 'v2', path: '/pipelines' }));

		expect(jsonOf(output)).toEqual([{ id: 'pip_1' }, { id: 'pip_2' }, { value: 'odd' }]);
	});

	it.each([
		[
			'POST',
			'v1',
			'/leads',
			'{"name": "Jane", "customFields": {"a": 1}}',
			200,
			{ name: 'Jane', customFields: { a: 1 } },
		],
		['POST', 'v1', '/leads', '={{ { name: $json.name } }}', 200, { name: 'Jane' }],
		['PATCH', 'v1', '/deals/deal_1', { status: 'WON' }, 204, { status: 'WON' }],
		['PUT', 'v2', '/settings', '[{"a": 1}]', 200, [{ a: 1 }]],
		// An empty object is no body.
		['DELETE', 'v1', '/webhooks/whk_1', undefined, 204, undefined],
	] as const)(
		'%s /api/%s%s with %j sends its body; an empty answer is { success: true }',
		async (method, apiVersion, path, jsonBody, status, sent) => {
			const answered = method === 'POST' ? { id: 'lead_1' } : undefined;
			const lower = method.toLowerCase() as 'post' | 'patch' | 'put' | 'delete';
			const seen = answer(lower, `/api/${apiVersion}${path}`, answered, { status });

			const output = await run(request({ method, apiVersion, path, jsonBody }), {
				items: [{ json: { name: 'Jane' } }],
			});

			expect(seen).toEqual([{ method, path: `/api/${apiVersion}${path}`, body: sent }]);
			expect(output).toEqual([{ json: answered ?? { success: true }, pairedItem: { item: 0 } }]);
		},
	);
});

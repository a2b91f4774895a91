import type { IDataObject } from 'n8n-workflow';

import { api, expectValidationError, jsonOf, logging, run, useNock } from './support';
import { answer } from '../../helpers/actions';
import type { SeenRequest } from './support';

useNock();

const request = (parameters: IDataObject) => ({
	resource: 'customApiRequest',
	operation: 'request',
	...parameters,
});

describe('custom API request: single requests', () => {
	it('GET under /api/v1 with query parameters outputs an object as one item', async () => {
		const scope = api()
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

		expect(scope.isDone()).toBe(true);
		expect(output).toEqual([{ json: { id: 'inv_1', total: 10 }, pairedItem: { item: 0 } }]);
	});

	it('an array response becomes one item per record; non-objects are wrapped', async () => {
		api()
			.get('/api/v2/pipelines')
			.reply(200, [{ id: 'pip_1' }, { id: 'pip_2' }, 'odd']);

		const output = await run(request({ method: 'GET', apiVersion: 'v2', path: '/pipelines' }));

		expect(jsonOf(output)).toEqual([{ id: 'pip_1' }, { id: 'pip_2' }, { value: 'odd' }]);
	});

	it('POST sends the JSON body (text or expression) and outputs the answer', async () => {
		const seen = answer('post', '/api/v1/leads', { id: 'lead_1', name: 'Jane' }, { times: 2 });

		await run(
			request({
				method: 'POST',
				path: '/leads',
				jsonBody: '{"name": "Jane", "customFields": {"a": 1}}',
			}),
		);
		const output = await run(
			request({ method: 'POST', path: '/leads', jsonBody: '={{ { name: $json.name } }}' }),
			{
				items: [{ json: { name: 'Jane' } }],
			},
		);

		expect(seen).toEqual([
			{ method: 'POST', path: '/api/v1/leads', body: { name: 'Jane', customFields: { a: 1 } } },
			{ method: 'POST', path: '/api/v1/leads', body: { name: 'Jane' } },
		]);
		expect(jsonOf(output)).toEqual([{ id: 'lead_1', name: 'Jane' }]);
	});

	it('PATCH and PUT send their bodies; an empty answer is { success: true }', async () => {
		const seen: SeenRequest[] = [];
		api()
			.patch('/api/v1/deals/deal_1')
			.reply(logging(seen, 204))
			.put('/api/v2/settings')
			.reply(logging(seen, 200, {}));

		const patched = await run(
			request({ method: 'PATCH', path: '/deals/deal_1', jsonBody: { status: 'WON' } }),
		);
		const put = await run(
			request({ method: 'PUT', apiVersion: 'v2', path: '/settings', jsonBody: '[{"a": 1}]' }),
		);

		expect(seen).toEqual([
			{ method: 'PATCH', path: '/api/v1/deals/deal_1', body: { status: 'WON' } },
			{ method: 'PUT', path: '/api/v2/settings', body: [{ a: 1 }] },
		]);
		expect(jsonOf(patched)).toEqual([{ success: true }]);
		expect(jsonOf(put)).toEqual([{ success: true }]);
	});

	it('DELETE sends no body for an empty object and outputs { success: true }', async () => {
		const seen: SeenRequest[] = [];
		api().delete('/api/v1/webhooks/whk_1').reply(logging(seen, 204));

		const output = await run(request({ method: 'DELETE', path: '/webhooks/whk_1' }));

		expect(seen).toEqual([{ method: 'DELETE', path: '/api/v1/webhooks/whk_1', body: undefined }]);
		expect(output).toEqual([{ json: { success: true }, pairedItem: { item: 0 } }]);
	});
});

describe('custom API request: refusals before any request', () => {
	const dots =
		'is refused in item 0: it has a ".." segment, which would point outside the API path';
	const post = (jsonBody: string) => request({ method: 'POST', path: '/leads', jsonBody });

	it.each([
		[request({ path: 'leads' }), '"Path" must start with / but is "leads" in item 0'],
		[
			request({ path: '/redirect?to=https://evil.example' }),
			'"Path" must not contain "://" (a full URL) in item 0',
		],
		[
			request({ path: '/redirect?to=https%3A%2F%2Fevil.example' }),
			'"Path" must not contain "://" (a full URL) in item 0',
		],
		[request({ path: '/leads/../admin' }), `"Path" ${dots}`],
		[request({ path: '/leads/%2e%2e/admin' }), `"Path" ${dots}`],
		[
			request({ path: '/api/v1/leads' }),
			'"Path" must not start with the version prefix (/api/v1) in item 0',
		],
		[request({ path: '' }), '"Path" is required but is empty in item 0'],
		[post('{nope'), '"JSON Body" is not valid JSON in item 0'],
		[post('42'), '"JSON Body" must be a JSON object or array in item 0'],
		[
			request({ method: 'GET', path: '/leads', paginate: true, limit: -1 }),
			'"Limit" must be a whole number of at least 1',
		],
	])('%j: %s', async (parameters, message) => {
		await expectValidationError(parameters, message);
	});
});

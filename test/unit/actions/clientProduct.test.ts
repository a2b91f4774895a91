import { api, expectValidationError, jsonOf, run, useNock } from './support';

useNock();

describe('client and product: get', () => {
	it.each([
		[
			{ resource: 'client', operation: 'get', clientId: ' cli_1 ' },
			'/api/v1/clients/cli_1',
			{ id: 'cli_1', number: 'C-0001', name: 'Acme', type: 'company' },
		],
		[
			{ resource: 'product', operation: 'get', productId: 'prd_1' },
			'/api/v1/products/prd_1',
			{ id: 'prd_1', name: 'Licence', price: 99, type: 'service', isActive: true },
		],
	])('%j GETs %s and outputs the record', async (parameters, path, record) => {
		const scope = api().get(path).reply(200, record);

		const output = await run(parameters);

		expect(scope.isDone()).toBe(true);
		expect(output).toEqual([{ json: record, pairedItem: { item: 0 } }]);
	});

	it('gets one client per item, URL-encoding each ID', async () => {
		const scope = api()
			.get('/api/v1/clients/cli_1')
			.reply(200, { id: 'cli_1' })
			.get('/api/v1/clients/cli%201%3F')
			.reply(200, { id: 'cli 1?' });

		const output = await run(
			{ resource: 'client', operation: 'get', clientId: '={{ $json.id }}' },
			{ items: [{ json: { id: 'cli_1' } }, { json: { id: 'cli 1?' } }] },
		);

		expect(scope.isDone()).toBe(true);
		expect(jsonOf(output)).toEqual([{ id: 'cli_1' }, { id: 'cli 1?' }]);
	});

	it.each([
		[{ resource: 'client', operation: 'get', clientId: '' }, '"Client ID"'],
		[{ resource: 'product', operation: 'get', productId: ' ' }, '"Product ID"'],
	])('%j is refused before any request', async (parameters, field) => {
		await expectValidationError(parameters, `${field} is required but is empty in item 0`);
	});
});

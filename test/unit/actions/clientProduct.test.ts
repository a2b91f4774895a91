import { api, expectValidationError, jsonOf, run, useNock } from './support';

useNock();

describe('client: get', () => {
	it('GETs /clients/{id} and outputs the client', async () => {
		const client = {
			id: 'cli_1',
			number: 'C-0001',
			name: 'Acme',
			type: 'company',
			createdAt: '2026-01-01T00:00:00.000Z',
		};
		const scope = api().get('/api/v1/clients/cli_1').reply(200, client);

		const output = await run({ resource: 'client', operation: 'get', clientId: ' cli_1 ' });

		expect(scope.isDone()).toBe(true);
		expect(output).toEqual([{ json: client, pairedItem: { item: 0 } }]);
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

	it('with Continue on Fail, a 404 is the error of its item', async () => {
		api()
			.get('/api/v1/clients/cli_1')
			.reply(200, { id: 'cli_1' })
			.get('/api/v1/clients/cli_x')
			.reply(404, { error: { code: 'NOT_FOUND', message: 'Client cli_x was not found' } });

		const output = await run(
			{ resource: 'client', operation: 'get', clientId: '={{ $json.id }}' },
			{ items: [{ json: { id: 'cli_x' } }, { json: { id: 'cli_1' } }], continueOnFail: true },
		);

		expect(output[0]).toMatchObject({ json: { httpCode: '404' }, pairedItem: { item: 0 } });
		expect(output[0].json.error).toContain('Client cli_x was not found');
		expect(output[1]).toEqual({ json: { id: 'cli_1' }, pairedItem: { item: 1 } });
	});

	it('rejects an empty client ID before any request', async () => {
		await expectValidationError(
			{ resource: 'client', operation: 'get', clientId: '' },
			'"Client ID" is required but is empty in item 0',
		);
	});
});

describe('product: get', () => {
	it('GETs /products/{id} and outputs the product', async () => {
		const product = { id: 'prd_1', name: 'Licence', price: 99, type: 'service', isActive: true };
		const scope = api().get('/api/v1/products/prd_1').reply(200, product);

		const output = await run({ resource: 'product', operation: 'get', productId: 'prd_1' });

		expect(scope.isDone()).toBe(true);
		expect(output).toEqual([{ json: product, pairedItem: { item: 0 } }]);
	});

	it('rejects an empty product ID before any request', async () => {
		await expectValidationError(
			{ resource: 'product', operation: 'get', productId: ' ' },
			'"Product ID" is required but is empty in item 0',
		);
	});

	it('fails with a NodeApiError on a 404 without Continue on Fail', async () => {
		api()
			.get('/api/v1/products/prd_x')
			.reply(404, { error: { code: 'NOT_FOUND', message: 'Product prd_x was not found' } });

		await expect(
			run({ resource: 'product', operation: 'get', productId: 'prd_x' }),
		).rejects.toMatchObject({
			name: 'NodeApiError',
			httpCode: '404',
		});
	});
});

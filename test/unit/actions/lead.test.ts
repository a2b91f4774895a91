import { api, byId, fromList, jsonOf, run, unmatchedRequests, useNock } from './support';
import { answer, bodies, queries, servePages } from '../../helpers/actions';
import { lead } from '../../helpers/records';

useNock();

describe('lead', () => {
	it('Create POSTs /leads with the name and only the additional fields that were set', async () => {
		const seen = answer('post', '/api/v1/leads', lead('lead_1', { email: 'jane@example.com' }));
		// Sent as they are set.
		const asSet = {
			email: 'jane@example.com',
			mobile: '+14155550123',
			title: 'Buyer',
			sourceId: 'src_web',
			stageId: 'lst_new',
			website: 'https://example.com',
		};

		const output = await run({
			resource: 'lead',
			operation: 'create',
			name: '  Jane Doe ',
			additionalFields: {
				...asSet,
				secondaryMobile: '',
				value: '1500.5',
				customFields: {
					field: [
						{ key: 'industry', value: 'Retail' },
						{ key: ' ', value: 'ignored' },
					],
				},
				otherFields: '{"ownerNote": "vip", "website": "https://overridden.example.com"}',
			},
		});

		const customFields = { industry: 'Retail' };
		expect(bodies(seen)).toEqual([
			{ name: 'Jane Doe', ...asSet, value: 1500.5, customFields, ownerNote: 'vip' },
		]);
		expect(output).toEqual([
			{ json: lead('lead_1', { email: 'jane@example.com' }), pairedItem: { item: 0 } },
		]);
	});

	it('Create resolves expressions per item; with Continue on Fail, a validation error is its item and the others are created', async () => {
		const seen = answer('post', '/api/v1/leads', lead('lead_ok'), { times: 2 });

		const output = await run(
			{ resource: 'lead', operation: 'create', name: '={{ $json.name }}' },
			{
				items: [{ json: { name: 'Ada' } }, { json: { name: '' } }, { json: { name: 'Grace' } }],
				continueOnFail: true,
			},
		);

		expect(bodies(seen)).toEqual([{ name: 'Ada' }, { name: 'Grace' }]);
		expect(output).toHaveLength(3);
		expect(output[0]).toEqual({ json: lead('lead_ok'), pairedItem: { item: 0 } });
		expect(output[1].pairedItem).toEqual({ item: 1 });
		expect(output[1].json.error).toBe('"Name" is required but is empty in item 1');
		expect(output[2].pairedItem).toEqual({ item: 2 });
	});

	it('Get: a 404 stops the node with a NodeApiError; with Continue on Fail it is its item and the others go on', async () => {
		const missing = { error: { code: 'NOT_FOUND', message: 'Lead lead_missing was not found' } };
		api().get('/api/v1/leads/lead_missing').reply(404, missing);
		await expect(
			run({ resource: 'lead', operation: 'get', leadId: byId('lead_missing') }),
		).rejects.toMatchObject({ name: 'NodeApiError', httpCode: '404' });

		answer('get', '/api/v1/leads/lead_1', lead('lead_1'));
		answer('get', '/api/v1/leads/lead_missing', missing, { status: 404 });
		answer('get', '/api/v1/leads/lead_3', lead('lead_3'));
		const ids = ['lead_1', 'lead_missing', 'lead_3'];
		const output = await run(
			{ resource: 'lead', operation: 'get', leadId: byId('={{ $json.id }}') },
			{ items: ids.map((id) => ({ json: { id } })), continueOnFail: true },
		);

		expect(output).toHaveLength(3);
		expect(output[0]).toEqual({ json: lead('lead_1'), pairedItem: { item: 0 } });
		expect(output[1]).toMatchObject({
			json: {
				httpCode: '404',
				error: expect.stringMatching(/404.*Lead lead_missing was not found/),
				description: expect.stringContaining('GET /api/v1/leads/lead_missing'),
			},
			pairedItem: { item: 1 },
		});
		expect(output[2]).toEqual({ json: lead('lead_3'), pairedItem: { item: 2 } });
	});

	it.each([
		[
			{ search: ' jane ', archived: true, stageId: 'lst_new' },
			undefined,
			{ limit: '50', search: 'jane', archived: 'true', stageId: 'lst_new' },
		],
		[{ archived: false }, 10, { limit: '10', archived: 'false' }],
	])('Get Many sends the filters %j as query parameters', async (filters, limit, query) => {
		const seen = servePages('/api/v1/leads', [[lead('lead_1')]]);

		const output = await run({ resource: 'lead', operation: 'getMany', limit, filters });

		expect(queries(seen)).toEqual([query]);
		expect(jsonOf(output)).toEqual([lead('lead_1')]);
	});

	it('Update PATCHes only the fields that were set and returns the lead the API answers with', async () => {
		const updated = lead('lead_1', { name: 'Jane Smith', email: 'js@example.com' });
		const seen = answer('patch', '/api/v1/leads/lead_1', updated);

		const updateFields = { name: 'Jane Smith', email: 'js@example.com', website: '', value: 0 };
		const leadId = fromList('lead_1');
		const output = await run({ resource: 'lead', operation: 'update', leadId, updateFields });

		expect(bodies(seen)).toEqual([{ name: 'Jane Smith', email: 'js@example.com', value: 0 }]);
		expect(output).toEqual([{ json: updated, pairedItem: { item: 0 } }]);
	});

	it('the "no request" check of the validation tests notices a request that nothing intercepts', async () => {
		const unmatched = unmatchedRequests();
		try {
			await expect(
				run({ resource: 'lead', operation: 'create', name: 'Jane' }),
			).rejects.toMatchObject({ name: 'NodeApiError' });
			expect(unmatched.requests).toEqual(['POST /api/v1/leads']);
		} finally {
			unmatched.stop();
		}
	});
});

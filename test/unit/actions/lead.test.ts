import type { IDataObject } from 'n8n-workflow';

import { searchLeads } from '../../../nodes/CrmInvoicing/actions/methods/listSearch';
import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { createLoadOptionsContext } from '../../helpers/harness';
import {
	api,
	byId,
	expectValidationError,
	fromList,
	jsonOf,
	logging,
	records,
	run,
	unmatchedRequests,
	useNock,
} from './support';
import type { SeenRequest } from './support';
import { lead } from '../../helpers/records';

useNock();

describe('lead: create', () => {
	it('POSTs /leads with the name and only the additional fields that were set', async () => {
		const seen: SeenRequest[] = [];
		const scope = api()
			.post('/api/v1/leads')
			.reply(logging(seen, 200, lead('lead_1', { email: 'jane@example.com' })));

		const output = await run({
			resource: 'lead',
			operation: 'create',
			name: '  Jane Doe ',
			additionalFields: {
				email: 'jane@example.com',
				mobile: '+14155550123',
				secondaryMobile: '',
				title: 'Buyer',
				value: '1500.5',
				sourceId: 'src_web',
				stageId: 'lst_new',
				website: 'https://example.com',
				customFields: {
					field: [
						{ key: 'industry', value: 'Retail' },
						{ key: ' ', value: 'ignored' },
					],
				},
				otherFields: '{"ownerNote": "vip", "website": "https://overridden.example.com"}',
			},
		});

		expect(scope.isDone()).toBe(true);
		expect(seen).toEqual([
			{
				method: 'POST',
				path: '/api/v1/leads',
				body: {
					name: 'Jane Doe',
					email: 'jane@example.com',
					mobile: '+14155550123',
					title: 'Buyer',
					value: 1500.5,
					sourceId: 'src_web',
					stageId: 'lst_new',
					website: 'https://example.com',
					customFields: { industry: 'Retail' },
					ownerNote: 'vip',
				},
			},
		]);
		expect(output).toEqual([
			{ json: lead('lead_1', { email: 'jane@example.com' }), pairedItem: { item: 0 } },
		]);
	});

	it('creates one lead per input item, with expressions resolved per item', async () => {
		const seen: SeenRequest[] = [];
		api()
			.post('/api/v1/leads')
			.times(2)
			.reply(logging(seen, 200, lead('lead_x')));

		const output = await run(
			{ resource: 'lead', operation: 'create', name: '={{ $json.name }}' },
			{ items: [{ json: { name: 'Ada' } }, { json: { name: 'Alan' } }] },
		);

		expect(seen.map((request) => request.body)).toEqual([{ name: 'Ada' }, { name: 'Alan' }]);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('rejects an empty name before any request, naming the field and the item', async () => {
		await expectValidationError(
			{ resource: 'lead', operation: 'create', name: '={{ $json.name }}' },
			'"Name" is required but is empty in item 0',
			{ items: [{ json: { name: '   ' } }] },
		);
	});

	it('rejects a value that is not a number before any request', async () => {
		await expectValidationError(
			{
				resource: 'lead',
				operation: 'create',
				name: 'Jane',
				additionalFields: { value: '={{ "lots" }}' },
			},
			/"Value" must be a number but is "lots" in item 0/,
		);
	});

	it('with Continue on Fail, puts a validation error on its item and creates the others', async () => {
		const seen: SeenRequest[] = [];
		api()
			.post('/api/v1/leads')
			.times(2)
			.reply(logging(seen, 200, lead('lead_ok')));

		const output = await run(
			{ resource: 'lead', operation: 'create', name: '={{ $json.name }}' },
			{
				items: [{ json: { name: 'Ada' } }, { json: { name: '' } }, { json: { name: 'Grace' } }],
				continueOnFail: true,
			},
		);

		expect(seen.map((request) => request.body)).toEqual([{ name: 'Ada' }, { name: 'Grace' }]);
		expect(output).toHaveLength(3);
		expect(output[0]).toEqual({ json: lead('lead_ok'), pairedItem: { item: 0 } });
		expect(output[1].pairedItem).toEqual({ item: 1 });
		expect(output[1].json.error).toBe('"Name" is required but is empty in item 1');
		expect(output[2].pairedItem).toEqual({ item: 2 });
	});
});

describe('lead: get', () => {
	it('GETs /leads/{id} from a list pick or an ID, URL-encoding the ID', async () => {
		const scope = api()
			.get('/api/v1/leads/lead_1')
			.reply(200, lead('lead_1'))
			.get('/api/v1/leads/a%2Fb')
			.reply(200, lead('a/b'));

		const fromPick = await run({ resource: 'lead', operation: 'get', leadId: fromList('lead_1') });
		const fromId = await run({ resource: 'lead', operation: 'get', leadId: byId('a/b') });

		expect(scope.isDone()).toBe(true);
		expect(jsonOf(fromPick)).toEqual([lead('lead_1')]);
		expect(jsonOf(fromId)).toEqual([lead('a/b')]);
	});

	it('with Continue on Fail, a 404 becomes the error of its item and the other items go on', async () => {
		const scope = api()
			.get('/api/v1/leads/lead_1')
			.reply(200, lead('lead_1'))
			.get('/api/v1/leads/lead_missing')
			.reply(404, { error: { code: 'NOT_FOUND', message: 'Lead lead_missing was not found' } })
			.get('/api/v1/leads/lead_3')
			.reply(200, lead('lead_3'));

		const output = await run(
			{ resource: 'lead', operation: 'get', leadId: byId('={{ $json.id }}') },
			{
				items: [
					{ json: { id: 'lead_1' } },
					{ json: { id: 'lead_missing' } },
					{ json: { id: 'lead_3' } },
				],
				continueOnFail: true,
			},
		);

		expect(scope.isDone()).toBe(true);
		expect(output).toHaveLength(3);
		expect(output[0]).toEqual({ json: lead('lead_1'), pairedItem: { item: 0 } });
		expect(output[1].pairedItem).toEqual({ item: 1 });
		expect(output[1].json).toMatchObject({ httpCode: '404' });
		expect(output[1].json.error).toEqual(expect.stringContaining('404'));
		expect(output[1].json.error).toEqual(
			expect.stringContaining('Lead lead_missing was not found'),
		);
		expect(output[1].json.description).toContain('GET /api/v1/leads/lead_missing');
		expect(output[2]).toEqual({ json: lead('lead_3'), pairedItem: { item: 2 } });
	});

	it('without Continue on Fail, the 404 stops the node with a NodeApiError', async () => {
		api()
			.get('/api/v1/leads/lead_missing')
			.reply(404, { error: { code: 'NOT_FOUND', message: 'not found' } });

		await expect(
			run({ resource: 'lead', operation: 'get', leadId: byId('lead_missing') }),
		).rejects.toMatchObject({
			name: 'NodeApiError',
			httpCode: '404',
		});
	});

	it('rejects an empty lead ID before any request', async () => {
		await expectValidationError(
			{ resource: 'lead', operation: 'get', leadId: byId('') },
			'"Lead" is required but is empty in item 0',
		);
	});
});

describe('lead: get many', () => {
	it('Return All asks for limit=100 on every page and follows nextCursor to the end', async () => {
		const scope = api()
			.get('/api/v1/leads')
			.query({ limit: '100' })
			.reply(200, { items: records(100, 1, 'lead_'), hasMore: true, nextCursor: 'c2' })
			.get('/api/v1/leads')
			.query({ limit: '100', cursor: 'c2' })
			.reply(200, { items: records(100, 101, 'lead_'), hasMore: true, nextCursor: 'c3' })
			.get('/api/v1/leads')
			.query({ limit: '100', cursor: 'c3' })
			.reply(200, { items: records(5, 201, 'lead_'), hasMore: false, nextCursor: null });

		const output = await run({ resource: 'lead', operation: 'getMany', returnAll: true });

		expect(scope.isDone()).toBe(true);
		expect(output).toHaveLength(205);
		expect(output[0]).toEqual({ json: { id: 'lead_1' }, pairedItem: { item: 0 } });
		expect(output[204].json).toEqual({ id: 'lead_205' });
	});

	it('a Limit across a page boundary asks for exactly the remainder on the second page', async () => {
		const scope = api()
			.get('/api/v1/leads')
			.query({ limit: '100' })
			.reply(200, { items: records(100, 1, 'lead_'), hasMore: true, nextCursor: 'c2' })
			.get('/api/v1/leads')
			.query({ limit: '30', cursor: 'c2' })
			.reply(200, { items: records(30, 101, 'lead_'), hasMore: true, nextCursor: 'c3' });

		const output = await run({
			resource: 'lead',
			operation: 'getMany',
			returnAll: false,
			limit: 130,
		});

		expect(scope.isDone()).toBe(true);
		expect(output).toHaveLength(130);
		expect(output[129].json).toEqual({ id: 'lead_130' });
	});

	it('sends the filters as query parameters, with the default limit of 50', async () => {
		const queries: IDataObject[] = [];
		const scope = api()
			.get('/api/v1/leads')
			.query((query) => {
				queries.push(query as IDataObject);
				return true;
			})
			.reply(200, { items: [lead('lead_1')], hasMore: false, nextCursor: null });

		const output = await run({
			resource: 'lead',
			operation: 'getMany',
			filters: { search: ' jane ', archived: true, stageId: 'lst_new' },
		});

		expect(scope.isDone()).toBe(true);
		expect(queries).toEqual([
			{ limit: '50', search: 'jane', archived: 'true', stageId: 'lst_new' },
		]);
		expect(jsonOf(output)).toEqual([lead('lead_1')]);
	});

	it('sends archived=false when the filter is off', async () => {
		const scope = api()
			.get('/api/v1/leads')
			.query({ limit: '10', archived: 'false' })
			.reply(200, { items: [], hasMore: false, nextCursor: null });

		const output = await run({
			resource: 'lead',
			operation: 'getMany',
			limit: 10,
			filters: { archived: false },
		});

		expect(scope.isDone()).toBe(true);
		expect(output).toEqual([]);
	});

	it('returns no items for an empty list', async () => {
		api()
			.get('/api/v1/leads')
			.query({ limit: '100' })
			.reply(200, { items: [], hasMore: false, nextCursor: null });

		expect(await run({ resource: 'lead', operation: 'getMany', returnAll: true })).toEqual([]);
	});

	it('rejects a limit below 1 before any request', async () => {
		await expectValidationError(
			{ resource: 'lead', operation: 'getMany', limit: 0 },
			'"Limit" must be a whole number of at least 1 but is 0 in item 0',
		);
	});
});

describe('lead: update', () => {
	it('PATCHes only the fields that were set and returns the lead the API answers with', async () => {
		const seen: SeenRequest[] = [];
		const updated = lead('lead_1', { name: 'Jane Smith', email: 'js@example.com' });
		const scope = api()
			.patch('/api/v1/leads/lead_1')
			.reply(logging(seen, 200, updated));

		const output = await run({
			resource: 'lead',
			operation: 'update',
			leadId: fromList('lead_1'),
			updateFields: { name: 'Jane Smith', email: 'js@example.com', website: '', value: 0 },
		});

		expect(scope.isDone()).toBe(true);
		expect(seen).toEqual([
			{
				method: 'PATCH',
				path: '/api/v1/leads/lead_1',
				body: { name: 'Jane Smith', email: 'js@example.com', value: 0 },
			},
		]);
		expect(output).toEqual([{ json: updated, pairedItem: { item: 0 } }]);
	});

	it('reads the lead back with GET when the PATCH response is not a lead', async () => {
		const seen: SeenRequest[] = [];
		const scope = api()
			.patch('/api/v1/leads/lead_1')
			.reply(logging(seen, 200, { success: true }))
			.get('/api/v1/leads/lead_1')
			.reply(
				logging(
					seen,
					200,
					lead('lead_1', { title: 'CFO', customFields: { tier: 'gold', other: 1 } }),
				),
			);

		const output = await run({
			resource: 'lead',
			operation: 'update',
			leadId: byId('lead_1'),
			updateFields: { title: 'CFO', customFields: { field: [{ key: 'tier', value: 'gold' }] } },
		});

		expect(scope.isDone()).toBe(true);
		expect(seen).toEqual([
			{
				method: 'PATCH',
				path: '/api/v1/leads/lead_1',
				body: { title: 'CFO', customFields: { tier: 'gold' } },
			},
			{ method: 'GET', path: '/api/v1/leads/lead_1', body: undefined },
		]);
		expect(jsonOf(output)).toEqual([
			lead('lead_1', { title: 'CFO', customFields: { tier: 'gold', other: 1 } }),
		]);
	});

	it('reads the lead back after an empty (204) answer', async () => {
		const scope = api()
			.patch('/api/v1/leads/lead_1')
			.reply(204)
			.get('/api/v1/leads/lead_1')
			.reply(200, lead('lead_1'));

		const output = await run({
			resource: 'lead',
			operation: 'update',
			leadId: byId('lead_1'),
			updateFields: { otherFields: '{"email": null}' },
		});

		expect(scope.isDone()).toBe(true);
		expect(jsonOf(output)).toEqual([lead('lead_1')]);
	});

	it('rejects an update without any field, and an emptied name, before any request', async () => {
		await expectValidationError(
			{ resource: 'lead', operation: 'update', leadId: byId('lead_1'), updateFields: {} },
			'"Update Fields" has no field to change in item 0',
		);
		await expectValidationError(
			{
				resource: 'lead',
				operation: 'update',
				leadId: byId('lead_1'),
				updateFields: { name: ' ' },
			},
			'"Name" is required but is empty in item 0',
		);
		await expectValidationError(
			{
				resource: 'lead',
				operation: 'update',
				leadId: byId('lead_1'),
				updateFields: { otherFields: '{oops' },
			},
			'"Other Fields (JSON)" is not valid JSON in item 0',
		);
	});
});

describe('lead: archive and unarchive', () => {
	it('archive PATCHes { archived: true } and returns the lead', async () => {
		const seen: SeenRequest[] = [];
		api()
			.patch('/api/v1/leads/lead_1')
			.reply(logging(seen, 200, lead('lead_1', { archived: true })));

		const output = await run({ resource: 'lead', operation: 'archive', leadId: byId('lead_1') });

		expect(seen).toEqual([
			{ method: 'PATCH', path: '/api/v1/leads/lead_1', body: { archived: true } },
		]);
		expect(jsonOf(output)).toEqual([lead('lead_1', { archived: true })]);
	});

	it('unarchive PATCHes { archived: false } and reads back when the answer is empty', async () => {
		const seen: SeenRequest[] = [];
		const scope = api()
			.patch('/api/v1/leads/lead_2')
			.reply(logging(seen, 204))
			.get('/api/v1/leads/lead_2')
			.reply(200, lead('lead_2'));

		const output = await run({
			resource: 'lead',
			operation: 'unarchive',
			leadId: fromList('lead_2'),
		});

		expect(scope.isDone()).toBe(true);
		expect(seen).toEqual([
			{ method: 'PATCH', path: '/api/v1/leads/lead_2', body: { archived: false } },
		]);
		expect(jsonOf(output)).toEqual([lead('lead_2')]);
	});

	it('archives every input item', async () => {
		const seen: SeenRequest[] = [];
		api()
			.patch(/\/api\/v1\/leads\/lead_\d/)
			.times(2)
			.reply(logging(seen, 200, lead('lead_x', { archived: true })));

		const output = await run(
			{ resource: 'lead', operation: 'archive', leadId: byId('={{ $json.id }}') },
			{ items: [{ json: { id: 'lead_1' } }, { json: { id: 'lead_2' } }] },
		);

		expect(seen.map((request) => request.path)).toEqual([
			'/api/v1/leads/lead_1',
			'/api/v1/leads/lead_2',
		]);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});
});

describe('searchLeads (From List)', () => {
	function context() {
		return createLoadOptionsContext({
			nodeType: new CrmInvoicing(),
			parameters: { resource: 'lead', operation: 'get' },
		}).context;
	}

	it('searches as the user types and hands back the next cursor', async () => {
		const scope = api()
			.get('/api/v1/leads')
			.query({ limit: '100', search: 'ja' })
			.reply(200, {
				items: [lead('lead_1', { email: 'jane@example.com' }), { id: 'lead_2', name: '' }],
				hasMore: true,
				nextCursor: 'c2',
			});

		const result = await searchLeads.call(context(), 'ja');

		expect(scope.isDone()).toBe(true);
		expect(result).toEqual({
			results: [
				{ name: 'Jane Doe · jane@example.com · L-0001', value: 'lead_1' },
				{ name: 'lead_2', value: 'lead_2' },
			],
			paginationToken: 'c2',
		});
	});

	it('asks for the next page with the pagination token, and ends when there are no more', async () => {
		const scope = api()
			.get('/api/v1/leads')
			.query({ limit: '100', search: 'ja', cursor: 'c2' })
			.reply(200, { items: [lead('lead_3')], hasMore: false, nextCursor: null });

		const result = await searchLeads.call(context(), 'ja', 'c2');

		expect(scope.isDone()).toBe(true);
		expect(result).toEqual({
			results: [{ name: 'Jane Doe · L-0001', value: 'lead_3' }],
			paginationToken: undefined,
		});
	});

	it('lists without a search parameter when there is no filter', async () => {
		const scope = api()
			.get('/api/v1/leads')
			.query({ limit: '100' })
			.reply(200, { items: [], hasMore: false });

		expect(await searchLeads.call(context())).toEqual({ results: [], paginationToken: undefined });
		expect(scope.isDone()).toBe(true);
	});
});

describe('the "no request" check of the validation tests', () => {
	it('notices a request that nothing intercepts', async () => {
		const unmatched = unmatchedRequests();
		try {
			await expect(
				run({ resource: 'lead', operation: 'create', name: 'Jane' }),
			).rejects.toMatchObject({
				name: 'NodeApiError',
			});
			expect(unmatched.requests).toEqual(['POST /api/v1/leads']);
		} finally {
			unmatched.stop();
		}
	});
});

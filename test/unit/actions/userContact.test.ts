import type { IDataObject } from 'n8n-workflow';

import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { searchUsers } from '../../../nodes/CrmInvoicing/actions/methods/listSearch';
import { USER_SEARCH_QUERY_PARAMETER } from '../../../nodes/CrmInvoicing/shared/apiChoices';
import { createLoadOptionsContext } from '../../helpers/harness';
import { api, expectValidationError, jsonOf, records, run, useNock } from './support';

useNock();

const user = (id: string, extra: IDataObject = {}): IDataObject => ({
	id,
	firstName: 'Jane',
	lastName: 'Doe',
	email: 'jane@example.com',
	role: 'ADMIN',
	createdAt: '2026-01-01T00:00:00.000Z',
	...extra,
});

describe('user: get many', () => {
	it('sends search under USER_SEARCH_QUERY_PARAMETER and active as a boolean', async () => {
		const scope = api()
			.get('/api/v1/users')
			.query({ limit: '50', [USER_SEARCH_QUERY_PARAMETER]: 'jane', active: 'false' })
			.reply(200, { items: [user('usr_1')], hasMore: false, nextCursor: null });

		// Simplify off: the API's records as they are (Simplify has its own tests, test/unit/output/simplify.test.ts).
		const output = await run({
			resource: 'user',
			operation: 'getMany',
			simplify: false,
			filters: { search: 'jane', active: false },
		});

		expect(scope.isDone()).toBe(true);
		expect(output).toEqual([{ json: user('usr_1'), pairedItem: { item: 0 } }]);
	});

	it('Return All asks for limit=100 on every page', async () => {
		const scope = api()
			.get('/api/v1/users')
			.query({ limit: '100', active: 'true' })
			.reply(200, { items: records(100, 1, 'usr_'), hasMore: true, nextCursor: 'u2' })
			.get('/api/v1/users')
			.query({ limit: '100', active: 'true', cursor: 'u2' })
			.reply(200, { items: records(1, 101, 'usr_'), hasMore: false, nextCursor: null });

		const output = await run({
			resource: 'user',
			operation: 'getMany',
			returnAll: true,
			filters: { active: true },
		});

		expect(scope.isDone()).toBe(true);
		expect(output).toHaveLength(101);
	});

	it('a Limit across a page boundary asks for the remainder only', async () => {
		const scope = api()
			.get('/api/v1/users')
			.query({ limit: '100' })
			.reply(200, { items: records(100, 1, 'usr_'), hasMore: true, nextCursor: 'u2' })
			.get('/api/v1/users')
			.query({ limit: '1', cursor: 'u2' })
			.reply(200, { items: records(1, 101, 'usr_'), hasMore: true, nextCursor: 'u3' });

		const output = await run({ resource: 'user', operation: 'getMany', limit: 101 });

		expect(scope.isDone()).toBe(true);
		expect(output.map((item) => item.json.id).slice(-2)).toEqual(['usr_100', 'usr_101']);
	});

	it('returns no items for an empty list, and rejects a fractional limit before any request', async () => {
		api()
			.get('/api/v1/users')
			.query({ limit: '5' })
			.reply(200, { items: [], hasMore: false, nextCursor: null });
		expect(await run({ resource: 'user', operation: 'getMany', limit: 5 })).toEqual([]);

		await expectValidationError(
			{ resource: 'user', operation: 'getMany', limit: 2.5 },
			'"Limit" must be a whole number of at least 1',
		);
	});
});

describe('searchUsers (From List, e.g. the invoice sales person)', () => {
	function context() {
		return createLoadOptionsContext({
			nodeType: new CrmInvoicing(),
			parameters: { resource: 'invoice', operation: 'create' },
		}).context;
	}

	it('searches active users as the user types and hands back the next cursor', async () => {
		const scope = api()
			.get('/api/v1/users')
			.query({ limit: '100', active: 'true', [USER_SEARCH_QUERY_PARAMETER]: 'ja' })
			.reply(200, {
				items: [
					user('usr_1'),
					{ id: 'usr_2', firstName: '', email: 'jay.ops@example.com' },
					{ id: 'usr_3' },
				],
				hasMore: true,
				nextCursor: 'u2',
			});

		const result = await searchUsers.call(context(), 'ja');

		expect(scope.isDone()).toBe(true);
		expect(result).toEqual({
			results: [
				{ name: 'Jane Doe · jane@example.com', value: 'usr_1' },
				{ name: 'jay.ops@example.com', value: 'usr_2' },
				{ name: 'usr_3', value: 'usr_3' },
			],
			paginationToken: 'u2',
		});
	});

	it('asks for the next page with the pagination token', async () => {
		const scope = api()
			.get('/api/v1/users')
			.query({ limit: '100', active: 'true', cursor: 'u2' })
			.reply(200, { items: [user('usr_4')], hasMore: false, nextCursor: null });

		const result = await searchUsers.call(context(), undefined, 'u2');

		expect(scope.isDone()).toBe(true);
		expect(result).toEqual({
			results: [{ name: 'Jane Doe · jane@example.com', value: 'usr_4' }],
			paginationToken: undefined,
		});
	});
});

describe('contact: get many (API v2)', () => {
	const contact = (id: string): IDataObject => ({
		id,
		number: 'P-1',
		firstName: 'Ann',
		lastName: 'Lee',
		email: 'ann@example.com',
	});

	it('Return All pages with pageSize=100 and meta.nextCursor under /api/v2', async () => {
		const scope = api()
			.get('/api/v2/contacts')
			.query({ pageSize: '100' })
			.reply(200, { data: records(100, 1, 'con_'), meta: { nextCursor: 'k2', hasMore: true } })
			.get('/api/v2/contacts')
			.query({ pageSize: '100', cursor: 'k2' })
			.reply(200, { data: records(100, 101, 'con_'), meta: { nextCursor: 'k3', hasMore: true } })
			.get('/api/v2/contacts')
			.query({ pageSize: '100', cursor: 'k3' })
			.reply(200, { data: records(2, 201, 'con_'), meta: { nextCursor: null, hasMore: false } });

		const output = await run({ resource: 'contact', operation: 'getMany', returnAll: true });

		expect(scope.isDone()).toBe(true);
		expect(output).toHaveLength(202);
		expect(output[201]).toEqual({ json: { id: 'con_202' }, pairedItem: { item: 0 } });
	});

	it('a Limit across a page boundary asks for exactly the remainder, with the search filter', async () => {
		const scope = api()
			.get('/api/v2/contacts')
			.query({ pageSize: '100', search: 'ann' })
			.reply(200, { data: records(100, 1, 'con_'), meta: { nextCursor: 'k2', hasMore: true } })
			.get('/api/v2/contacts')
			.query({ pageSize: '20', search: 'ann', cursor: 'k2' })
			.reply(200, { data: records(20, 101, 'con_'), meta: { nextCursor: 'k3', hasMore: true } });

		const output = await run({
			resource: 'contact',
			operation: 'getMany',
			limit: 120,
			filters: { search: 'ann' },
		});

		expect(scope.isDone()).toBe(true);
		expect(output).toHaveLength(120);
	});

	it('outputs one item per contact and none for an empty list', async () => {
		api()
			.get('/api/v2/contacts')
			.query({ pageSize: '50' })
			.reply(200, {
				data: [contact('con_1'), contact('con_2')],
				meta: { nextCursor: null, hasMore: false },
			})
			.get('/api/v2/contacts')
			.query({ pageSize: '50' })
			.reply(200, { data: [], meta: { nextCursor: null, hasMore: false } });

		expect(jsonOf(await run({ resource: 'contact', operation: 'getMany' }))).toEqual([
			contact('con_1'),
			contact('con_2'),
		]);
		expect(await run({ resource: 'contact', operation: 'getMany' })).toEqual([]);
	});
});

/** Issue 11: Custom API Request's "Paginate" stops with a clear error when the API repeats a cursor. */
import { api, records, run, useNock } from './support';

useNock();

const request = {
	resource: 'customApiRequest',
	operation: 'request',
	method: 'GET',
	apiVersion: 'v1',
	path: '/leads',
	paginate: true,
	returnAll: true,
};

describe('Custom API Request, Paginate, Return All', () => {
	it("the first page's cursor handed back again by page 2 → error after 2 requests", async () => {
		const scope = api()
			.get('/api/v1/leads')
			.query({ limit: '100' })
			.reply(200, { items: records(100, 1), hasMore: true, nextCursor: 'c1' })
			.get('/api/v1/leads')
			.query({ limit: '100', cursor: 'c1' })
			.reply(200, { items: records(100, 101), hasMore: true, nextCursor: 'c1' });

		await expect(run(request)).rejects.toThrow(
			'The CRM API\'s list /api/v1/leads did not advance: page 2 handed back a cursor it had already given ("c1"). The node stopped reading it',
		);
		expect(scope.isDone()).toBe(true);
	});

	it('a v2 list whose meta.nextCursor cycles between two values → error, no endless loop', async () => {
		const scope = api()
			.get('/api/v2/contacts')
			.query(true)
			.times(10)
			.reply(200, (uri) => ({
				data: records(100, uri.length),
				meta: { hasMore: true, nextCursor: uri.includes('cursor=a') ? 'b' : 'a' },
			}));

		await expect(run({ ...request, apiVersion: 'v2', path: '/contacts' })).rejects.toThrow(
			/did not advance: .*handed back a cursor it had already given/,
		);
		expect(scope.pendingMocks()).toHaveLength(1);
	});
});

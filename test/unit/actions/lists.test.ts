/** Issue 17: every list goes through the one list reader (transport/pagination.ts); its checks show through the operations. */
import type { INodeParameters } from 'n8n-workflow';

import { LIST } from '../../../nodes/CrmInvoicing/shared/transport/limits';
import { api, jsonOf, newExecution, records, run, useNock } from './support';
import { v1Page, v2Page, servePages } from '../../helpers/actions';
import { errorOf } from '../../helpers/harness';

useNock();

beforeEach(() => newExecution());
afterEach(() => jest.restoreAllMocks());

/** Raises (or lowers) the reader's record cap for one test; restored after it by jest.restoreAllMocks. */
function capRecords(maxRecords: number): void {
	jest.replaceProperty(LIST as { maxRecords: number }, 'maxRecords', maxRecords);
}

const paginate = {
	resource: 'customApiRequest',
	operation: 'request',
	method: 'GET',
	apiVersion: 'v1',
	path: '/leads',
	paginate: true,
	returnAll: true,
};

/** A server that ignores `limit`: every page holds `pageSize` records, `pages` pages in all; the requests it answered. */
const ignoringLimit = (pageSize: number, pages: number) =>
	servePages(
		'/api/v1/leads',
		Array.from({ length: pages }, (_, page) => records(pageSize, page * pageSize + 1)),
	);

describe('Custom API Request → Paginate joins pages through the list reader', () => {
	it('joins 160,000 records (16 pages of 10,000 from a server that ignores limit) without a stack overflow', async () => {
		// Within a raised cap: the point is the join, which threw "Maximum call stack size exceeded" near 125,000.
		capRecords(200_000);
		const server = ignoringLimit(10_000, 16);

		const output = await run(paginate);

		expect(server.length).toBe(16);
		expect(output).toHaveLength(160_000);
		expect(output[0].json.id).toBe('rec_1');
		expect(output[159_999].json.id).toBe('rec_160000');
	});

	it('past the record cap, fails with an error that names the cap and says how to narrow the list, and outputs nothing', async () => {
		const server = ignoringLimit(10_000, 16);

		const error = await errorOf(run(paginate));

		expect(error.message).toBe(
			`The list /api/v1/leads holds more than ${LIST.maxRecords.toLocaleString('en-US')} records, the most the node reads of this list; nothing of it was output`,
		);
		expect(error.description).toMatch(
			/query parameters the endpoint filters by, or set "Limit" instead of "Return All"/,
		);
		// It stopped at the page that passed the cap, not after the whole list.
		expect(server.length).toBe(Math.floor(LIST.maxRecords / 10_000) + 1);
	});

	it('starts from a cursor given as a query parameter, and treats that cursor handed back as a loop', async () => {
		const scope = api()
			.get('/api/v1/leads')
			.query({ limit: '100', cursor: 'start' })
			.reply(200, { items: records(2), hasMore: true, nextCursor: 'start' });
		await expect(
			run({ ...paginate, queryParameters: { parameters: [{ name: 'cursor', value: 'start' }] } }),
		).rejects.toThrow(
			/did not advance: page 1 handed back a cursor it had already given \("start"\)/,
		);
		expect(scope.isDone()).toBe(true);
	});

	it('outputs a first answer that is not a list as it is', async () => {
		api().get('/api/v1/leads/lead_1').query(true).reply(200, { id: 'lead_1', name: 'Jane' });
		expect(jsonOf(await run({ ...paginate, path: '/leads/lead_1' }))).toEqual([
			{ id: 'lead_1', name: 'Jane' },
		]);
	});
});

describe('the caps of one list', () => {
	it('past LIST.maxBytes of answers (counted by Content-Length), Return All fails naming the cap', async () => {
		jest.replaceProperty(LIST as { maxBytes: number }, 'maxBytes', 1024 * 1024);
		let served = 0;
		api()
			.get('/api/v1/leads')
			.query(true)
			.times(10)
			.reply(() => {
				served++;
				const leads = records(100, served * 100, 'lead_');
				const notes = 'x'.repeat(4_000);
				const body = JSON.stringify(
					v1Page(
						leads.map((lead) => ({ ...lead, notes })),
						`c${served}`,
					),
				);
				const length = String(Buffer.byteLength(body));
				return [200, body, { 'content-type': 'application/json', 'content-length': length }];
			});

		await expect(
			run({ resource: 'lead', operation: 'getMany', returnAll: true }),
		).rejects.toMatchObject({
			message:
				'The list /api/v1/leads is larger than 1 MB, the most the node reads of this list; nothing of it was output',
			description: expect.stringMatching(/set "Limit" instead of "Return All"/),
		});
		// Each page is about 400 KB: the third passes 1 MB.
		expect(served).toBe(3);
	});

	it('Create or Update reads its search through the list reader: past the record cap, fails the item with the cap and what to do, and creates nothing', async () => {
		capRecords(250);
		const server = ignoringLimit(100, 3);
		const upsert = { resource: 'lead', operation: 'upsert', email: 'j@example.com', name: 'J' };

		await expect(run(upsert)).rejects.toMatchObject({
			message:
				'The list /api/v1/leads holds more than 250 records, the most the node reads of this list; nothing of it was output',
			description: expect.stringMatching(
				/search matches names, mobiles and websites too.*Lead → Update with the lead's ID/,
			),
		});
		expect(server.length).toBe(3);
	});
});

describe('list entries that are not objects are an error, not output items', () => {
	const lead = { resource: 'lead', operation: 'getMany' };
	const webhook = { resource: 'webhook', operation: 'getMany' };
	it.each([
		['Lead → Get Many', 'null', lead, 'leads', v1Page([{ id: 'rec_1' }, null])],
		['Lead → Get Many', 'the number 7', lead, 'leads', v1Page([{ id: 'rec_1' }, 7])],
		['Lead → Get Many', 'the text "x"', lead, 'leads', v1Page([{ id: 'rec_1' }, 'x'])],
		['Custom API Request → Paginate', 'null', paginate, 'leads', v1Page([{ id: 'rec_1' }, null])],
		[
			'Webhook Subscription → Get Many',
			'the text "whk_2"',
			webhook,
			'webhooks',
			[{ id: 'whk_1' }, 'whk_2'],
		],
	])('%s with %s in the page', async (_operation, shown, parameters, list, page) => {
		api().get(`/api/v1/${list}`).query(true).reply(200, page);
		await expect(run({ ...parameters, returnAll: true })).rejects.toThrow(
			`The CRM API's list /api/v1/${list} held ${shown} at position 2 of page 1, where a record (a JSON object) was expected`,
		);
	});

	it('with Continue On Fail, the item carries the error and no record of the list is output', async () => {
		api()
			.get('/api/v2/contacts')
			.query(true)
			.reply(200, v2Page([{ id: 'con_1' }, 7]));
		const output = await run(
			{ resource: 'contact', operation: 'getMany', returnAll: true },
			{ continueOnFail: true },
		);
		expect(output).toHaveLength(1);
		expect(output[0].json.error).toMatch(/held the number 7 at position 2 of page 1/);
		expect(output[0].pairedItem).toEqual({ item: 0 });
	});
});

const getMany = (resource: string) => ({ resource, operation: 'getMany' });
const search = { parameters: [{ name: 'search', value: 'a' }] };

/** Every list operation, with the list it reads (and the query parameters it must carry on every page). */
const LISTS: Array<{ parameters: INodeParameters; path: string; query?: Record<string, string> }> =
	[
		{ parameters: getMany('lead'), path: '/api/v1/leads' },
		{ parameters: getMany('user'), path: '/api/v1/users' },
		{ parameters: getMany('contact'), path: '/api/v2/contacts' },
		{ parameters: getMany('webhook'), path: '/api/v1/webhooks' },
		{
			parameters: { ...paginate, returnAll: false, queryParameters: search },
			path: '/api/v1/leads',
			query: { search: 'a' },
		},
		{
			parameters: { ...paginate, returnAll: false, apiVersion: 'v2', path: '/contacts' },
			path: '/api/v2/contacts',
		},
	];

describe.each(LISTS)('$path, read by $parameters.resource', ({ parameters, path, query }) => {
	const page = path.startsWith('/api/v2') ? v2Page : v1Page;
	const size = path.startsWith('/api/v2') ? 'pageSize' : 'limit';

	it('Return All asks for 100 on every page and follows the cursor to the end', async () => {
		const pages = [records(100, 1), records(100, 101), records(5, 201)];
		const seen = servePages(path, pages, { query: { ...query, [size]: '100' }, page });

		const output = await run({ ...parameters, returnAll: true });

		expect(seen).toHaveLength(3);
		expect(output).toHaveLength(205);
		expect(output[204]).toEqual({ json: { id: 'rec_205' }, pairedItem: { item: 0 } });
	});

	it('a Limit across a page boundary asks for exactly the remainder on the second page', async () => {
		const scope = api()
			.get(path)
			.query({ ...query, [size]: '100' })
			.reply(200, page(records(100, 1), 'c2'))
			.get(path)
			.query({ ...query, [size]: '30', cursor: 'c2' })
			.reply(200, page(records(30, 101), 'c3'));

		const output = await run({ ...parameters, limit: 130 });

		expect(scope.isDone()).toBe(true);
		expect(output.map((item) => item.json.id).slice(-2)).toEqual(['rec_129', 'rec_130']);
	});

	it('a Limit that fits in one page is one request; the default Limit is 50, and an empty list no items', async () => {
		const scope = api()
			.get(path)
			.query({ ...query, [size]: '5' })
			.reply(200, page(records(5), 'c2'))
			.get(path)
			.query({ ...query, [size]: '50' })
			.reply(200, page([]));

		expect(await run({ ...parameters, limit: 5 })).toHaveLength(5);
		expect(await run(parameters)).toEqual([]);
		expect(scope.isDone()).toBe(true);
	});
});

describe('Webhook Subscription → Get Many in every known list shape (issue 12, "Webhook lists")', () => {
	const hook = (id: string) => ({ id, name: `hook ${id}`, secret: 'whsec_must_not_show' });
	const getMany = { resource: 'webhook', operation: 'getMany', returnAll: true };

	it('a bare array is the whole list (secrets dropped); a Limit cuts it', async () => {
		api()
			.get('/api/v1/webhooks')
			.query(true)
			.times(2)
			.reply(200, [hook('whk_1'), hook('whk_2'), hook('whk_3')]);
		const all = await run(getMany);
		expect(jsonOf(all)).toEqual(
			['whk_1', 'whk_2', 'whk_3'].map((id) => ({ id, name: `hook ${id}` })),
		);
		expect(await run({ ...getMany, returnAll: false, limit: 2 })).toHaveLength(2);
	});

	it.each([
		['a v1 page (items, nextCursor)', v1Page],
		['a v2 envelope (data, meta.nextCursor)', v2Page],
	])('%s is followed to the end, secrets dropped', async (_shape, page) => {
		const pages = [[hook('whk_1')], [hook('whk_2')]];
		const seen = servePages('/api/v1/webhooks', pages, { query: { limit: '100' }, page });
		const all = await run(getMany);
		expect(seen).toHaveLength(2);
		expect(jsonOf(all)).toEqual([
			{ id: 'whk_1', name: 'hook whk_1' },
			{ id: 'whk_2', name: 'hook whk_2' },
		]);
	});

	it('an unknown shape is a clear error, not an empty list', async () => {
		api()
			.get('/api/v1/webhooks')
			.query(true)
			.reply(200, { subscriptions: [hook('whk_1')] });
		await expect(run(getMany)).rejects.toThrow(
			'The CRM API answered GET /api/v1/webhooks with 200 (application/json) and an object with the keys subscriptions, not a list',
		);
	});
});

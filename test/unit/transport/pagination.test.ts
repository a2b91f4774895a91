/** The one list reader: pages, limits and cursors of v1 and v2 lists, a list that does not advance, caps, deadline. */
import nock from 'nock';
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import {
	listWebhookSubscriptions,
	WEBHOOK_LIST_MAX_PAGES,
} from '../../../nodes/CrmInvoicing/shared/webhookList';
import { readList, readOnePage, readPages } from '../../../nodes/CrmInvoicing/shared/transport';
import type { ListSpec } from '../../../nodes/CrmInvoicing/shared/transport';
import { BASE, errorOf, freshContext, setUpNock } from './support';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn().mockResolvedValue(undefined),
}));

setUpNock();

function records(prefix: string, count: number, from = 1): IDataObject[] {
	return Array.from({ length: count }, (_, n) => ({ id: `${prefix}_${from + n}` }));
}

/** Answers GET `path` with `page(n)` for the n-th request (from 0), at most `times` times; the paths asked, in order. */
function serve(path: string, page: (n: number) => unknown, times = 50): string[] {
	const seen: string[] = [];
	nock(BASE)
		.get(path)
		.query(true)
		.times(times)
		.reply((uri) => {
			seen.push(uri);
			return [200, page(seen.length - 1) as nock.Body];
		});
	return seen;
}

/** Serves `pages` in order; a request past the last page fails the test (nock has nothing left). */
const servePages = (path: string, pages: IDataObject[]): string[] =>
	serve(path, (n) => pages[n], pages.length);

const v1 = (items: IDataObject[], nextCursor?: string | null, hasMore = !!nextCursor) =>
	nextCursor === undefined ? { items, hasMore } : { items, hasMore, nextCursor };
const v2 = (data: IDataObject[], nextCursor: string | null, hasMore = !!nextCursor) => ({
	data,
	meta: { nextCursor, hasMore },
});

const endless = (n: number) => v1(records('lead', 100, n * 100 + 1), `c${n + 1}`);

/** Pages of `sizes` records numbered on, each naming the next cursor (c2, c3, …), the last one `last`. */
function chain(sizes: number[], last: string | null = null, version?: 'v2'): IDataObject[] {
	let from = 1;
	return sizes.map((size, n) => {
		const items = records('l', size, from);
		from += size;
		const next = n === sizes.length - 1 ? last : `c${n + 2}`;
		return version ? v2(items, next) : v1(items, next);
	});
}

/** The queries asking `sizes` records in turn, from the second on with the cursor c2, c3, …. */
const asks = (sizes: number[], param = 'limit', filters = '') =>
	sizes.map((size, n) => `?${filters}${param}=${size}${n ? `&cursor=c${n + 1}` : ''}`);

type Want = { returnAll: boolean; limit?: number };
const ALL: Want = { returnAll: true };
const V2 = { version: 'v2' } as const;
/** A page that says there is no more, but still names a cursor. */
const stale = (items: IDataObject[], page: typeof v1 | typeof v2 = v1) =>
	page(items, 'stale', false);
const limit = (count: number): Want => ({ returnAll: false, limit: count });

describe('readList: pages, limits and cursors', () => {
	it.each<[string, Partial<ListSpec>, Want, IDataObject[], string[], number]>([
		[
			'Return All over 3 pages asks limit=100 on every page and passes the cursor',
			{},
			ALL,
			chain([100, 100, 20]),
			asks([100, 100, 100]),
			220,
		],
		[
			'Limit 250 asks for 100, 100, 50: exactly 3 requests',
			{},
			limit(250),
			chain([100, 100, 50], 'c4'),
			asks([100, 100, 50]),
			250,
		],
		[
			'a page holding more than asked: never past the limit',
			{},
			limit(30),
			chain([40], 'c2'),
			asks([30]),
			30,
		],
		['a page with fewer and hasMore false stops', {}, limit(30), chain([12]), asks([30]), 12],
		[
			'a page without nextCursor stops',
			{},
			ALL,
			[v1(records('l', 5), undefined, true)],
			asks([100]),
			5,
		],
		[
			'hasMore false stops despite a nextCursor',
			{},
			ALL,
			[stale(records('l', 100))],
			asks([100]),
			100,
		],
		['an empty result is [] after one request', {}, ALL, chain([0]), asks([100]), 0],
		['Limit 0 sends no request', {}, limit(0), [], [], 0],
		[
			'the filters stay on every page',
			{ qs: { search: 'acme corp', archived: false, stageId: 'lst_new' } },
			ALL,
			chain([100, 1]),
			asks([100, 100], 'limit', 'search=acme%20corp&archived=false&stageId=lst_new&'),
			101,
		],
		[
			'v2 asks pageSize (not limit) under /api/v2 and follows meta.nextCursor',
			V2,
			ALL,
			chain([100, 100, 7], null, 'v2'),
			asks([100, 100, 100], 'pageSize'),
			207,
		],
		[
			'v2 with a limit asks for what is still missing',
			V2,
			limit(120),
			chain([100, 20], 'c3', 'v2'),
			asks([100, 20], 'pageSize'),
			120,
		],
		[
			'v2 meta.hasMore false stops despite a nextCursor',
			V2,
			ALL,
			[stale(records('l', 3), v2)],
			asks([100], 'pageSize'),
			3,
		],
		['v2 without meta stops', V2, ALL, [{ data: records('l', 2) }], asks([100], 'pageSize'), 2],
		['v2 empty result is []', V2, ALL, chain([0], null, 'v2'), asks([100], 'pageSize'), 0],
	])('%s', async (_name, spec, want, pages, queries, count) => {
		const prefix = spec.version === 'v2' ? '/api/v2/list' : '/api/v1/list';
		const seen = servePages(prefix, pages);

		const list = await readList.call(freshContext().context, { path: '/list', ...spec }, want);

		expect(seen).toEqual(queries.map((query) => `${prefix}${query}`));
		expect(list).toHaveLength(count);
		if (count > 0) expect(list[count - 1]).toEqual({ id: `l_${count}` });
	});

	it('reads the credential once per execution however many pages, and again in a new execution', async () => {
		const { context, credentialsHelper } = freshContext();
		const getCredentials = jest.spyOn(context, 'getCredentials');
		const other = freshContext();
		servePages('/api/v1/leads', [...chain([100, 1]), v1([], null)]);
		servePages('/api/v1/users', [v1(records('u', 3), null)]);

		await readList.call(context, { path: '/leads' }, ALL);
		await readList.call(context, { path: '/users' }, ALL);
		await readList.call(other.context, { path: '/leads' }, ALL);

		expect(getCredentials).toHaveBeenCalledTimes(1);
		expect(getCredentials).toHaveBeenCalledWith('crmInvoicingApi');
		expect(credentialsHelper.getDecryptedCalls).toBe(1);
		expect(other.credentialsHelper.getDecryptedCalls).toBe(1);
	});
});

describe('a list that does not advance stops with an error, not an endless loop', () => {
	const REPEATED = 'handed back a cursor it had already given';
	const NOTHING_NEW = 'brought no new records but still named a next cursor';
	/** The n-th page (from 0) of 100 records not seen before, naming `cursor`. */
	const fresh = (n: number, cursor: string) => v1(records('l', 100, n * 100 + 1), cursor);

	// Rows: the n-th page (from 0); the page the error names, which is also the number of requests; what it says.
	it.each<[string, Partial<ListSpec>, (n: number) => IDataObject, number, string, string]>([
		['v1: the same nextCursor forever', {}, (n) => fresh(n, 'same'), 2, REPEATED, 'same'],
		['v1: a cycle of two cursors', {}, (n) => fresh(n, n % 2 ? 'a' : 'b'), 3, REPEATED, 'b'],
		[
			'v2: a repeating meta.nextCursor',
			V2,
			(n) => v2(records('l', 100, n * 100 + 1), 'x'),
			2,
			REPEATED,
			'x',
		],
		['the same records under a new cursor', {}, (n) => fresh(0, `c${n}`), 2, NOTHING_NEW, 'c1'],
		[
			// Issue 40: only consecutive pages were compared, so this ran to the 100,000-record cap.
			'pages alternating two records under fresh cursors (a list that cycles)',
			{},
			(n) => v1([{ id: n % 2 ? 'lead_b' : 'lead_a' }], `fresh_${n}`),
			3,
			NOTHING_NEW,
			'fresh_2',
		],
		['an empty page that still claims more', {}, () => v1([], 'c2'), 1, NOTHING_NEW, 'c2'],
	])('%s', async (_name, spec, page, number, said, cursor) => {
		const path = spec.version === 'v2' ? '/api/v2/list' : '/api/v1/list';
		const seen = serve(path, page);

		const error = await errorOf(
			readList.call(freshContext().context, { path: '/list', ...spec }, ALL),
		);

		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			`The CRM API's list ${path} did not advance: page ${number} ${said} ("${cursor}"). The node stopped reading it`,
		);
		expect(String(error.description)).toMatch(/would loop forever|a list that cycles/);
		expect(seen).toHaveLength(number);
	});

	it('a page bringing one record not seen before advances; records without an id always do', async () => {
		serve('/api/v1/leads', (n) =>
			v1(
				n < 2 ? records('l', 100, n * 99 + 1) : [{ name: 'no id' }, { id: 'l_1' }],
				n < 3 ? `c${n}` : null,
			),
		);
		expect(await readList.call(freshContext().context, { path: '/leads' }, ALL)).toHaveLength(204);
	});

	it('a limit reached before the repeat is no error: it never asks again', async () => {
		const seen = serve('/api/v1/leads', () => v1(records('l', 100), 'same'));
		const want = { returnAll: false, limit: 100 };
		expect(await readList.call(freshContext().context, { path: '/leads' }, want)).toHaveLength(100);
		expect(seen).toHaveLength(1);
	});
});

describe("the list reader's options", () => {
	it('a per-list maxPages: past it the error names the cap and how to narrow the list', async () => {
		const seen = serve('/api/v1/leads', endless, 10);
		const spec = { path: '/leads', maxPages: 3, narrow: 'Use a filter.' };

		const error = await errorOf(readList.call(freshContext().context, spec, ALL));

		expect(error.message).toBe(
			'The list /api/v1/leads has more than 3 pages, the most the node reads of this list; nothing of it was output',
		);
		expect(error.description).toBe('Use a filter.');
		expect(seen).toHaveLength(3);
	});

	it(`webhook lists read at most ${WEBHOOK_LIST_MAX_PAGES} pages, then say to delete unused subscriptions`, async () => {
		const seen = serve('/api/v1/webhooks', endless, WEBHOOK_LIST_MAX_PAGES + 5);

		const error = await errorOf(listWebhookSubscriptions(freshContext().context));

		expect(error.message).toMatch(`has more than ${WEBHOOK_LIST_MAX_PAGES} pages`);
		expect(error.description).toMatch(/Delete webhook subscriptions that are no longer used/);
		expect(seen).toHaveLength(WEBHOOK_LIST_MAX_PAGES);
	});

	it('a consumer that stops iterating makes no further request', async () => {
		const seen = serve('/api/v1/leads', endless, 10);
		const numbers: number[] = [];
		for await (const page of readPages.call(freshContext().context, { path: '/leads' })) {
			numbers.push(page.number);
			if (page.number === 2) break;
		}
		expect(numbers).toEqual([1, 2]);
		expect(seen).toEqual(['/api/v1/leads?limit=100', '/api/v1/leads?limit=100&cursor=c1']);
	});

	it('readOnePage: one request from the start cursor, its records and the next cursor to hand back', async () => {
		const seen = serve('/api/v1/users', () => v1(records('usr', 2), 'u3'), 1);
		const spec = { path: '/users', qs: { active: true }, startCursor: 'u1' };

		const page = await readOnePage.call(freshContext().context, spec);

		expect(page).toMatchObject({ number: 1, nextCursor: 'u3', records: records('usr', 2) });
		expect(seen).toEqual(['/api/v1/users?active=true&limit=100&cursor=u1']);
	});

	it('shape any: a bare array is the whole list; a v2 envelope is followed; a v1 list then a v2 page is an error', async () => {
		const { context } = freshContext();
		serve('/api/v1/webhooks', () => records('whk', 3), 1);
		expect(await readList.call(context, { path: '/webhooks', shape: 'any' })).toHaveLength(3);

		serve('/api/v1/things', (n) => v2(records('t', 1, n + 1), n === 0 ? 'p2' : null), 2);
		expect(await readList.call(context, { path: '/things', shape: 'any' })).toEqual(
			records('t', 2),
		);

		serve(
			'/api/v1/mixed',
			(n) => (n === 0 ? v1(records('m', 1), 'p2') : v2(records('m', 1, 2), null)),
			2,
		);
		await expect(readList.call(context, { path: '/mixed', shape: 'any' })).rejects.toThrow(
			/and an object with the keys data, meta, not a list/,
		);
	});

	it("a v1 list is not read as v2: an answer of the other version's shape is an error", async () => {
		serve('/api/v2/contacts', () => v1(records('c', 1)), 1);
		const spec = { path: '/contacts', version: 'v2' as const };
		await expect(readList.call(freshContext().context, spec)).rejects.toThrow(
			/and an object with the keys items, hasMore, not a list/,
		);
	});

	it('a deadline bounds the whole list: with nothing left, it fails before asking, saying the limit', async () => {
		const spec = { path: '/leads', deadline: Date.now() };
		const error = await errorOf(readList.call(freshContext().context, spec));
		expect(error.message).toBe(
			'The list /api/v1/leads was not read within its time limit (0 pages read); nothing of it was output',
		);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('a deadline: slow pages make the list fail within the limit, not page after page', async () => {
		let served = 0;
		nock(BASE)
			.get('/api/v1/webhooks')
			.query(true)
			.times(10)
			.delay(300)
			.reply(() => [200, endless(served++)]);
		const options = { want: ALL, maxPages: WEBHOOK_LIST_MAX_PAGES, deadline: Date.now() + 700 };

		await expect(listWebhookSubscriptions(freshContext().context, options)).rejects.toThrow();
		// Pages of 300 ms in a limit of 700 ms: at most three were asked for (without the limit: all ten).
		expect(served).toBeLessThanOrEqual(3);
		nock.abortPendingRequests();
	});
});

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
function chain(sizes: number[], last: string | null, version?: ListSpec['version']): IDataObject[] {
	let from = 1;
	return sizes.map((size, n) => {
		const items = records('l', size, from);
		from += size;
		const next = n === sizes.length - 1 ? last : `c${n + 2}`;
		return version === 'v2' ? v2(items, next) : v1(items, next);
	});
}

type Want = { returnAll: boolean; limit?: number };
const ALL: Want = { returnAll: true };
const V2 = { version: 'v2' } as const;
const FILTERS = { qs: { search: 'acme corp', archived: false, stageId: 'lst_new' } };
/** A page that says there is no more, but still names a cursor. */
const stale = (items: IDataObject[], page: typeof v1 | typeof v2 = v1) =>
	page(items, 'stale', false);
const limit = (count: number): Want => ({ returnAll: false, limit: count });

/** The paths asking `sizes` records of the list `spec` in turn, from the second on with the cursor c2, c3, …. */
function asked(spec: Partial<ListSpec>, sizes: number[]): string[] {
	const prefix = spec.version === 'v2' ? '/api/v2/list?' : '/api/v1/list?';
	const param = spec.version === 'v2' ? 'pageSize' : 'limit';
	const filters = spec.qs ? 'search=acme%20corp&archived=false&stageId=lst_new&' : '';
	return sizes.map(
		(size, n) => `${prefix}${filters}${param}=${size}${n ? `&cursor=c${n + 1}` : ''}`,
	);
}

/** Reads the list `spec` served by `pages`: the records, and the paths nock saw. */
async function readOver(spec: Partial<ListSpec>, want: Want, pages: IDataObject[]) {
	const seen = servePages(spec.version === 'v2' ? '/api/v2/list' : '/api/v1/list', pages);
	const list = await readList.call(freshContext().context, { path: '/list', ...spec }, want);
	return { list, seen };
}

describe('readList: pages, limits and cursors', () => {
	// Rows: the sizes of the pages served (c2, c3, … naming the next, the last page `last`), the sizes asked, the count.
	it.each<[string, Partial<ListSpec>, Want, number[], string | null, number[], number]>([
		['Return All: 3 pages, the cursor passed', {}, ALL, [100, 100, 20], null, [100, 100, 100], 220],
		['Limit 250 asks 100, 100, 50', {}, limit(250), [100, 100, 50], 'c4', [100, 100, 50], 250],
		['a page holding more than asked', {}, limit(30), [40], 'c2', [30], 30],
		['a page with fewer and hasMore false stops', {}, limit(30), [12], null, [30], 12],
		['an empty result is [] after one request', {}, ALL, [0], null, [100], 0],
		['Limit 0 sends no request', {}, limit(0), [], null, [], 0],
		['the filters stay on every page', FILTERS, ALL, [100, 1], null, [100, 100], 101],
		['v2: pageSize, /api/v2, meta.nextCursor', V2, ALL, [100, 100, 7], null, [100, 100, 100], 207],
		['v2 with a limit asks what is missing', V2, limit(120), [100, 20], 'c3', [100, 20], 120],
		['v2 empty result is []', V2, ALL, [0], null, [100], 0],
	])('%s', async (_name, spec, want, served, last, sizes, count) => {
		const { list, seen } = await readOver(spec, want, chain(served, last, spec.version));

		expect(seen).toEqual(asked(spec, sizes));
		expect(list).toHaveLength(count);
		if (count > 0) expect(list[count - 1]).toEqual({ id: `l_${count}` });
	});

	it.each<[string, Partial<ListSpec>, IDataObject, number]>([
		['a page without nextCursor', {}, v1(records('l', 5), undefined, true), 5],
		['hasMore false despite a nextCursor', {}, stale(records('l', 100)), 100],
		['v2 meta.hasMore false despite a nextCursor', V2, stale(records('l', 3), v2), 3],
		['v2 without meta', V2, { data: records('l', 2) }, 2],
	])('%s: stops after one page', async (_name, spec, page, count) => {
		const { list, seen } = await readOver(spec, ALL, [page]);

		expect(seen).toEqual(asked(spec, [100]));
		expect(list).toHaveLength(count);
		expect(list[count - 1]).toEqual({ id: `l_${count}` });
	});

	it('reads the credential once per execution however many pages, and again in a new execution', async () => {
		const { context, credentialsHelper } = freshContext();
		const getCredentials = jest.spyOn(context, 'getCredentials');
		const other = freshContext();
		servePages('/api/v1/leads', [...chain([100, 1], null), v1([], null)]);
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

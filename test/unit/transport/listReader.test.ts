/** Issue 17: the one list reader's own options (per-list page cap, startCursor, readOnePage, early stop, shapes). */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import {
	listWebhookSubscriptions,
	WEBHOOK_LIST_MAX_PAGES,
} from '../../../nodes/CrmInvoicing/shared/webhookList';
import { readList, readOnePage, readPages } from '../../../nodes/CrmInvoicing/shared/transport';
import { BASE, errorOf, freshContext, setUpNock } from './support';

setUpNock();

function records(prefix: string, count: number, from = 1): IDataObject[] {
	return Array.from({ length: count }, (_, n) => ({ id: `${prefix}_${from + n}` }));
}

/** Answers every GET of `path` with `page(n)` for the n-th request (from 0), at most `times` times; logs the queries. */
function serve(path: string, times: number, page: (n: number) => unknown): string[] {
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

const endless = (n: number) => ({
	items: records('lead', 100, n * 100 + 1),
	hasMore: true,
	nextCursor: `c${n + 1}`,
});

describe('the list reader', () => {
	it('a per-list maxPages: past it the error names the cap, the records read, and how to narrow the list', async () => {
		const { context } = freshContext();
		const seen = serve('/api/v1/leads', 10, endless);

		const error = await errorOf(
			readList.call(
				context,
				{ path: '/leads', maxPages: 3, narrow: 'Use a filter.' },
				{ returnAll: true },
			),
		);

		expect(error.message).toBe(
			'The list /api/v1/leads has more than 3 pages, the most the node reads of this list; nothing of it was output',
		);
		expect(error.description).toBe('Use a filter.');
		expect(seen).toHaveLength(3);
	});

	it(`webhook lists read at most ${WEBHOOK_LIST_MAX_PAGES} pages, then say to delete unused subscriptions`, async () => {
		const { context } = freshContext();
		const seen = serve('/api/v1/webhooks', WEBHOOK_LIST_MAX_PAGES + 5, endless);

		const error = await errorOf(listWebhookSubscriptions(context));

		expect(error.message).toMatch(`has more than ${WEBHOOK_LIST_MAX_PAGES} pages`);
		expect(error.description).toMatch(/Delete webhook subscriptions that are no longer used/);
		expect(seen).toHaveLength(WEBHOOK_LIST_MAX_PAGES);
	});

	it('a consumer that stops iterating makes no further request', async () => {
		const { context } = freshContext();
		const seen = serve('/api/v1/leads', 10, endless);

		const numbers: number[] = [];
		for await (const page of readPages.call(context, { path: '/leads' })) {
			numbers.push(page.number);
			if (page.number === 2) break;
		}

		expect(numbers).toEqual([1, 2]);
		expect(seen).toEqual(['/api/v1/leads?limit=100', '/api/v1/leads?limit=100&cursor=c1']);
	});

	it('readOnePage: one request from the start cursor, its records and the next cursor for the caller to hand back', async () => {
		const { context } = freshContext();
		const seen = serve('/api/v1/users', 1, () => ({
			items: records('usr', 2),
			hasMore: true,
			nextCursor: 'u3',
		}));

		const page = await readOnePage.call(context, {
			path: '/users',
			qs: { active: true },
			startCursor: 'u1',
		});

		expect(page).toMatchObject({
			number: 1,
			nextCursor: 'u3',
			records: records('usr', 2),
		});
		expect(seen).toEqual(['/api/v1/users?active=true&limit=100&cursor=u1']);
	});

	it('shape any: a bare array is the whole list; a v2 envelope is followed; a v1 list then a v2 page is an error', async () => {
		const { context } = freshContext();
		serve('/api/v1/webhooks', 1, () => records('whk', 3));
		expect(await readList.call(context, { path: '/webhooks', shape: 'any' })).toHaveLength(3);

		serve('/api/v1/things', 2, (n) => ({
			data: records('t', 1, n + 1),
			meta: { hasMore: n === 0, nextCursor: n === 0 ? 'p2' : null },
		}));
		expect(await readList.call(context, { path: '/things', shape: 'any' })).toEqual(
			records('t', 2),
		);

		serve('/api/v1/mixed', 2, (n) =>
			n === 0
				? { items: records('m', 1), hasMore: true, nextCursor: 'p2' }
				: { data: records('m', 1, 2), meta: { hasMore: false } },
		);
		await expect(readList.call(context, { path: '/mixed', shape: 'any' })).rejects.toThrow(
			/and an object with the keys data, meta, not a list/,
		);
	});

	it("a v1 list is not read as v2: an answer of the other version's shape is an error", async () => {
		const { context } = freshContext();
		serve('/api/v2/contacts', 1, () => ({ items: records('c', 1), hasMore: false }));
		await expect(readList.call(context, { path: '/contacts', version: 'v2' })).rejects.toThrow(
			/and an object with the keys items, hasMore, not a list/,
		);
	});

	it('a deadline bounds the whole list: with nothing left, it fails before asking, saying the limit', async () => {
		const { context } = freshContext();
		const error = await errorOf(readList.call(context, { path: '/leads', deadline: Date.now() }));
		expect(error.message).toBe(
			'The list /api/v1/leads was not read within its time limit (0 pages read); nothing of it was output',
		);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('a deadline: slow pages make the list fail within the limit, not page after page of the per-request timeout', async () => {
		const { context } = freshContext();
		let served = 0;
		nock(BASE)
			.get('/api/v1/webhooks')
			.query(true)
			.times(10)
			.delay(300)
			.reply(() => {
				served++;
				return [200, endless(served - 1)];
			});

		await expect(
			listWebhookSubscriptions(context, {
				want: { returnAll: true },
				maxPages: WEBHOOK_LIST_MAX_PAGES,
				deadline: Date.now() + 700,
			}),
		).rejects.toThrow();
		// Pages of 300 ms in a limit of 700 ms: at most three were asked for (without the limit: all ten, then an error).
		expect(served).toBeLessThanOrEqual(3);
		nock.abortPendingRequests();
		nock.cleanAll();
	});
});

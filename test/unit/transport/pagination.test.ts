import nock from 'nock';
import { sleep } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { readList } from '../../../nodes/CrmInvoicing/shared/transport';
import { BASE, freshContext, setUpNock } from './support';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn().mockResolvedValue(undefined),
}));

setUpNock();
beforeEach(() => jest.mocked(sleep).mockClear());

function records(prefix: string, count: number, from = 1): IDataObject[] {
	return Array.from({ length: count }, (_, n) => ({ id: `${prefix}_${from + n}` }));
}

/**
 * Serves `pages` in order at `path` (any query), logging the path and query string of each request. A request after
 * the last page fails the test (nock has nothing left to answer with).
 */
function servePages(path: string, pages: IDataObject[]): string[] {
	const seen: string[] = [];
	for (const page of pages) {
		nock(BASE)
			.get(path)
			.query(true)
			.reply((uri) => {
				seen.push(uri);
				return [200, page];
			});
	}
	return seen;
}

describe('readList, v1 lists', () => {
	it('Return All over 3 pages asks limit=100 on every page and passes the cursor', async () => {
		const { context } = freshContext();
		const seen = servePages('/api/v1/leads', [
			{ items: records('lead', 100, 1), hasMore: true, nextCursor: 'c2' },
			{ items: records('lead', 100, 101), hasMore: true, nextCursor: 'c3' },
			{ items: records('lead', 20, 201), hasMore: false, nextCursor: null },
		]);

		const leads = await readList.call(context, { path: '/leads' }, { returnAll: true });

		expect(seen).toEqual([
			'/api/v1/leads?limit=100',
			'/api/v1/leads?limit=100&cursor=c2',
			'/api/v1/leads?limit=100&cursor=c3',
		]);
		expect(leads).toHaveLength(220);
		expect(leads[0]).toEqual({ id: 'lead_1' });
		expect(leads[219]).toEqual({ id: 'lead_220' });
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('keeps the filters on every page', async () => {
		const { context } = freshContext();
		const seen = servePages('/api/v1/leads', [
			{ items: records('lead', 100), hasMore: true, nextCursor: 'c2' },
			{ items: records('lead', 1, 101), hasMore: false, nextCursor: null },
		]);

		await readList.call(
			context,
			{ path: '/leads', qs: { search: 'acme corp', archived: false, stageId: 'lst_new' } },
			{ returnAll: true },
		);

		expect(seen).toEqual([
			'/api/v1/leads?search=acme%20corp&archived=false&stageId=lst_new&limit=100',
			'/api/v1/leads?search=acme%20corp&archived=false&stageId=lst_new&limit=100&cursor=c2',
		]);
	});

	it('Limit 250 asks for 100, 100, 50: exactly 3 requests', async () => {
		const { context } = freshContext();
		const seen = servePages('/api/v1/leads', [
			{ items: records('lead', 100, 1), hasMore: true, nextCursor: 'c2' },
			{ items: records('lead', 100, 101), hasMore: true, nextCursor: 'c3' },
			{ items: records('lead', 50, 201), hasMore: true, nextCursor: 'c4' },
			{ items: records('lead', 50, 251), hasMore: false, nextCursor: null },
		]);

		const leads = await readList.call(
			context,
			{ path: '/leads' },
			{ returnAll: false, limit: 250 },
		);

		expect(seen).toEqual([
			'/api/v1/leads?limit=100',
			'/api/v1/leads?limit=100&cursor=c2',
			'/api/v1/leads?limit=50&cursor=c3',
		]);
		expect(leads).toHaveLength(250);
		expect(leads[249]).toEqual({ id: 'lead_250' });
	});

	it('never returns more than the limit, even when a page holds more than asked', async () => {
		const { context } = freshContext();
		const seen = servePages('/api/v1/leads', [
			{ items: records('lead', 40), hasMore: true, nextCursor: 'c2' },
		]);

		const leads = await readList.call(context, { path: '/leads' }, { returnAll: false, limit: 30 });

		expect(seen).toEqual(['/api/v1/leads?limit=30']);
		expect(leads).toHaveLength(30);
	});

	it('Limit 30 when a page holds fewer and has no nextCursor → stops: one request', async () => {
		const { context } = freshContext();
		const seen = servePages('/api/v1/leads', [
			{ items: records('lead', 12), hasMore: false, nextCursor: null },
			{ items: records('lead', 18, 13), hasMore: false, nextCursor: null },
		]);

		const leads = await readList.call(context, { path: '/leads' }, { returnAll: false, limit: 30 });

		expect(seen).toEqual(['/api/v1/leads?limit=30']);
		expect(leads).toHaveLength(12);
	});

	it('a page without nextCursor at all also stops', async () => {
		const { context } = freshContext();
		const seen = servePages('/api/v1/users', [
			{ items: records('user', 5), hasMore: true },
			{ items: records('user', 5, 6), hasMore: false },
		]);

		const users = await readList.call(context, { path: '/users' }, { returnAll: true });

		expect(seen).toEqual(['/api/v1/users?limit=100']);
		expect(users).toHaveLength(5);
	});

	it('hasMore: false stops even when a nextCursor is present', async () => {
		const { context } = freshContext();
		const seen = servePages('/api/v1/leads', [
			{ items: records('lead', 100), hasMore: false, nextCursor: 'c_stale' },
			{ items: records('lead', 100, 101), hasMore: false, nextCursor: null },
		]);

		const leads = await readList.call(context, { path: '/leads' }, { returnAll: true });

		expect(seen).toEqual(['/api/v1/leads?limit=100']);
		expect(leads).toHaveLength(100);
	});

	it('an empty page that still claims more stops with an error after one request (no endless loop, no silent partial list)', async () => {
		const { context } = freshContext();
		const seen = servePages('/api/v1/leads', [
			{ items: [], hasMore: true, nextCursor: 'c2' },
			{ items: records('lead', 1), hasMore: false, nextCursor: null },
		]);

		await expect(readList.call(context, { path: '/leads' }, { returnAll: true })).rejects.toThrow(
			'The CRM API\'s list /api/v1/leads did not advance: page 1 brought no new records but still named a next cursor ("c2"). The node stopped reading it',
		);
		expect(seen).toEqual(['/api/v1/leads?limit=100']);
	});

	it('an empty result → [] after one request', async () => {
		const { context } = freshContext();
		const seen = servePages('/api/v1/leads', [{ items: [], hasMore: false, nextCursor: null }]);

		expect(await readList.call(context, { path: '/leads' }, { returnAll: true })).toEqual([]);
		expect(seen).toEqual(['/api/v1/leads?limit=100']);
	});

	it('Limit 0 sends no request', async () => {
		const { context } = freshContext();
		const seen = servePages('/api/v1/leads', [
			{ items: records('lead', 1), hasMore: false, nextCursor: null },
		]);

		expect(
			await readList.call(context, { path: '/leads' }, { returnAll: false, limit: 0 }),
		).toEqual([]);
		expect(seen).toEqual([]);
	});

	it('reads the credential once per execution, however many pages', async () => {
		const { context, credentialsHelper } = freshContext();
		const getCredentials = jest.spyOn(context, 'getCredentials');
		servePages('/api/v1/leads', [
			{ items: records('lead', 100, 1), hasMore: true, nextCursor: 'c2' },
			{ items: records('lead', 100, 101), hasMore: true, nextCursor: 'c3' },
			{ items: records('lead', 100, 201), hasMore: false, nextCursor: null },
		]);
		servePages('/api/v1/users', [{ items: records('user', 3), hasMore: false, nextCursor: null }]);

		await readList.call(context, { path: '/leads' }, { returnAll: true });
		await readList.call(context, { path: '/users' }, { returnAll: true });

		expect(getCredentials).toHaveBeenCalledTimes(1);
		expect(getCredentials).toHaveBeenCalledWith('crmInvoicingApi');
		expect(credentialsHelper.getDecryptedCalls).toBe(1);
	});

	it('a new execution reads the credential again', async () => {
		const first = freshContext();
		const second = freshContext();
		servePages('/api/v1/leads', [
			{ items: records('lead', 1), hasMore: false, nextCursor: null },
			{ items: records('lead', 1), hasMore: false, nextCursor: null },
		]);

		await readList.call(first.context, { path: '/leads' }, { returnAll: true });
		await readList.call(second.context, { path: '/leads' }, { returnAll: true });

		expect(first.credentialsHelper.getDecryptedCalls).toBe(1);
		expect(second.credentialsHelper.getDecryptedCalls).toBe(1);
	});
});

describe('readList, v2 lists', () => {
	it('asks pageSize (not limit) under /api/v2 and follows meta.nextCursor', async () => {
		const { context } = freshContext();
		const seen = servePages('/api/v2/contacts', [
			{ data: records('contact', 100), meta: { nextCursor: 'v2c2', hasMore: true } },
			{ data: records('contact', 100, 101), meta: { nextCursor: 'v2c3', hasMore: true } },
			{ data: records('contact', 7, 201), meta: { nextCursor: null, hasMore: false } },
		]);

		const contacts = await readList.call(
			context,
			{ path: '/contacts', version: 'v2' },
			{ returnAll: true },
		);

		expect(seen).toEqual([
			'/api/v2/contacts?pageSize=100',
			'/api/v2/contacts?pageSize=100&cursor=v2c2',
			'/api/v2/contacts?pageSize=100&cursor=v2c3',
		]);
		expect(contacts).toHaveLength(207);
	});

	it('a limit asks for what is still missing', async () => {
		const { context } = freshContext();
		const seen = servePages('/api/v2/contacts', [
			{ data: records('contact', 100), meta: { nextCursor: 'v2c2', hasMore: true } },
			{ data: records('contact', 20, 101), meta: { nextCursor: 'v2c3', hasMore: true } },
		]);

		const contacts = await readList.call(
			context,
			{ path: '/contacts', version: 'v2' },
			{ returnAll: false, limit: 120 },
		);

		expect(seen).toEqual([
			'/api/v2/contacts?pageSize=100',
			'/api/v2/contacts?pageSize=20&cursor=v2c2',
		]);
		expect(contacts).toHaveLength(120);
	});

	it('meta.hasMore: false stops even with a nextCursor; a missing meta stops too', async () => {
		const first = freshContext();
		const seenFirst = servePages('/api/v2/contacts', [
			{ data: records('contact', 3), meta: { nextCursor: 'v2c_stale', hasMore: false } },
		]);
		expect(
			await readList.call(first.context, { path: '/contacts', version: 'v2' }, { returnAll: true }),
		).toHaveLength(3);
		expect(seenFirst).toEqual(['/api/v2/contacts?pageSize=100']);

		const second = freshContext();
		const seenSecond = servePages('/api/v2/contacts', [{ data: records('contact', 2) }]);
		expect(
			await readList.call(
				second.context,
				{ path: '/contacts', version: 'v2' },
				{ returnAll: true },
			),
		).toHaveLength(2);
		expect(seenSecond).toEqual(['/api/v2/contacts?pageSize=100']);
	});

	it('an empty result → []', async () => {
		const { context } = freshContext();
		const seen = servePages('/api/v2/contacts', [
			{ data: [], meta: { nextCursor: null, hasMore: false } },
		]);

		expect(
			await readList.call(context, { path: '/contacts', version: 'v2' }, { returnAll: true }),
		).toEqual([]);
		expect(seen).toEqual(['/api/v2/contacts?pageSize=100']);
	});
});

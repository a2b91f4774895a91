/** Issue 11: Return All stops with a clear error when the API repeats a cursor or a page does not advance. */
import nock from 'nock';
import { NodeApiError, sleep } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { readList } from '../../../nodes/CrmInvoicing/shared/transport';
import { BASE, errorOf, freshContext, setUpNock } from './support';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn().mockResolvedValue(undefined),
}));

setUpNock();
beforeEach(() => jest.mocked(sleep).mockClear());

function records(prefix: string, count: number, from = 1): IDataObject[] {
	return Array.from({ length: count }, (_, n) => ({ id: `${prefix}_${from + n}` }));
}

/** Answers every GET of `path` with `page(n)` for the n-th request (from 0), at most `times` times; logs the queries. */
function serve(path: string, times: number, page: (n: number) => IDataObject): string[] {
	const seen: string[] = [];
	nock(BASE)
		.get(path)
		.query(true)
		.times(times)
		.reply((uri) => {
			seen.push(uri);
			return [200, page(seen.length - 1)];
		});
	return seen;
}

describe('Return All against a cursor that repeats', () => {
	it('v1: the same nextCursor forever → error after the second page, not an endless loop', async () => {
		const { context } = freshContext();
		const seen = serve('/api/v1/leads', 50, (n) => ({
			items: records('lead', 100, n * 100 + 1),
			hasMore: true,
			nextCursor: 'same',
		}));

		const error = await errorOf(readList.call(context, { path: '/leads' }, { returnAll: true }));

		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			'The CRM API\'s list /api/v1/leads did not advance: page 2 handed back a cursor it had already given ("same"). The node stopped reading it',
		);
		expect(String(error.description)).toMatch(/would loop forever/);
		expect(seen).toEqual(['/api/v1/leads?limit=100', '/api/v1/leads?limit=100&cursor=same']);
	});

	it('v1: a cycle of two cursors is caught too', async () => {
		const { context } = freshContext();
		const seen = serve('/api/v1/leads', 50, (n) => ({
			items: records('lead', 100, n * 100 + 1),
			hasMore: true,
			nextCursor: n % 2 ? 'a' : 'b',
		}));

		await expect(readList.call(context, { path: '/leads' }, { returnAll: true })).rejects.toThrow(
			/handed back a cursor it had already given \("b"\)/,
		);
		expect(seen).toHaveLength(3);
	});

	it('v2: a repeating meta.nextCursor stops with the error', async () => {
		const { context } = freshContext();
		const seen = serve('/api/v2/contacts', 50, (n) => ({
			data: records('ct', 100, n * 100 + 1),
			meta: { hasMore: true, nextCursor: 'x' },
		}));

		await expect(
			readList.call(context, { path: '/contacts', version: 'v2' }, { returnAll: true }),
		).rejects.toThrow(/list \/api\/v2\/contacts did not advance: page 2 handed back a cursor/);
		expect(seen).toHaveLength(2);
	});

	it('a page with the same records as the page before (new cursor, no progress) stops with the error', async () => {
		const { context } = freshContext();
		const seen = serve('/api/v1/leads', 50, (n) => ({
			items: records('lead', 100),
			hasMore: true,
			nextCursor: `c${n}`,
		}));

		await expect(readList.call(context, { path: '/leads' }, { returnAll: true })).rejects.toThrow(
			/did not advance: page 2 brought no new records but still named a next cursor \("c1"\)/,
		);
		expect(seen).toHaveLength(2);
	});

	// Issue 40: only consecutive pages were compared, so this ran to the 100,000-record cap (about 28 h at 60 a minute).
	it('pages alternating two records under fresh cursors (a list that cycles) → the error on the third request', async () => {
		const { context } = freshContext();
		const seen = serve('/api/v1/leads', 50, (n) => ({
			items: [{ id: n % 2 ? 'lead_b' : 'lead_a' }],
			hasMore: true,
			nextCursor: `fresh_${n}`,
		}));

		const error = await errorOf(readList.call(context, { path: '/leads' }, { returnAll: true }));

		expect(error.message).toBe(
			'The CRM API\'s list /api/v1/leads did not advance: page 3 brought no new records but still named a next cursor ("fresh_2"). The node stopped reading it',
		);
		expect(String(error.description)).toMatch(/a list that cycles/);
		expect(seen).toHaveLength(3);
	});

	it('a page that repeats some records but brings one not seen before advances; records without an id always do', async () => {
		const { context } = freshContext();
		serve('/api/v1/leads', 4, (n) => ({
			items: n < 2 ? records('lead', 100, n * 99 + 1) : [{ name: 'no id' }, { id: 'lead_1' }],
			hasMore: n < 3,
			nextCursor: n < 3 ? `c${n}` : null,
		}));

		const leads = await readList.call(context, { path: '/leads' }, { returnAll: true });

		expect(leads).toHaveLength(204);
	});

	it('continuing from a cursor (Custom API Request) counts that cursor as seen', async () => {
		const { context } = freshContext();
		const seen = serve('/api/v1/leads', 5, () => ({
			items: records('lead', 100),
			hasMore: true,
			nextCursor: 'start',
		}));

		await expect(
			readList.call(context, { path: '/leads', startCursor: 'start' }, { returnAll: true }),
		).rejects.toThrow(/page 1 handed back a cursor it had already given \("start"\)/);
		expect(seen).toEqual(['/api/v1/leads?limit=100&cursor=start']);
	});

	it('a limit reached before the repeat is no error: it never asks again', async () => {
		const { context } = freshContext();
		const seen = serve('/api/v1/leads', 5, () => ({
			items: records('lead', 100),
			hasMore: true,
			nextCursor: 'same',
		}));

		expect(
			await readList.call(context, { path: '/leads' }, { returnAll: false, limit: 100 }),
		).toHaveLength(100);
		expect(seen).toHaveLength(1);
	});
});

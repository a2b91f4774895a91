import type { IDataObject } from 'n8n-workflow';

import { LEAD_NUMBER_SCAN_PAGES } from '../../../nodes/CrmInvoicing/actions/methods/leadPicker';
import { searchLeads } from '../../../nodes/CrmInvoicing/actions/methods/listSearch';
import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { createLoadOptionsContext } from '../../helpers/harness';
import { api, useNock } from './support';
import { v1Page, servePages } from '../../helpers/actions';
import { lead as record } from '../../helpers/records';

useNock();

function context() {
	return createLoadOptionsContext({
		nodeType: new CrmInvoicing(),
		parameters: { resource: 'lead', operation: 'get' },
	}).context;
}

const lead = (id: string, number: string, extra: IDataObject = {}): IDataObject =>
	record(id, { number, email: 'jane@example.com', ...extra });

/** Pages of GET /api/v1/leads, each request carrying `search` (none when undefined) and a limit of 100. */
const leadPages = (search: string | undefined, pages: IDataObject[][]) =>
	servePages('/api/v1/leads', pages, {
		query: search === undefined ? { limit: '100' } : { limit: '100', search },
	});

describe('the lead picker ("From List")', () => {
	it('searches as the user types, and pages with the next cursor as the pagination token', async () => {
		const seen = leadPages('ja', [[lead('lead_1', 'L-0001')], [lead('lead_3', 'L-0003')]]);

		expect(await searchLeads.call(context(), 'ja')).toEqual({
			results: [{ name: 'Jane Doe · jane@example.com · L-0001', value: 'lead_1' }],
			paginationToken: 'c2',
		});
		expect(await searchLeads.call(context(), 'ja', 'c2')).toEqual({
			results: [{ name: 'Jane Doe · jane@example.com · L-0003', value: 'lead_3' }],
			paginationToken: undefined,
		});
		expect(seen).toHaveLength(2);
	});

	it('lists without a search parameter when there is no filter; leaves out an empty email, shows the ID where a lead has no number', async () => {
		leadPages(undefined, [
			[
				lead('lead_a', 'L-1', { email: null }),
				{ id: 'lead_x', name: ' ' },
				{ id: 'lead_y', name: 'No Number', number: '' },
			],
		]);

		const { results } = await searchLeads.call(context());
		expect(results.map((result) => result.name)).toEqual([
			'Jane Doe · L-1',
			'lead_x',
			'No Number · lead_y',
		]);
	});

	it.each([
		['its number', ' l-00012 ', 'l-00012', 'lead_b', 'L-00012'],
		['(part of) its ID', 'b7x9', 'b7x9', 'lead_b7x9q', 'L-2'],
	])(
		"finds a lead by %s when the CRM's search (name, email, mobile, website) finds nothing",
		async (_what, filter, searched, value, number) => {
			const searches = leadPages(searched, [[]]);
			const scanned = leadPages(undefined, [
				[lead('lead_a', 'L-00007'), lead('lead_b', 'L-00012'), lead('lead_b7x9q', 'L-2')],
				[lead('lead_c', 'L-00120')],
			]);

			const result = await searchLeads.call(context(), filter);

			expect([searches.length, scanned.length]).toEqual([1, 2]);
			expect(result).toEqual({
				results: [{ name: `Jane Doe · jane@example.com · ${number}`, value }],
				paginationToken: undefined,
			});
		},
	);

	it(`reads at most ${LEAD_NUMBER_SCAN_PAGES} pages per call, and hands the rest of the scan on as the pagination token`, async () => {
		let pages = 0;
		const scope = api()
			.get('/api/v1/leads')
			.query({ limit: '100', search: 'L-9' })
			.reply(200, { items: [], hasMore: false })
			.get('/api/v1/leads')
			.query((query) => query.search === undefined)
			.times(LEAD_NUMBER_SCAN_PAGES * 2 + 1)
			.reply(() => {
				pages++;
				return [200, v1Page([lead(`lead_${pages}`, `L-${pages}`)], `c${pages}`)];
			});

		const first = await searchLeads.call(context(), 'L-9');
		expect(pages).toBe(LEAD_NUMBER_SCAN_PAGES);
		expect(first.results).toEqual([]);
		expect(first.paginationToken).toBe(`number-scan:c${LEAD_NUMBER_SCAN_PAGES}`);

		// The next call goes on scanning from there (not with the CRM's search).
		await searchLeads.call(context(), 'L-9', first.paginationToken);
		expect(pages).toBe(LEAD_NUMBER_SCAN_PAGES * 2);
		expect(scope.isDone()).toBe(false); // one interceptor of the second batch is left: bounded, not exhausted
	});

	it('does not scan for a filter that cannot be a number or ID (no digit, or several words)', async () => {
		const seen = leadPages('nobody here 1', [[]]);
		expect(await searchLeads.call(context(), 'nobody here 1')).toEqual({
			results: [],
			paginationToken: undefined,
		});
		expect(seen).toHaveLength(1);
	});

	// Through the one list reader (issue 17): its cursor guard and its shape check.
	it('a number scan continuing from its token stops when the API hands that token back', async () => {
		const scope = api()
			.get('/api/v1/leads')
			.query({ limit: '100', cursor: 'c5' })
			.reply(200, { items: [{ id: 'lead_1', number: 'L-1' }], hasMore: true, nextCursor: 'c5' });
		await expect(searchLeads.call(context(), '12', 'number-scan:c5')).rejects.toThrow(
			/did not advance: page 1 handed back a cursor it had already given \("c5"\)/,
		);
		expect(scope.isDone()).toBe(true);
	});

	it('a search page answered with HTML text is an error, not an empty picker', async () => {
		api()
			.get('/api/v1/leads')
			.query(true)
			.reply(200, '<!doctype html><title>Sign in</title>', { 'content-type': 'text/html' });
		await expect(searchLeads.call(context(), 'jane')).rejects.toThrow(
			/with 200 \(text\/html\) and text starting "<!doctype html>/,
		);
	});
});

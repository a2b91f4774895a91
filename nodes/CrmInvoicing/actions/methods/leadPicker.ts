import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { readPages } from '../../shared';

/** The lead picker's labels and its search by lead number or ID (used by searchLeads in listSearch.ts). */

/** Pages (100 leads each) one picker call reads at most when it looks for a lead number or ID itself. */
export const LEAD_NUMBER_SCAN_PAGES = 5;

/** Marks a pagination token as the continuation of a number/ID scan rather than of the CRM's search. */
export const NUMBER_SCAN_TOKEN = 'number-scan:';

/**
 * How the picker shows a lead: name, email and lead number, e.g. `Jane Doe · jane@example.com · L-00012`, so two
 * leads with the same name and email differ by their number (n8n's list shows only this label). A lead without a
 * number shows its ID in that place; one with nothing at all, just its ID.
 */
export function leadListItem(lead: IDataObject): INodeListSearchItems {
	const id = String(lead.id);
	const number = typeof lead.number === 'string' && lead.number.trim() !== '' ? lead.number : id;
	const label = [lead.name, lead.email].filter(
		(part): part is string => typeof part === 'string' && part.trim() !== '',
	);
	return { name: label.length > 0 ? [...label, number].join(' · ') : number, value: id };
}

/**
 * The CRM's search matches name, email, mobile and website, not the lead number. When it finds nothing and the
 * filter could be a number or an ID (one word with a digit), the leads are listed page by page through the one list
 * reader (its shape, record and repeated-cursor checks apply) and matched on their number and ID here: at most
 * LEAD_NUMBER_SCAN_PAGES pages per call. The rest goes behind n8n's pagination token: the reader's `nextCursor` of the
 * last page read, handed back as `startCursor` on the next call.
 */
export async function scanByNumber(
	context: ILoadOptionsFunctions,
	filter: string,
	cursor: string | undefined,
): Promise<INodeListSearchResult> {
	const needle = filter.toLowerCase();
	const matches = (value: unknown) =>
		typeof value === 'string' && value.toLowerCase().includes(needle);
	const results: INodeListSearchItems[] = [];
	let next: string | null = null;
	const pages = readPages.call(context, {
		path: '/leads',
		startCursor: cursor,
		narrow: 'Enter more of the lead number or ID, or pick the lead by ID.',
	});
	for await (const page of pages) {
		for (const lead of page.records) {
			if (matches(lead.number) || matches(lead.id)) results.push(leadListItem(lead));
		}
		next = page.nextCursor;
		if (page.number >= LEAD_NUMBER_SCAN_PAGES) break;
	}
	return { results, paginationToken: next !== null ? `${NUMBER_SCAN_TOKEN}${next}` : undefined };
}

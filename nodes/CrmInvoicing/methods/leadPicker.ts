import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { apiRequest, MAX_PAGE_SIZE } from '../transport';

/** The lead picker's labels and its search by lead number or ID (used by searchLeads in listSearch.ts). */

interface V1Page {
	items?: IDataObject[];
	nextCursor?: string | null;
	hasMore?: boolean;
}

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
	const label = [lead.name, lead.email].filter((part): part is string => typeof part === 'string' && part.trim() !== '');
	return { name: label.length > 0 ? [...label, number].join(' · ') : number, value: id };
}

function contains(value: unknown, needle: string): boolean {
	return typeof value === 'string' && value.toLowerCase().includes(needle);
}

/**
 * The CRM's search matches name, email, mobile and website, not the lead number. When it finds nothing and the
 * filter could be a number or an ID (one word with a digit), the leads are listed page by page and matched on their
 * number and ID here: at most LEAD_NUMBER_SCAN_PAGES pages per call, the rest behind the pagination token.
 */
export async function scanByNumber(
	context: ILoadOptionsFunctions,
	filter: string,
	cursor: string | undefined,
): Promise<INodeListSearchResult> {
	const needle = filter.toLowerCase();
	const results: INodeListSearchItems[] = [];
	let next: string | undefined = cursor;
	for (let page = 0; page < LEAD_NUMBER_SCAN_PAGES; page++) {
		const qs: IDataObject = { limit: MAX_PAGE_SIZE };
		if (next) qs.cursor = next;
		const response = (await apiRequest.call(context, { method: 'GET', path: '/leads', qs })) as V1Page;
		const items = response.items ?? [];
		for (const lead of items) {
			if (contains(lead.number, needle) || contains(lead.id, needle)) results.push(leadListItem(lead));
		}
		next = response.hasMore && response.nextCursor && items.length > 0 ? response.nextCursor : undefined;
		if (!next) break;
	}
	return { results, paginationToken: next ? `${NUMBER_SCAN_TOKEN}${next}` : undefined };
}

export function mayBeNumberOrId(filter: string): boolean {
	return /\d/.test(filter) && !/\s/.test(filter);
}

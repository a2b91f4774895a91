import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems } from 'n8n-workflow';

import { readPages } from '../../shared';
import { isSet } from '../common';

export const LEAD_NUMBER_SCAN_PAGES = 5;

export const NUMBER_SCAN_TOKEN = 'number-scan:';

/** `Jane Doe · jane@example.com · L-00012`: n8n's list shows only this label, so the number tells twins apart. */
export function leadListItem(lead: IDataObject) {
	const id = String(lead.id);
	const label = [lead.name, lead.email, lead.number].filter(isSet);
	if (!isSet(lead.number)) label.push(id);
	return { name: label.join(' · '), value: id };
}

/** The CRM's search does not match the lead number: list and match here, at most LEAD_NUMBER_SCAN_PAGES per call;
 * the rest goes behind n8n's pagination token. */
export async function scanByNumber(
	context: ILoadOptionsFunctions,
	filter: string,
	cursor?: string,
) {
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
	return { results, paginationToken: next ? `${NUMBER_SCAN_TOKEN}${next}` : undefined };
}

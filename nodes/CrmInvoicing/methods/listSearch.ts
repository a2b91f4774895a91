import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { apiRequest, MAX_PAGE_SIZE } from '../transport';

interface V1Page {
	items?: IDataObject[];
	nextCursor?: string | null;
	hasMore?: boolean;
}

/** One page of leads for the "From List" picker, searching as the user types. */
export async function searchLeads(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const qs: IDataObject = { limit: MAX_PAGE_SIZE };
	if (filter) qs.search = filter;
	if (paginationToken) qs.cursor = paginationToken;
	const page = (await apiRequest.call(this, { method: 'GET', path: '/leads', qs })) as V1Page;
	return {
		results: (page.items ?? []).map((lead) => ({
			name: [lead.name, lead.email].filter(Boolean).join(' · ') || String(lead.id),
			value: String(lead.id),
		})),
		paginationToken: page.hasMore && page.nextCursor ? page.nextCursor : undefined,
	};
}

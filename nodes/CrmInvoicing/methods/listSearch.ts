import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { apiRequest, MAX_PAGE_SIZE, USER_SEARCH_QUERY_PARAMETER } from '../transport';

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

/**
 * One page of team users for the "From List" picker (e.g. an invoice's sales person), searching as the user types.
 * Only active team members are listed; others can still be given by ID.
 */
export async function searchUsers(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const qs: IDataObject = { limit: MAX_PAGE_SIZE, active: true };
	if (filter) qs[USER_SEARCH_QUERY_PARAMETER] = filter;
	if (paginationToken) qs.cursor = paginationToken;
	const page = (await apiRequest.call(this, { method: 'GET', path: '/users', qs })) as V1Page;
	return {
		results: (page.items ?? []).map((user) => {
			const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ');
			return {
				name: [fullName, user.email].filter(Boolean).join(' · ') || String(user.id),
				value: String(user.id),
			};
		}),
		paginationToken: page.hasMore && page.nextCursor ? page.nextCursor : undefined,
	};
}

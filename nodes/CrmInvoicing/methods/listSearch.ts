import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { USER_SEARCH_QUERY_PARAMETER, userMatchesSearch } from '../apiChoices';
import { apiRequest, MAX_PAGE_SIZE } from '../transport';
import { leadListItem, mayBeNumberOrId, NUMBER_SCAN_TOKEN, scanByNumber } from './leadPicker';

interface V1Page {
	items?: IDataObject[];
	nextCursor?: string | null;
	hasMore?: boolean;
}

/** One page of leads for the "From List" picker, searching name, email and lead number as the user types. */
export async function searchLeads(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const search = filter?.trim() ?? '';
	if (search && paginationToken?.startsWith(NUMBER_SCAN_TOKEN)) {
		return await scanByNumber(this, search, paginationToken.slice(NUMBER_SCAN_TOKEN.length));
	}
	const qs: IDataObject = { limit: MAX_PAGE_SIZE };
	if (search) qs.search = search;
	if (paginationToken) qs.cursor = paginationToken;
	const page = (await apiRequest.call(this, { method: 'GET', path: '/leads', qs })) as V1Page;
	const items = page.items ?? [];
	if (search && !paginationToken && items.length === 0 && mayBeNumberOrId(search)) {
		return await scanByNumber(this, search, undefined);
	}
	return {
		results: items.map(leadListItem),
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
		// Filtered here too, in case the server ignores the search parameter (the spec does not name it).
		results: (page.items ?? []).filter((user) => !filter || userMatchesSearch(user, filter)).map((user) => {
			const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ');
			return {
				name: [fullName, user.email].filter(Boolean).join(' · ') || String(user.id),
				value: String(user.id),
			};
		}),
		paginationToken: page.hasMore && page.nextCursor ? page.nextCursor : undefined,
	};
}

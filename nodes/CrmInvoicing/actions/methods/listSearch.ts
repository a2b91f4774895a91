import type { IDataObject, ILoadOptionsFunctions } from 'n8n-workflow';

import { readOnePage, USER_SEARCH_QUERY_PARAMETER, userMatchesSearch } from '../../shared';
import { leadListItem, NUMBER_SCAN_TOKEN, scanByNumber } from './leadPicker';

export async function searchLeads(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) {
	const search = filter?.trim() ?? '';
	if (search && paginationToken?.startsWith(NUMBER_SCAN_TOKEN))
		return await scanByNumber(this, search, paginationToken.slice(NUMBER_SCAN_TOKEN.length));
	const page = await readOnePage.call(this, {
		path: '/leads',
		qs: search ? { search } : undefined,
		startCursor: paginationToken,
	});
	// Nothing found for one word with a digit: it may be a lead number or ID, which the CRM's search does not match.
	if (!paginationToken && page.records.length === 0 && /^\S*\d\S*$/.test(search))
		return await scanByNumber(this, search);
	return { results: page.records.map(leadListItem), paginationToken: page.nextCursor ?? undefined };
}

function userListItem(user: IDataObject) {
	const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ');
	const name = [fullName, user.email].filter(Boolean).join(' · ') || String(user.id);
	return { name, value: String(user.id) };
}

/** Only active team members are listed; others can still be given by ID. */
export async function searchUsers(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) {
	const qs: IDataObject = { active: true };
	if (filter) qs[USER_SEARCH_QUERY_PARAMETER] = filter;
	const page = await readOnePage.call(this, {
		path: '/users',
		qs,
		startCursor: paginationToken,
	});
	return {
		// Filtered here too, in case the server ignores the search parameter (the spec does not name it).
		results: page.records
			.filter((user) => !filter || userMatchesSearch(user, filter))
			.map(userListItem),
		paginationToken: page.nextCursor ?? undefined,
	};
}

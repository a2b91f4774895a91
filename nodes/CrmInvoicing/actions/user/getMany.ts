import type { IDataObject } from 'n8n-workflow';

import { USER_SEARCH_QUERY_PARAMETER, userMatchesSearch } from '../../shared';
import { getManyOperation, textProperty } from '../common';

/** The node applies the search too: a server that ignores the parameter must not make it return everyone. */
function adjust(qs: IDataObject) {
	const { search } = qs;
	if (typeof search !== 'string') return undefined;
	delete qs.search;
	qs[USER_SEARCH_QUERY_PARAMETER] = search;
	return (user: IDataObject) => userMatchesSearch(user, search);
}

export const { description, execute } = getManyOperation({
	resource: 'user',
	adjust,
	filters: [
		{
			displayName: 'Active',
			name: 'active',
			type: 'boolean',
			default: true,
			description:
				'Whether to return only users who are active members of the team (on) or only those who are not (off). Leave this filter out to get both.',
		},
		textProperty('Search', 'search', {
			placeholder: 'jane',
			description: `Text to look for in the first name, last name or email of the users. Sent as the "${USER_SEARCH_QUERY_PARAMETER}" query parameter, and applied by the node too.`,
			hint: `The API spec does not name the user search parameter; this node sends "${USER_SEARCH_QUERY_PARAMETER}".`,
		}),
	],
});

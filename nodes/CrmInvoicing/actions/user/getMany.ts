import { updateDisplayOptions } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { isSet } from '../common/fields';
import { pageRequestOf, returnAllAndLimit } from '../common/list';
import { readList, USER_SEARCH_QUERY_PARAMETER, userMatchesSearch } from '../../shared';
import { recordItems, simplifyProperty } from '../common/output';

const properties: INodeProperties[] = [
	...returnAllAndLimit('users'),
	simplifyProperty,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Active',
				name: 'active',
				type: 'boolean',
				default: true,
				description:
					'Whether to return only users who are active members of the team (on) or only those who are not (off). Leave this filter out to get both.',
			},
			{
				displayName: 'Search',
				name: 'search',
				type: 'string',
				default: '',
				placeholder: 'jane',
				description: `Text to look for in the first name, last name or email of the users. Sent as the "${USER_SEARCH_QUERY_PARAMETER}" query parameter, and applied by the node too.`,
				hint: `The API spec does not name the user search parameter; this node sends "${USER_SEARCH_QUERY_PARAMETER}".`,
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['getMany'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const want = pageRequestOf(this, itemIndex);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	const search = isSet(filters.search) ? String(filters.search).trim() : '';
	if (search !== '') qs[USER_SEARCH_QUERY_PARAMETER] = search;
	if (typeof filters.active === 'boolean') qs.active = filters.active;
	// The node applies the search too: a server that ignores the parameter must not make it return everyone.
	const keep = search !== '' ? (user: IDataObject) => userMatchesSearch(user, search) : undefined;
	const users = await readList.call(this, { path: '/users', qs, itemIndex }, want, keep);
	return recordItems(this, itemIndex, 'user', users);
}

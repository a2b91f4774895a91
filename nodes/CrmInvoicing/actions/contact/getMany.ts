import { updateDisplayOptions } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { isSet } from '../common/fields';
import { pageRequestOf, returnAllAndLimit } from '../common/list';
import { recordItems, simplifyProperty } from '../common/output';
import { readList } from '../../shared';

const properties: INodeProperties[] = [
	...returnAllAndLimit('contacts'),
	simplifyProperty,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Search',
				name: 'search',
				type: 'string',
				default: '',
				placeholder: 'jane',
				description:
					'Text to look for in the contacts (sent to the v2 API as the "search" query parameter)',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['getMany'] } },
	properties,
);

/** GET /api/v2/contacts: `pageSize` and `cursor` in, `data` and `meta.nextCursor` out. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const want = pageRequestOf(this, itemIndex);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (isSet(filters.search)) qs.search = String(filters.search).trim();
	const contacts = await readList.call(
		this,
		{ path: '/contacts', version: 'v2', qs, itemIndex },
		want,
	);
	return recordItems(this, itemIndex, 'contact', contacts);
}

import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { filterQuery, getManyProperties, listRecords } from '../common/list';

const filters: INodeProperties[] = [
	{
		displayName: 'Search',
		name: 'search',
		type: 'string',
		default: '',
		placeholder: 'jane',
		description:
			'Text to look for in the contacts (sent to the v2 API as the "search" query parameter)',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['getMany'] } },
	getManyProperties('contacts', filters),
);

/** GET /api/v2/contacts: `pageSize` and `cursor` in, `data` and `meta.nextCursor` out. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const qs = filterQuery(this, itemIndex, filters);
	return await listRecords(this, itemIndex, 'contact', { path: '/contacts', version: 'v2', qs });
}

import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { filterQuery, getManyProperties, listRecords } from '../common/list';
import { textProperty } from '../common/options';
import { shownFor } from '../operation';

const filters: INodeProperties[] = [
	textProperty('Search', 'search', {
		placeholder: 'jane',
		description:
			'Text to look for in the contacts (sent to the v2 API as the "search" query parameter)',
	}),
];

export const description = shownFor('contact', 'getMany', getManyProperties('contacts', filters));

/** GET /api/v2/contacts: `pageSize` and `cursor` in, `data` and `meta.nextCursor` out. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const qs = filterQuery(this, itemIndex, filters);
	return await listRecords(this, itemIndex, 'contact', { path: '/contacts', version: 'v2', qs });
}

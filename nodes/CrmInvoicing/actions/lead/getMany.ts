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
	...returnAllAndLimit('leads'),
	simplifyProperty,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Archived',
				name: 'archived',
				type: 'boolean',
				default: false,
				description:
					'Whether to return only archived leads (on) or only leads that are not archived (off). Leave this filter out to get both.',
			},
			{
				displayName: 'Search',
				name: 'search',
				type: 'string',
				default: '',
				placeholder: 'jane',
				description: 'Text to look for in the name, email, mobile or website of the leads',
			},
			{
				displayName: 'Stage ID',
				name: 'stageId',
				type: 'string',
				default: '',
				placeholder: 'e.g. lst_new',
				description: 'Public ID of a lead stage: only leads in that stage are returned',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['getMany'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const want = pageRequestOf(this, itemIndex);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (isSet(filters.search)) qs.search = String(filters.search).trim();
	if (typeof filters.archived === 'boolean') qs.archived = filters.archived;
	if (isSet(filters.stageId)) qs.stageId = String(filters.stageId).trim();
	const leads = await readList.call(this, { path: '/leads', qs, itemIndex }, want);
	return recordItems(this, itemIndex, 'lead', leads);
}

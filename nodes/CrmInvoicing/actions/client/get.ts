import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { requireText } from '../common/fields';
import { recordItems, simplifyProperty } from '../common/output';
import { apiRequest } from '../../shared';

const properties: INodeProperties[] = [
	{
		displayName: 'Client ID',
		name: 'clientId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. cli_4c1a9e',
		description: 'Public ID of the client (a company or a contact)',
	},
	simplifyProperty,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['client'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const clientId = requireText(
		this,
		this.getNodeParameter('clientId', itemIndex),
		'Client ID',
		itemIndex,
	);
	const client = await apiRequest.call(this, {
		method: 'GET',
		path: `/clients/${encodeURIComponent(clientId)}`,
		itemIndex,
		expect: 'record',
	});
	return recordItems(this, itemIndex, 'client', [client]);
}

import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { requiredParameter } from '../common/fields';
import { recordItems, simplifyProperty } from '../common/output';
import { recordPath, recordRequest } from '../common/record';

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
	const id = requiredParameter(this, 'clientId', 'Client ID', itemIndex);
	const client = await recordRequest(this, 'GET', recordPath('/clients', id), itemIndex);
	return recordItems(this, itemIndex, 'client', [client]);
}

import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { recordItems, simplifyProperty } from '../common/output';
import { apiRequest } from '../../shared';
import { leadIdOf, leadIdProperty, leadPath } from './leadId';

const properties: INodeProperties[] = [leadIdProperty, simplifyProperty];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const leadId = leadIdOf(this, itemIndex);
	const lead = await apiRequest.call(this, {
		method: 'GET',
		path: leadPath(leadId),
		itemIndex,
		expect: 'record',
	});
	return recordItems(this, itemIndex, 'lead', [lead]);
}

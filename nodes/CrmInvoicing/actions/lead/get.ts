import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { recordItems, simplifyProperty } from '../common/output';
import { recordRequest } from '../common/record';
import { leadIdOf, leadIdProperty, leadPath } from './leadId';

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['get'] } },
	[leadIdProperty, simplifyProperty],
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const lead = await recordRequest(this, 'GET', leadPath(leadIdOf(this, itemIndex)), itemIndex);
	return recordItems(this, itemIndex, 'lead', [lead]);
}

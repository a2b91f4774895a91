import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { leadIdOf, leadIdProperty } from './leadId';
import { patchLead } from './patch';

const properties: INodeProperties[] = [leadIdProperty];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['archive'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const leadId = leadIdOf(this, itemIndex);
	const lead = await patchLead(this, leadId, { archived: true }, itemIndex);
	return [{ json: lead }];
}

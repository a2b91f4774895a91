import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { dealIdOf, dealIdProperty } from './dealId';
import { patchDeal } from './patch';

const properties: INodeProperties[] = [dealIdProperty];

export const description = updateDisplayOptions(
	{ show: { resource: ['deal'], operation: ['markWon'] } },
	properties,
);

/** Same request as Update with Status WON. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const dealId = dealIdOf(this, itemIndex);
	const deal = await patchDeal(this, dealId, { status: 'WON' }, itemIndex);
	return [{ json: deal }];
}

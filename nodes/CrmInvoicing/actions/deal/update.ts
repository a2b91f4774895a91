import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { parametersByVersion, updateRecord } from '../common/mapped';
import { updateFieldsProperty } from '../common/options';
import { dealIdOf, dealIdProperty, dealPath } from './dealId';
import { DEAL_MAPPER_FIELDS, dealBodyFromFields, dealUpdateFieldOptions } from './fields';
import { patchDeal } from './patch';

export const description = parametersByVersion(
	'deal',
	'update',
	[dealIdProperty],
	[updateFieldsProperty(dealUpdateFieldOptions)],
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const dealId = dealIdOf(this, itemIndex);
	// In version 3 the node reads the deal at GET /deals/{id}, which the spec does not show (choice deal-read).
	return await updateRecord(
		this,
		DEAL_MAPPER_FIELDS,
		dealPath(dealId),
		itemIndex,
		async (body) => await patchDeal(this, dealId, body, itemIndex),
		(updateFields) => dealBodyFromFields(this, updateFields, itemIndex),
	);
}

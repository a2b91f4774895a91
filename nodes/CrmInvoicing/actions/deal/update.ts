import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { parametersByVersion } from '../common/mapped';
import { updateFieldsProperty } from '../common/options';
import { DEAL_MAPPER_FIELDS, dealBodyFromFields, dealUpdateFieldOptions } from './fields';
import { recordRequest, updateRecord } from '../common/record';
import { dealIdProperty, dealOf } from './patch';

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
	const { path } = dealOf(this, itemIndex);
	// In version 3 the node reads the deal at GET /deals/{id}, which the spec does not show (choice deal-read).
	return await updateRecord(
		this,
		DEAL_MAPPER_FIELDS,
		path,
		itemIndex,
		async (body) => await recordRequest(this, 'PATCH', path, itemIndex, body),
		dealBodyFromFields,
	);
}

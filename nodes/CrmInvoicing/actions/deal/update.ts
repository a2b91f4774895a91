import type { IExecuteFunctions } from 'n8n-workflow';

import { parametersByVersion } from '../common/mapped';
import { updateFieldsProperty } from '../common/options';
import { DEAL_MAPPER_FIELDS, dealBodyFromFields, dealUpdateFieldOptions } from './fields';
import { recordRequest, updateRecord } from '../common/record';
import { dealIdProperty, dealPathOf } from './patch';

export const description = parametersByVersion(
	'deal',
	'update',
	[dealIdProperty],
	[updateFieldsProperty(dealUpdateFieldOptions)],
);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const item = { context: this, index: itemIndex };
	const path = dealPathOf(item);
	// In version 3 the node reads the deal at GET /deals/{id}, which the spec does not show (choice deal-read).
	return await updateRecord(
		item,
		DEAL_MAPPER_FIELDS,
		path,
		async (body) => await recordRequest(item, 'PATCH', path, body),
		dealBodyFromFields,
	);
}

import type { IExecuteFunctions } from 'n8n-workflow';

import { parametersByVersion } from '../common/mapped';
import { updateFieldsProperty } from '../common/options';
import { LEAD_MAPPER_FIELDS, leadBodyFromFields, leadUpdateFieldOptions } from './fields';
import { recordPath, updateRecord } from '../common/record';
import { leadIdOf, leadIdProperty, patchLead } from './patch';

export const description = parametersByVersion(
	'lead',
	'update',
	[leadIdProperty],
	[updateFieldsProperty(leadUpdateFieldOptions)],
);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const item = { context: this, index: itemIndex };
	const leadId = leadIdOf(item);
	return await updateRecord(
		item,
		LEAD_MAPPER_FIELDS,
		recordPath('/leads', leadId),
		async (body) => await patchLead(item, leadId, body),
		leadBodyFromFields,
	);
}

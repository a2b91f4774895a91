import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

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

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const leadId = leadIdOf(this, itemIndex);
	return await updateRecord(
		this,
		LEAD_MAPPER_FIELDS,
		recordPath('/leads', leadId),
		itemIndex,
		async (body) => await patchLead(this, leadId, body, itemIndex),
		leadBodyFromFields,
	);
}

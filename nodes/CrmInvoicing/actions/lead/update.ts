import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { requireText } from '../common/fields';
import { parametersByVersion, updateRecord } from '../common/mapped';
import { updateFieldsProperty } from '../common/options';
import { LEAD_MAPPER_FIELDS, leadBodyFromFields, leadUpdateFieldOptions } from './fields';
import { recordPath } from '../common/record';
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
		({ name, ...others }) => {
			const body = leadBodyFromFields(this, others, itemIndex);
			if (name !== undefined) body.name = requireText(this, name, 'Name', itemIndex);
			return body;
		},
	);
}

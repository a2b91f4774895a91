import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { requireFieldsToChange, requireText } from '../common/fields';
import { MAPPER_VERSION, parametersByVersion, updateMapped } from '../common/mapped';
import { LEAD_MAPPER_FIELDS, leadBodyFromFields, leadUpdateFieldOptions } from './fields';
import { leadIdOf, leadIdProperty, leadPath } from './leadId';
import { patchLead } from './patch';

const properties: INodeProperties[] = [
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description:
			'The fields to change. Only the fields added here are sent; the others keep their values.',
		options: leadUpdateFieldOptions,
	},
];

export const description = parametersByVersion('lead', 'update', [leadIdProperty], properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const leadId = leadIdOf(this, itemIndex);
	if (this.getNode().typeVersion >= MAPPER_VERSION)
		return await updateMapped(
			this,
			LEAD_MAPPER_FIELDS,
			leadPath(leadId),
			async (body) => await patchLead(this, leadId, body, itemIndex),
			itemIndex,
		);
	const updateFields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const { name, ...others } = updateFields;
	const body = leadBodyFromFields(this, others, itemIndex);
	if (name !== undefined) body.name = requireText(this, name, 'Name', itemIndex);
	requireFieldsToChange(this, body, itemIndex);
	const lead = await patchLead(this, leadId, body, itemIndex);
	return [{ json: lead }];
}

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { requiredParameter } from '../common/fields';
import { createRecord, parametersByVersion } from '../common/mapped';
import { additionalFieldsProperty, textProperty } from '../common/options';
import { LEAD_MAPPER_FIELDS, leadBodyFromFields, leadFieldOptions } from './fields';

const properties: INodeProperties[] = [
	textProperty('Name', 'name', {
		required: true,
		placeholder: 'Jane Doe',
		description: 'Full name of the lead',
	}),
	additionalFieldsProperty(leadFieldOptions),
];

export const description = parametersByVersion('lead', 'create', [], properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await createRecord(this, '/leads', LEAD_MAPPER_FIELDS, itemIndex, () => {
		const name = requiredParameter(this, 'name', 'Name', itemIndex);
		const additionalFields = this.getNodeParameter('additionalFields', itemIndex, {});
		return { ...leadBodyFromFields(this, additionalFields as IDataObject, itemIndex), name };
	});
}

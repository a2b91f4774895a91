import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { requireFieldsToChange } from '../common/fields';
import {
	MAPPER_VERSION,
	mappedBody,
	parametersByVersion,
	prepareUpdate,
	UPDATE_MARKER_FIELD,
} from '../common/mapped';
import { apiRequest } from '../../shared';
import { dealIdOf, dealIdProperty, dealPath } from './dealId';
import { DEAL_MAPPER_FIELDS, dealBodyFromFields, dealUpdateFieldOptions } from './fields';
import { patchDeal } from './patch';

const properties: INodeProperties[] = [
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description:
			'The fields to change. Only the fields added here are sent; the others keep their values.',
		options: dealUpdateFieldOptions,
	},
];

export const description = parametersByVersion('deal', 'update', [dealIdProperty], properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const dealId = dealIdOf(this, itemIndex);
	if (this.getNode().typeVersion >= MAPPER_VERSION) {
		const { body, changed } = mappedBody(this, DEAL_MAPPER_FIELDS, itemIndex);
		// The spec shows no GET /deals/{id}; the node reads the deal there (choice deal-read in apiChoices.ts).
		await prepareUpdate(
			this,
			body,
			itemIndex,
			async () =>
				await apiRequest.call(this, {
					method: 'GET',
					path: dealPath(dealId),
					itemIndex,
					expect: 'record',
				}),
		);
		const deal = await patchDeal(this, dealId, body, itemIndex);
		return [{ json: { ...deal, [UPDATE_MARKER_FIELD]: { changed } } }];
	}
	const updateFields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const body = dealBodyFromFields(this, updateFields, itemIndex);
	requireFieldsToChange(this, body, itemIndex);
	const deal = await patchDeal(this, dealId, body, itemIndex);
	return [{ json: deal }];
}

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../shared';
import { dealPath } from './dealId';

/** PATCH /deals/{id}; the API answers with the deal. */
export async function patchDeal(
	context: IExecuteFunctions,
	dealId: string,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	return await apiRequest.call(context, {
		method: 'PATCH',
		path: dealPath(dealId),
		body,
		itemIndex,
		expect: 'record',
	});
}

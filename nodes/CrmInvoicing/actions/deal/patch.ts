import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { recordRequest } from '../common/record';
import { shownFor, type Operation } from '../operation';
import { dealIdOf, dealIdProperty, dealPath } from './dealId';

/** PATCH /deals/{id}; the API answers with the deal. */
export async function patchDeal(
	context: IExecuteFunctions,
	dealId: string,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	return await recordRequest(context, 'PATCH', dealPath(dealId), itemIndex, body);
}

/** An operation that is Update with a fixed body, such as Mark as Won (Update with Status WON). */
export function patchOperation(operation: string, body: IDataObject): Operation {
	return {
		description: shownFor('deal', operation, [dealIdProperty]),
		async execute(this: IExecuteFunctions, itemIndex: number) {
			return [{ json: await patchDeal(this, dealIdOf(this, itemIndex), body, itemIndex) }];
		},
	};
}

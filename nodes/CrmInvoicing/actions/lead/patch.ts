import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, LEAD_UPDATE_READS_BACK_WHEN_RESPONSE_IS_NOT_A_LEAD } from '../../transport';
import { leadPath } from './leadId';

function isLead(value: IDataObject): boolean {
	return typeof value.id === 'string' && value.id !== '';
}

/**
 * PATCH /leads/{id} and the lead after it. The spec does not show this response: when it is a lead (has an `id`)
 * it is returned as it is, else the lead is read back with GET /leads/{id}.
 */
export async function patchLead(
	context: IExecuteFunctions,
	leadId: string,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	const path = leadPath(leadId);
	const response = await apiRequest.call(context, { method: 'PATCH', path, body, itemIndex });
	if (isLead(response) || !LEAD_UPDATE_READS_BACK_WHEN_RESPONSE_IS_NOT_A_LEAD) return response;
	return await apiRequest.call(context, { method: 'GET', path, itemIndex });
}

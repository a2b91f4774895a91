import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { webhookIdOf, webhookIdProperty, webhookPath } from './shared';

const properties: INodeProperties[] = [webhookIdProperty];

export const description = updateDisplayOptions({ show: { resource: ['webhook'], operation: ['delete'] } }, properties);

/** The response body of DELETE /webhooks/{id} is not shown; the output says what was deleted. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const webhookId = webhookIdOf(this, itemIndex);
	await apiRequest.call(this, { method: 'DELETE', path: webhookPath(webhookId), itemIndex });
	return [{ json: { deleted: true, id: webhookId } }];
}

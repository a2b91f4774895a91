import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../shared';
import { webhookIdOf, webhookIdProperty, webhookPath, withoutSecret } from './shared';

const properties: INodeProperties[] = [webhookIdProperty];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const webhookId = webhookIdOf(this, itemIndex);
	const subscription = await apiRequest.call(this, {
		method: 'GET',
		path: webhookPath(webhookId),
		itemIndex,
		expect: 'record',
	});
	return [{ json: withoutSecret(subscription) }];
}

import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { recordRequest } from '../common/record';
import { shownFor } from '../operation';
import { webhookIdProperty, webhookOf, withoutSecret } from './shared';

export const description = shownFor('webhook', 'get', [webhookIdProperty]);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { path } = webhookOf(this, itemIndex);
	return [{ json: withoutSecret(await recordRequest(this, 'GET', path, itemIndex)) }];
}

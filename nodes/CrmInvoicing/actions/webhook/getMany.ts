import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { pageRequestOf, returnAllAndLimit, toItems } from '../../helpers/list';
import { paginateV1 } from '../../transport';
import { withoutSecret } from './shared';

const properties: INodeProperties[] = [...returnAllAndLimit('webhook subscriptions')];

export const description = updateDisplayOptions({ show: { resource: ['webhook'], operation: ['getMany'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const want = pageRequestOf(this, itemIndex);
	const subscriptions = await paginateV1.call(this, { path: '/webhooks', itemIndex }, want);
	return toItems(subscriptions.map(withoutSecret));
}

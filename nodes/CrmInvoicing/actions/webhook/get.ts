import { recordRequest, type Item } from '../common';
import { webhookIdProperty, webhookOf, withoutSecret } from './shared';

export const description = [webhookIdProperty];

export async function execute(item: Item) {
	return [{ json: withoutSecret(await recordRequest(item, 'GET', webhookOf(item).path)) }];
}

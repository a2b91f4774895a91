import type { Item } from '../common/fields';
import { recordRequest } from '../common/record';
import { shownFor } from '../operation';
import { webhookIdProperty, webhookOf, withoutSecret } from './shared';

export const description = shownFor('webhook', 'get', [webhookIdProperty]);

export async function execute(item: Item) {
	return [{ json: withoutSecret(await recordRequest(item, 'GET', webhookOf(item).path)) }];
}

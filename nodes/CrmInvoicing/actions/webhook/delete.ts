import type { Item } from '../common';
import { apiRequestFull } from '../../shared';
import { webhookIdProperty, webhookOf } from './shared';

export const description = [webhookIdProperty];

/** A 404 on a retried attempt means the first one deleted it (choice webhook-delete-answer). */
export async function execute(item: Item) {
	const { id, path } = webhookOf(item);
	await apiRequestFull.call(item.context, { method: 'DELETE', path, itemIndex: item.index });
	return [{ json: { deleted: true, id } }];
}

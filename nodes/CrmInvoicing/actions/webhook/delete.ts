import type { IExecuteFunctions } from 'n8n-workflow';

import type { Item } from '../common/fields';
import { apiRequestFull } from '../../shared';
import { shownFor } from '../operation';
import { webhookIdProperty, webhookOf } from './shared';

export const description = shownFor('webhook', 'delete', [webhookIdProperty]);

/**
 * The response body of DELETE /webhooks/{id} is not shown; the output says what was deleted. DELETE is idempotent:
 * when a retried attempt (the first one's answer was lost to a 502/503/504 or a dropped connection) answers 404, the
 * first attempt deleted it, so that counts as deleted. A 404 on the first attempt is an error (wrong ID).
 * (Choice webhook-delete-answer in apiChoices.ts.)
 */
export async function execute(this: IExecuteFunctions, item: Item) {
	const { id, path } = webhookOf(item);
	await apiRequestFull.call(this, { method: 'DELETE', path, itemIndex: item.index });
	return [{ json: { deleted: true, id } }];
}

import type { IDataObject } from 'n8n-workflow';

import { SECRET_KEY_PATTERN } from '../../shared';
import { idOf, recordPath, textProperty, type Item } from '../common';

export const webhookIdProperty = textProperty('Webhook Subscription ID', 'webhookId', {
	required: true,
	placeholder: 'e.g. whk_2b7f9c',
	description: 'ID of the webhook subscription, as returned by Create or Get Many',
});

export function webhookOf(item: Item) {
	const id = idOf(item, webhookIdProperty);
	return { id, path: recordPath('/webhooks', id) };
}

/** The secret is returned once, by Create (choice webhook-secret-stripping). */
export const withoutSecret = (subscription: IDataObject) =>
	Object.fromEntries(Object.entries(subscription).filter(isNotSecret));

const isNotSecret = ([key]: [string, unknown]) => !SECRET_KEY_PATTERN.test(key);

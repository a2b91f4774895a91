import type { IDataObject } from 'n8n-workflow';

import { SECRET_KEY_PATTERN } from '../../shared';
import { requiredParameter, type Item } from '../common/fields';
import { textProperty } from '../common/options';
import { recordPath } from '../common/record';

/** The subscription to act on, by ID (the ID that Create returned). */
export const webhookIdProperty = textProperty('Webhook Subscription ID', 'webhookId', {
	required: true,
	placeholder: 'e.g. whk_2b7f9c',
	description: 'ID of the webhook subscription, as returned by Create or Get Many',
});

export function webhookOf(item: Item) {
	const id = requiredParameter(item, 'webhookId', 'Webhook Subscription ID');
	return { id, path: recordPath('/webhooks', id) };
}

/**
 * A subscription without its signing secret. The secret is returned once, by Create; Get and Get Many never show it,
 * whatever the API sends (any key whose name contains "secret" is dropped: choice webhook-secret-stripping in
 * apiChoices.ts, since the spec shows no shape for GET /webhooks and GET /webhooks/{id}).
 */
export const withoutSecret = (subscription: IDataObject): IDataObject =>
	Object.fromEntries(Object.entries(subscription).filter(isNotSecret));

const isNotSecret = ([key]: [string, unknown]) => !SECRET_KEY_PATTERN.test(key);

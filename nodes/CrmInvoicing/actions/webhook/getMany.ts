import { pageRequestOf, returnAllAndLimit, type Item } from '../common';
import { listWebhookSubscriptions } from '../../shared';
import { withoutSecret } from './shared';

export const description = returnAllAndLimit('webhook subscriptions');

export async function execute(item: Item) {
	// Every list shape the node knows (v1 page, bare array, v2 envelope), fully; an unknown shape is an error.
	const subscriptions = await listWebhookSubscriptions(item.context, {
		want: pageRequestOf(item),
		itemIndex: item.index,
	});
	return subscriptions.map((subscription) => ({ json: withoutSecret(subscription) }));
}

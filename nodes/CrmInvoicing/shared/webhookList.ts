import { readList, type ApiContext, type ListSpec, type PageRequest } from './transport';

// The spec shows no shape for GET /webhooks (§4): read as v1, v2 or a bare array (pagination's `any`).

export const WEBHOOK_LIST_MAX_PAGES = 50;

/** `deadline` bounds the whole list, every page included. */
export function listWebhookSubscriptions(
	context: ApiContext,
	{ want, ...spec }: Pick<ListSpec, 'itemIndex' | 'deadline'> & { want?: PageRequest } = {},
) {
	return readList.call(
		context,
		{
			...spec,
			path: '/webhooks',
			shape: 'any',
			maxPages: WEBHOOK_LIST_MAX_PAGES,
			narrow:
				'Delete webhook subscriptions that are no longer used in the CRM, or set "Limit" instead of "Return All".',
		},
		want,
	);
}

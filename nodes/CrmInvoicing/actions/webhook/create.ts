import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { EVENT_OPTIONS, eventNamesOf } from '../../shared';
import { fail, recordRequest, requiredParameter, textProperty, type Item } from '../common';

export const description: INodeProperties[] = [
	{
		displayName:
			'The signing secret (whsec_…) is in the output of this operation only. Store it now: Get and Get Many never show it.',
		name: 'secretNotice',
		type: 'notice',
		default: '',
	},
	textProperty('Name', 'name', {
		required: true,
		placeholder: 'Order sync',
		description: 'Name of the subscription, to recognise it later',
	}),
	textProperty('URL', 'url', {
		required: true,
		placeholder: 'https://example.com/webhooks/crm',
		description:
			'Endpoint the events are delivered to with HTTP POST. Use HTTPS: the API warns about HTTP endpoints.',
	}),
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		options: EVENT_OPTIONS,
		default: [],
		description: 'Events to subscribe to. Add names not in this list under Custom Event Names.',
	},
	textProperty('Custom Event Names', 'customEvents', {
		placeholder: 'invoice.overdue, client.created',
		description:
			"More event names, comma-separated, sent as they are. The API spec names only lead.created; other names in the Events list are this node's assumptions.",
	}),
];

export async function execute(this: IExecuteFunctions, item: Item) {
	const name = requiredParameter(item, 'name', 'Name');
	const url = requiredParameter(item, 'url', 'URL');
	if (!/^https?:\/\/[^\s/]+/i.test(url))
		fail(
			item,
			`"URL" must be an http:// or https:// address but is "${url}"`,
			'Enter the full address of the endpoint, such as https://example.com/webhooks/crm.',
		);
	const events = eventNamesOf(
		this.getNodeParameter('events', item.index, []),
		this.getNodeParameter('customEvents', item.index, ''),
	);
	if (events.length === 0)
		fail(
			item,
			'"Events" needs at least one event',
			'Pick events from the Events list, or enter event names under Custom Event Names.',
		);
	return [{ json: await recordRequest(item, 'POST', '/webhooks', { name, url, events }) }];
}

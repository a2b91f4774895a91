import type { IDataObject } from 'n8n-workflow';

import { run, useNock } from './support';
import { answer, bodies, calls } from '../../helpers/actions';

useNock();

const subscription = (id: string, extra: IDataObject = {}): IDataObject => ({
	id,
	name: 'Order sync',
	url: 'https://example.com/hook',
	events: ['lead.created'],
	status: 'ACTIVE',
	createdAt: '2026-01-01T00:00:00.000Z',
	...extra,
});

describe('webhook subscription', () => {
	it('Create POSTs name, url and the picked plus custom events (no duplicates), and shows the secret once', async () => {
		const created = subscription('whk_1', {
			events: ['lead.created', 'deal.updated', 'invoice.overdue'],
			secret: 'whsec_abc',
		});
		const seen = answer('post', '/api/v1/webhooks', created);

		const output = await run({
			resource: 'webhook',
			operation: 'create',
			name: 'Order sync',
			url: 'https://example.com/hook',
			events: ['lead.created', 'deal.updated'],
			customEvents: ' invoice.overdue, lead.created ,',
		});

		expect(bodies(seen)).toEqual([
			{
				name: 'Order sync',
				url: 'https://example.com/hook',
				events: ['lead.created', 'deal.updated', 'invoice.overdue'],
			},
		]);
		expect(output).toEqual([{ json: created, pairedItem: { item: 0 } }]);
	});

	it('Get never shows a secret, even when the API returns one', async () => {
		const leaked = { secret: 'whsec_leak', previousSecret: 'whsec_old' };
		answer('get', '/api/v1/webhooks/whk_1', subscription('whk_1', leaked));

		const output = await run({ resource: 'webhook', operation: 'get', webhookId: 'whk_1' });

		expect(output).toEqual([{ json: subscription('whk_1'), pairedItem: { item: 0 } }]);
	});

	it('Delete DELETEs /webhooks/{id} and outputs { deleted: true, id } for every item', async () => {
		const seen = answer('delete', /\/api\/v1\/webhooks\/whk_\d$/, undefined, {
			status: 204,
			times: 2,
		});

		const output = await run(
			{ resource: 'webhook', operation: 'delete', webhookId: '={{ $json.id }}' },
			{ items: [{ json: { id: 'whk_1' } }, { json: { id: 'whk_2' } }] },
		);

		expect(calls(seen)).toEqual(['DELETE /api/v1/webhooks/whk_1', 'DELETE /api/v1/webhooks/whk_2']);
		expect(output).toEqual([
			{ json: { deleted: true, id: 'whk_1' }, pairedItem: { item: 0 } },
			{ json: { deleted: true, id: 'whk_2' }, pairedItem: { item: 1 } },
		]);
	});
});

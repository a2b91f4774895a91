/** The stored state (store.ts): 0.4's fields, and data of 0.1 (clear secret, no tag), 0.2 (clear secret) and 0.3
 * (wrapped, `webhook…` names) read, and written in the current form at the first change, by a hook or a delivery. */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import {
	fingerprint,
	readState,
	retireSubscription,
	saveState,
} from '../../../nodes/CrmInvoicing/trigger/store';
import { useNock } from '../../helpers/nock';
import {
	API,
	deliver,
	earlierSubscription,
	plain,
	PRODUCTION_URL,
	SECRET,
	secretParts,
	storedSubscription,
	tagFor,
	triggerHooks,
	unwrapped,
} from '../../helpers/trigger';

useNock();

const EVENTS = ['deal.stage_changed', 'lead.created'];
/** No key of earlier versions (webhookId, webhookSecret, …, all `webhook…`), and no secret in clear. */
function expectCurrentForm(staticData: IDataObject) {
	expect(Object.keys(staticData).filter((key) => key.startsWith('webhook'))).toEqual([]);
	const text = JSON.stringify(plain(staticData));
	for (const part of secretParts(SECRET)) expect(text).not.toContain(part);
}

describe('reading', () => {
	it("reads 0.3's retired subscriptions and 0.4's, at most MAX_RETIRED, skipping what is not one; ignores values of the wrong type", () => {
		const earlier = readState({
			webhookRetired: [
				{ webhookId: 'whk_0', webhookUrl: 'https://old.example.com/h', webhookSecretWrapped: 'w' },
				'junk',
				{ webhookId: 'no-url' },
			],
		});
		expect(earlier.retired).toEqual([
			{ id: 'whk_0', url: 'https://old.example.com/h', secretWrapped: 'w' },
		]);
		const many = readState({
			retiredSubscriptions: Array.from({ length: 6 }, (_unused, index) => ({
				id: `whk_${index}`,
				url: 'https://x/h',
			})),
		});
		expect(many.retired.map((entry) => entry.id)).toEqual(['whk_3', 'whk_4', 'whk_5']);
		expect(
			readState({ subscriptionId: 42, recentDeliveries: 'x', retiredSubscriptions: {} }),
		).toEqual({ subscription: undefined, retired: [], recentDeliveries: [] });
	});
});

describe('writing', () => {
	it('a new subscription replaces the old one and its delivery memory, and keeps the retired ones', () => {
		const staticData: IDataObject = {
			...storedSubscription(),
			recentDeliveries: ['a'],
			retiredSubscriptions: [{ id: 'whk_0', url: 'https://x/h' }],
		};
		// As subscribe stores a new subscription: its delivery memory starts empty.
		const subscription = {
			id: 'whk_2',
			url: PRODUCTION_URL,
			events: EVENTS,
			secretWrapped: 'wrapped',
			ownerTag: 'tag',
		};
		saveState(staticData, { subscription, recentDeliveries: [] });
		expect(staticData).toEqual({
			subscriptionId: 'whk_2',
			subscriptionUrl: PRODUCTION_URL,
			subscriptionEvents: EVENTS,
			secretWrapped: 'wrapped',
			ownerTag: 'tag',
			retiredSubscriptions: [{ id: 'whk_0', url: 'https://x/h' }],
		});
		saveState(staticData, { subscription: undefined });
		expect(staticData).toEqual({ retiredSubscriptions: [{ id: 'whk_0', url: 'https://x/h' }] });
	});

	// The last RECENT_DELIVERIES_LIMIT deliveries: recentDeliveries.test ("remembers the last …", through acceptOnce).
	it('remembers a retired subscription once', () => {
		const staticData = storedSubscription();
		const entry = { id: 'whk_0', url: 'https://x/h', secretWrapped: 'w' };
		retireSubscription(staticData, { id: 'whk_0', url: 'https://x/h' });
		retireSubscription(staticData, entry);
		expect(readState(staticData).retired).toEqual([entry]);
	});
});

describe('data of earlier versions is brought to the current form', () => {
	it.each(['0.1', '0.2', '0.3'] as const)('by activation (checkExists): %s', async (version) => {
		nock(API)
			.get('/api/v1/webhooks/whk_1')
			.reply(200, { id: 'whk_1', url: PRODUCTION_URL, events: EVENTS, name: 'n8n: Leads' });
		const data = earlierSubscription(version, {
			...(version === '0.3'
				? { webhookRetired: [{ webhookId: 'whk_0', webhookUrl: 'https://old.example.com/h' }] }
				: {}),
			recentDeliveries: [fingerprint('msg_before')],
		});
		const wrapped = data.webhookSecretWrapped;
		const trigger = triggerHooks({ staticData: data });
		// 0.1/0.2: adopted (0.1 by its URL), the clear secret dropped; false, so n8n runs create, which subscribes anew
		// and then deletes whk_1 (lifecycle tests).
		await expect(trigger.checkExists()).resolves.toBe(version === '0.3');
		expectCurrentForm(trigger.staticData);
		expect(plain(trigger.staticData)).toEqual({
			subscriptionId: 'whk_1',
			subscriptionUrl: PRODUCTION_URL,
			subscriptionEvents: EVENTS,
			// 0.3's secret, wrapped by another process, is read and kept as it is.
			...(version === '0.3' ? { secretWrapped: wrapped } : {}),
			ownerTag: tagFor(),
			recentDeliveries: [fingerprint('msg_before')],
			...(version === '0.3'
				? { retiredSubscriptions: [{ id: 'whk_0', url: 'https://old.example.com/h' }] }
				: {}),
		});
		if (version === '0.3') expect(unwrapped(trigger.staticData)).toBe(SECRET);
	});

	it('by a delivery (n8n 2.41 runs no hook at start-up): 0.3', async () => {
		const delivered = await deliver({ staticData: earlierSubscription('0.3') });
		expect(delivered.ran).toBe(true);
		expectCurrentForm(delivered.staticData);
		expect(unwrapped(delivered.staticData)).toBe(SECRET);
		expect(delivered.staticData.ownerTag).toBe(tagFor());
		expect(readState(delivered.staticData).recentDeliveries).toHaveLength(1);
	});
});

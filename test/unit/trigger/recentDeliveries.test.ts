import type { IDataObject } from 'n8n-workflow';

import {
	acceptOnce,
	fingerprint,
	RECENT_DELIVERIES_LIMIT,
} from '../../../nodes/CrmInvoicing/trigger/store';

/** Deliveries are remembered for the stored subscription: the state holds one. */
const withSubscription = (): IDataObject => ({ subscriptionId: 'whk_1' });

let keyCounter = 0;
const freshKey = () => `wf:node:whk_${++keyCounter}`;

it('acceptOnce accepts an id once per subscription, and keeps fixed-size fingerprints, not the ids', () => {
	const staticData = withSubscription();
	const key = freshKey();
	expect(acceptOnce(staticData, key, 'msg_1')).toBe(true);
	expect(acceptOnce(staticData, key, 'msg_1')).toBe(false);
	expect(acceptOnce(staticData, key, 'msg_2')).toBe(true);
	expect(staticData.recentDeliveries).toEqual([fingerprint('msg_1'), fingerprint('msg_2')]);
	acceptOnce(staticData, key, 'x'.repeat(5000));
	expect((staticData.recentDeliveries as string[])[2]).toMatch(/^[A-Za-z0-9_-]{22}$/);
	// Another subscription (another memory key, its own data) has not seen msg_1.
	expect(acceptOnce(withSubscription(), freshKey(), 'msg_1')).toBe(true);
});

it('remembers the last RECENT_DELIVERIES_LIMIT ids, in the static data and in memory', () => {
	const staticData = withSubscription();
	const key = freshKey();
	for (let index = 0; index <= RECENT_DELIVERIES_LIMIT; index++)
		expect(acceptOnce(staticData, key, `msg_${index}`)).toBe(true);
	expect(staticData.recentDeliveries).toHaveLength(RECENT_DELIVERIES_LIMIT);
	// The oldest one fell out of both layers; the newest 1,000 are still known.
	expect(acceptOnce(staticData, key, 'msg_0')).toBe(true);
	expect(acceptOnce(staticData, key, `msg_${RECENT_DELIVERIES_LIMIT}`)).toBe(false);
	expect(acceptOnce(staticData, key, 'msg_2')).toBe(false);
});

it('static data alone catches a retry after a restart, module memory alone one whose first was not saved yet', () => {
	const staticData = withSubscription();
	acceptOnce(staticData, freshKey(), 'msg_1');
	// Another memory key: nothing in this process's memory knows msg_1.
	const restarted = JSON.parse(JSON.stringify(staticData)) as IDataObject;
	expect(acceptOnce(restarted, freshKey(), 'msg_1')).toBe(false);
	const key = freshKey();
	expect(acceptOnce(withSubscription(), key, 'msg_1')).toBe(true);
	// n8n loaded the static data for the retry before the first delivery's save: it does not know msg_1.
	expect(acceptOnce(withSubscription(), key, 'msg_1')).toBe(false);
});

it('only asks when told so: an id asked about is not recorded', () => {
	const [staticData, key] = [withSubscription(), freshKey()];
	expect(acceptOnce(staticData, key, 'msg_1', true)).toBe(true);
	expect(acceptOnce(staticData, key, 'msg_1')).toBe(true);
	expect(acceptOnce(staticData, key, 'msg_1', true)).toBe(false);
});

it('ignores static data that is not a list of strings', () => {
	const staticData: IDataObject = { ...withSubscription(), recentDeliveries: 'garbage' };
	expect(acceptOnce(staticData, freshKey(), 'msg_1')).toBe(true);
	expect(staticData.recentDeliveries).toEqual([fingerprint('msg_1')]);
});

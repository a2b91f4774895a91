/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Issue 40, point 1, in real n8n: the CRM rotates the subscription's signing secret (spec §6.4; sandbox `rotation`):
 * while both secrets sign a delivery runs and the trigger subscribes anew; then every event runs, one live subscription.
 * A missed rotation: test/unit/trigger/rotation.test, and trigger.e2e's forged delivery.
 */

import {
	createdWorkflows,
	e2eEnv,
	expectExactlyExecutions,
	expectLogged,
	renewedSubscription,
	sandbox,
	triggerUrl,
} from './lib';

jest.setTimeout(300_000);

const env = e2eEnv();
const crm = sandbox(env);
const workflows = createdWorkflows(env);

afterEach(workflows.removeAll);

describe(`The CRM rotating the signing secret, in real n8n ${env.n8nVersion}`, () => {
	it('seen (both secrets sign, then the new one only): every event runs, without a re-publish; one live subscription', async () => {
		await crm.config({ personality: 'standard', deliverOnCreate: false });
		const { workflow, id, subscription } = await workflows.activeTrigger('issue 40: rotation');
		const live = async () =>
			(await crm.webhooks()).filter((s) => s.url === triggerUrl(workflow) && s.status === 'active');
		expect((await crm.config({ rotation: 'both' })).rotated).toContain(subscription.id);
		await crm.api('POST', '/leads', { name: 'During the rotation' });
		await expectExactlyExecutions(id, 1);
		const renewed = (await renewedSubscription(id, triggerUrl(workflow), subscription.id)).id;

		await crm.config({ rotation: 'new' });
		await crm.api('POST', '/leads', { name: 'After the rotation, 1' });
		await crm.api('POST', '/leads', { name: 'After the rotation, 2' });
		await expectExactlyExecutions(id, 3);
		expect((await live()).map((s) => s.id)).toEqual([renewed]);
		const attempts = (await crm.deliveries()).filter((d) =>
			[subscription.id, renewed].includes(d.subscriptionId),
		);
		expect(attempts.map((attempt) => attempt.status)).toEqual([200, 200, 200]);
		await expectLogged(
			`webhook subscription ${subscription.id} also carried a signature by another secret`,
		);
	});
});

/** Issue 11: the trigger's subscription calls go through the same transport: no redirect carries the key elsewhere. */
import { e2eEnv, n8nClient, sandbox, triggerWorkflow } from './lib';

const env = e2eEnv();
const crm = sandbox(env);
const n8n = n8nClient(env);

describe(`CRM Invoicing Trigger activation behind a redirect, in real n8n ${env.n8nVersion}`, () => {
	beforeAll(async () => {
		await crm.control('POST', '/catcher');
	});

	afterEach(async () => {
		await crm.control('DELETE', '/faults');
	});

	it('a 307 on /webhooks to another host fails the activation; the other host receives neither key nor subscription', async () => {
		await crm.control('DELETE', '/catcher');
		const before = (await crm.webhooks()).length;
		await crm.fault({
			status: 307,
			redirectTo: 'catcher',
			pathPrefix: '/api/v1/webhooks',
			count: 20,
		});

		const created = await n8n.createWorkflow(
			triggerWorkflow(`trigger redirect ${Date.now()}`, ['lead.created']),
		);
		try {
			await expect(n8n.activate(created.id)).rejects.toThrow(/redirect/);
		} finally {
			await n8n.deactivate(created.id).catch(() => undefined);
			await n8n.deleteWorkflow(created.id);
		}

		const { caught } = await crm.control<{ caught: unknown[] }>('GET', '/catcher');
		expect(caught).toEqual([]);
		expect(await crm.webhooks()).toHaveLength(before);
	});
});

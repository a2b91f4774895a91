/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * The trigger's sweep at re-publication in real n8n (issue 12, "Webhook lists"): it removes its own leftover at its
 * URL, keeps (and names) one at an old URL, and leaves a hand-made one alone. The list shapes and the sweep's rule:
 * test/unit/transport/pagination.test.ts, test/unit/actions/lists.test.ts and test/unit/trigger/lifecycle.test.ts.
 */
import { createdWorkflows, e2eEnv, expectLogged, n8nClient, sandbox, triggerState } from './lib';

const env = e2eEnv();
const crm = sandbox(env);
const n8n = n8nClient(env);
const workflows = createdWorkflows(env);

describe(`webhook lists in real n8n ${env.n8nVersion}`, () => {
	beforeAll(async () => {
		await crm.reset();
		await crm.config({ personality: 'standard' });
	});

	afterAll(workflows.removeAll);

	it("the trigger's sweep removes its own leftover at its URL, keeps one at an old URL and leaves a hand-made one alone", async () => {
		const { id, subscription: own } = await workflows.activeTrigger('lists sweep');
		const tag: string = (await triggerState(id)).ownerTag;
		expect(tag).toMatch(/^[A-Za-z0-9_-]{16}$/);
		expect(own.name.endsWith(`[n8n:${tag}]`)).toBe(true);
		// What a failed delete left behind at its URL, what an old tunnel left behind, and a person's subscription.
		const leftover = await crm.api('POST', '/webhooks', {
			name: `n8n: earlier [n8n:${tag}]`,
			url: own.url,
			events: ['lead.created'],
		});
		const oldUrl = await crm.api('POST', '/webhooks', {
			name: `n8n: old [n8n:${tag}]`,
			url: 'https://old-tunnel.example.com/webhook/x/webhook',
			events: ['lead.created'],
		});
		const handMade = await crm.api('POST', '/webhooks', {
			name: 'Made by hand',
			url: own.url,
			events: ['lead.created'],
		});

		await n8n.deactivate(id);
		await n8n.activate(id);

		const ids = (await crm.webhooks()).map((s) => s.id);
		expect(ids).not.toContain(leftover.id);
		expect(ids).not.toContain(own.id);
		expect(ids).toContain(oldUrl.id);
		expect(ids).toContain(handMade.id);
		expect(
			(await crm.webhooks()).filter((s) => s.name.endsWith(`[n8n:${tag}]`) && s.url === own.url),
		).toHaveLength(1);
		await expectLogged(`kept webhook subscription ${oldUrl.id}`);
		await crm.api('DELETE', `/webhooks/${handMade.id}`);
		await crm.api('DELETE', `/webhooks/${oldUrl.id}`);
	});
});

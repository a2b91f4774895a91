/**
 * The trigger as a user tests it: its details view, "Test this trigger", a lead created in the CRM, and the event in
 * the Output panel; and "Stop Listening", after which the CRM holds no subscription of this workflow.
 */
import { randomUUID } from 'node:crypto';

import type { Page } from 'playwright-core';

import {
	awaitSubscription,
	closeBrowser,
	crm,
	eventually,
	inEditor,
	openNode,
	openWorkflow,
	TRIGGER,
	triggerWorkflow,
} from './lib';

afterAll(closeBrowser);

const stopListening = (page: Page) =>
	page.getByTestId('trigger-execute-button').filter({ hasText: 'Stop Listening' });

/** Opens the trigger of a new workflow `name` and clicks "Test this trigger"; returns the node's webhook id. */
async function startListening(page: Page, name: string): Promise<string> {
	const { id, webhookId } = await triggerWorkflow(name);
	await openWorkflow(page, id, [TRIGGER]);
	await openNode(page, TRIGGER);
	await page.getByRole('button', { name: 'Test this trigger' }).click();
	// Listening: n8n shows that it waits, and the trigger has subscribed the test URL in the CRM.
	await stopListening(page).waitFor({ state: 'visible' });
	const [subscription] = await eventually('a subscription in the CRM', async () => {
		const found: Array<{ url: string; events: string[] }> = (await crm.webhooks()).filter(
			(s: { url: string }) => s.url.includes(webhookId),
		);
		return found.length > 0 ? found : undefined;
	});
	expect(subscription.url).toContain('/webhook-test/');
	expect(subscription.events).toEqual(['lead.created']);
	return webhookId;
}

describe('Trigger in the editor', () => {
	it('"Test this trigger" receives a lead.created the CRM sends, and leaves no subscription behind', async () => {
		await inEditor('trigger-test-event', async (page) => {
			const webhookId = await startListening(page, 'UI: trigger receives a lead');

			const name = `UI Trigger Lead ${randomUUID().slice(0, 8)}`;
			const lead = await crm.api<{ id: string }>('POST', '/leads', { name });
			const output = page.getByTestId('output-panel');
			await eventually(
				'the event in the Output panel',
				async () => ((await output.innerText()).includes(name) ? true : undefined),
				60_000,
			);
			expect(await output.innerText()).toContain(lead.id);
			// One test event ends the listening; the trigger deletes its subscription.
			await awaitSubscription(webhookId, false);
		});
	});

	it('"Stop Listening" deletes the subscription from the CRM', async () => {
		await inEditor('trigger-stop-listening', async (page) => {
			const webhookId = await startListening(page, 'UI: trigger stops listening');
			await stopListening(page).click();
			await page.getByRole('button', { name: 'Test this trigger' }).waitFor({ state: 'visible' });
			await awaitSubscription(webhookId, false);
		});
	});
});

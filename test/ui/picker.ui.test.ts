/**
 * The node picker as a user opens it: "CRM Invoicing" is one entry for the action node and the trigger (n8n merges
 * a node and its trigger), and what it says fits both: the description above "Actions" and "Triggers".
 */
import { client, closeBrowser, inEditor, manualTriggerNode, openWorkflow } from './lib';

afterAll(closeBrowser);

describe('node picker', () => {
	it('shows one CRM Invoicing entry whose description covers its actions and its webhook trigger, and the polling trigger as an entry of its own', async () => {
		const { id } = await client.createWorkflow({
			name: 'UI: node picker',
			nodes: [{ ...manualTriggerNode(), name: 'Start' }],
			connections: {},
			settings: {},
		});
		await inEditor('node-picker', async (page) => {
			await openWorkflow(page, id, ['Start']);
			await page.getByTestId('node-creator-plus-button').click();
			await page
				.locator(
					'input[data-test-id="node-creator-search-bar"], [data-test-id="node-creator-search-bar"] input',
				)
				.first()
				.fill('CRM Invoicing');
			const all = page.getByTestId('item-iterator-item').filter({ hasText: 'CRM Invoicing' });
			await all.first().waitFor({ state: 'visible' });
			// The polling trigger is an entry of its own (its type name is not the action node's + "Trigger"), which n8n
			// names without " Trigger"; the action node and the webhook trigger are one.
			const poller = all.filter({ hasText: 'CRM Invoicing Polling' });
			expect(await poller.count()).toBe(1);
			expect((await poller.first().innerText()).trim()).toMatch(/no public URL needed/);
			const entries = all.filter({ hasNotText: 'CRM Invoicing Polling' });
			expect(await entries.count()).toBe(1);
			const entry = (await entries.first().innerText()).trim();
			expect(entry).toMatch(/^CRM Invoicing\b/);
			expect(entry).toMatch(/Create and update leads, deals and invoices/);
			expect(entry).toMatch(/start a workflow when they change/);

			await entries.first().click();
			const panel = page.getByTestId('node-creator');
			await panel.getByText(/^Actions \(\d+\)$/).waitFor({ state: 'visible' });
			const details = await panel.innerText();
			expect(details).toContain('Create a lead');
			expect(details).toMatch(/Triggers \(\d+\)/);
			expect(details).toMatch(/Create and update leads, deals and invoices/);
			expect(details).not.toContain('Starts the workflow when leads');
		});
	});
});

/**
 * The polling trigger as a user sets it up: its details view, Events (the cost notice appears next to Updated Lead),
 * and "Fetch Test Event", which shows the most recent lead in the Output panel and leaves the trigger's memory (the
 * workflow's static data) as it was.
 */
import { randomUUID } from 'node:crypto';

import { PACKAGE } from '../e2e/lib';
import {
	client,
	closeBrowser,
	crm,
	crmNode,
	eventually,
	expectIcon,
	inEditor,
	openNode,
	openWorkflow,
} from './lib';

afterAll(closeBrowser);

const NODE = 'Lead Changes';

describe('Polling trigger in the editor', () => {
	it('is set up in its details view and "Fetch Test Event" shows the most recent lead', async () => {
		const { id } = await client.createWorkflow({
			name: 'UI: polling trigger',
			nodes: [
				crmNode(`${PACKAGE}.crmInvoicingPollingTrigger`, NODE, {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					events: ['newLead'],
					options: {},
				}),
			],
			connections: {},
			settings: {},
		});
		const name = `UI Polled Lead ${randomUUID().slice(0, 8)}`;
		const lead = await crm.api<{ id: string }>('POST', '/leads', { name });

		await inEditor('polling-trigger-fetch-test-event', async (page) => {
			await openWorkflow(page, id, [NODE]);
			await expectIcon(page, NODE);
			const ndv = await openNode(page, NODE);
			await ndv.getByText('Poll Times').first().waitFor({ state: 'visible' });

			// Events: add Updated Lead; the cost of comparing every lead is shown next to it.
			expect(await ndv.getByText(/one request per 100 leads/).count()).toBe(0);
			await ndv.getByTestId('parameter-input-events').click();
			await page.getByRole('option', { name: 'Updated Lead' }).click();
			await page.keyboard.press('Escape');
			await ndv.getByText(/one request per 100 leads/).waitFor({ state: 'visible' });

			await ndv.getByTestId('node-execute-button').filter({ hasText: 'Fetch Test Event' }).click();
			const output = page.getByTestId('output-panel');
			await eventually(
				'the lead in the Output panel',
				async () => ((await output.innerText()).includes(name) ? true : undefined),
				60_000,
			);
			const text = await output.innerText();
			expect(text).toContain(lead.id);
			// The sample is an item of the first selected event (New Lead here), as the workflow will receive it.
			expect(text).toContain('newLead');
		});

		// The test event read the CRM but remembered nothing.
		const saved = await client.api<{ staticData?: unknown }>('GET', `/workflows/${id}`);
		expect(Object.keys((saved.staticData ?? {}) as object)).toEqual([]);
		await client.deleteWorkflow(id);
	});
});

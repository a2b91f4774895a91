/**
 * Lead Create and Lead Get as a user runs them: a workflow "Manual Trigger → CRM Invoicing" opened in the editor,
 * the node's parameters filled in its details view, Execute step, and the result read from the Output panel.
 */
import { randomUUID } from 'node:crypto';

import type { Page } from 'playwright-core';

import { seededId } from '../sandbox/store';
import {
	closeBrowser,
	crm,
	eventually,
	inEditor,
	MANUAL,
	manualWorkflow,
	openNode,
	openWorkflow,
	outputShowing,
} from './lib';

afterAll(closeBrowser);

/** Clicks the details view's "Execute step" and waits until the Output panel shows a lead; returns its text. */
async function executeStep(page: Page): Promise<string> {
	await page.getByTestId('node-execute-button').click();
	return await outputShowing(page, /"id":\s*"lead_/);
}

describe('Lead in the editor', () => {
	it('Create: Manual Trigger → Lead Create runs and the Output panel shows the created lead', async () => {
		const workflowId = await manualWorkflow('UI: create a lead', 'Create Lead', {
			resource: 'lead',
			operation: 'create',
			name: '',
			additionalFields: {},
		});
		const name = `UI Lead ${randomUUID().slice(0, 8)}`;
		await inEditor('lead-create', async (page) => {
			await openWorkflow(page, workflowId, [MANUAL, 'Create Lead']);
			const ndv = await openNode(page, 'Create Lead');
			await ndv.getByTestId('parameter-input-name').locator('input').fill(name);
			const output = await executeStep(page);
			expect(output).toContain(name);
			const id = /"id":\s*"(lead_[\w]+)"/.exec(output)?.[1];
			expect(id).toBeDefined();
			// The lead the panel shows is the one the CRM now holds.
			await expect(crm.api('GET', `/leads/${id}`)).resolves.toMatchObject({ id, name });
		});
	});

	it('Get: the From List picker loads leads, typing searches, and the picked lead runs', async () => {
		const workflowId = await manualWorkflow('UI: get a lead', 'Get Lead', {
			resource: 'lead',
			operation: 'get',
			leadId: { __rl: true, mode: 'list', value: '' },
		});
		const maria = await crm.api<{ id: string; name: string; email: string }>(
			'GET',
			`/leads/${seededId('lead_', 'seed-lead:2')}`,
		);
		expect(maria?.name).toBe('Maria Garcia');
		await inEditor('lead-get-picker', async (page) => {
			await openWorkflow(page, workflowId, [MANUAL, 'Get Lead']);
			const ndv = await openNode(page, 'Get Lead');
			await ndv.getByTestId('rlc-input').click();
			const items = page.getByTestId('rlc-item');
			// Loads: the seeded leads and the generated ones, more than one page of the list's height.
			await eventually('leads in the picker', async () =>
				(await items.count()) >= 10 ? true : undefined,
			);
			const before = await items.allInnerTexts();
			expect(before.some((text) => text.includes('John Smith'))).toBe(true);

			await crm.clearRequests();
			await page
				.locator('input[data-test-id="rlc-search"], [data-test-id="rlc-search"] input')
				.first()
				.fill('Maria');
			const after = await eventually('the search results', async () => {
				const texts = await items.allInnerTexts();
				return texts.length > 0 && texts.every((text) => /maria/i.test(text)) ? texts : undefined;
			});
			expect(after.some((text) => text.includes('Maria Garcia'))).toBe(true);
			expect(after.length).toBeLessThan(before.length);
			// The search went to the CRM (not a filter of what was already loaded).
			const searches = (await crm.requests()).filter(
				(request) => request.method === 'GET' && request.path.startsWith('/api/v1/leads'),
			);
			expect(searches.map((request) => request.query.search)).toContain('Maria');

			await items.filter({ hasText: 'Maria Garcia' }).first().click();
			const output = await executeStep(page);
			expect(output).toContain(maria.id);
			expect(output).toContain(maria.email);
		});
	});
});

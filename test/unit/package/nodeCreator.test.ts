/**
 * n8n's node picker lists a node `x` and its trigger `xTrigger` as one entry, described by the trigger (editor-ui's
 * generateMergedNodesAndActions); test/ui/picker.ui.test.ts checks it in the editor.
 */

import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { CrmInvoicingPollingTrigger } from '../../../nodes/CrmInvoicing/CrmInvoicingPollingTrigger.node';
import { CrmInvoicingTrigger } from '../../../nodes/CrmInvoicing/CrmInvoicingTrigger.node';

const PACKAGE = 'n8n-nodes-crm-invoicing';

/** The editor's rule: the trigger joins the node whose type name is its own without "Trigger". */
function pickerEntries(types: Array<{ name: string; description: string; group: string[] }>) {
	const entries = types
		.filter((type) => !type.group.includes('trigger'))
		.map((type) => ({ ...type }));
	for (const trigger of types.filter((type) => type.group.includes('trigger'))) {
		const merged = entries.find((entry) => entry.name === trigger.name.replace('Trigger', ''));
		if (merged) merged.description = trigger.description;
		else entries.push({ ...trigger });
	}
	return entries;
}

describe('the node picker entry', () => {
	const action = new CrmInvoicing().description;
	const trigger = new CrmInvoicingTrigger().description;
	const poller = new CrmInvoicingPollingTrigger().description;
	const entries = pickerEntries([
		{ name: `${PACKAGE}.${action.name}`, description: action.description, group: action.group },
		{ name: `${PACKAGE}.${trigger.name}`, description: trigger.description, group: trigger.group },
		{ name: `${PACKAGE}.${poller.name}`, description: poller.description, group: poller.group },
	]);

	it('is one entry for the action node and the webhook trigger, described by the webhook trigger for both', () => {
		expect(entries).toHaveLength(2);
		expect(entries[0].name).toBe(`${PACKAGE}.crmInvoicing`);
		expect(entries[0].description).toBe(trigger.description);
		expect(entries[0].description).toMatch(/create|update/i);
		expect(entries[0].description).toMatch(/start a workflow/i);
		expect(entries[0].description).toMatch(/leads/);
		// The action node keeps a description of its own (tools, and every place n8n shows the node alone).
		expect(action.description).toMatch(/^Work with leads, deals, invoices/);
		expect(action.description).not.toBe(trigger.description);
	});

	it('lists the polling trigger as an entry of its own, saying what it is for', () => {
		expect(entries[1]).toEqual({
			name: `${PACKAGE}.crmInvoicingPollingTrigger`,
			description: poller.description,
			group: ['trigger'],
		});
		expect(poller.description).toMatch(/new, updated or archived leads/);
		expect(poller.description).toMatch(/no public URL/);
	});
});

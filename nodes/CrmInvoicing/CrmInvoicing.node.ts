import { NodeConnectionTypes } from 'n8n-workflow';
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { RESOURCES } from './actions/resources';
import { router } from './actions/router';
import { listSearch, loadOptions, resourceMapping } from './actions/methods';

export class CrmInvoicing implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CRM Invoicing',
		name: 'crmInvoicing',
		icon: { light: 'file:crmInvoicing.svg', dark: 'file:crmInvoicing.dark.svg' },
		group: ['transform'],
		// Saved nodes keep the parameters and output of their version (README, "Output"; CHANGELOG).
		version: [1, 2, 3, 4],
		defaultVersion: 4,
		// The labels of actions/resources.ts's operation lists, written out: n8n's linter wants the subtitle as a literal.
		subtitle:
			'={{ ({"client.get":"Get: Client","contact.getMany":"Get Many: Contact","customApiRequest.request":"Request: Custom API Request","deal.create":"Create: Deal","deal.markLost":"Mark as Lost: Deal","deal.markWon":"Mark as Won: Deal","deal.moveToStage":"Move to Stage: Deal","deal.update":"Update: Deal","invoice.create":"Create: Invoice","lead.archive":"Archive: Lead","lead.create":"Create: Lead","lead.upsert":"Create or Update: Lead","lead.get":"Get: Lead","lead.getMany":"Get Many: Lead","lead.unarchive":"Unarchive: Lead","lead.update":"Update: Lead","product.get":"Get: Product","user.getMany":"Get Many: User","webhook.create":"Create: Webhook Subscription","webhook.delete":"Delete: Webhook Subscription","webhook.get":"Get: Webhook Subscription","webhook.getMany":"Get Many: Webhook Subscription"})[$parameter["resource"] + "." + $parameter["operation"]] || ($parameter["operation"] + ": " + $parameter["resource"]) }}',
		description:
			'Work with leads, deals, invoices, clients, products, users, contacts and webhook subscriptions of your CRM',
		defaults: { name: 'CRM Invoicing' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'crmInvoicingApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: RESOURCES.map(({ name, value, description }) => ({ name, value, description })),
				default: 'lead',
			},
			...RESOURCES.flatMap((resource) => resource.properties),
		],
	};

	methods = { listSearch, loadOptions, resourceMapping };

	execute = router;
}

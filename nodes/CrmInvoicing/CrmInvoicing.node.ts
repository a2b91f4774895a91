import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { RESOURCES } from './actions/resources';
import { router } from './actions/router';
import * as listSearch from './actions/methods/listSearch';
import * as loadOptions from './actions/methods/loadOptions';
import { getDealFields, getLeadFields } from './actions/methods/resourceMapping';

export class CrmInvoicing implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CRM Invoicing',
		name: 'crmInvoicing',
		icon: { light: 'file:crmInvoicing.svg', dark: 'file:crmInvoicing.dark.svg' },
		group: ['transform'],
		// Saved nodes keep the parameters and output of their version (README, "Output"; CHANGELOG).
		version: [1, 2, 3, 4],
		defaultVersion: 4,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
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
				options: RESOURCES.map((resource) => resource.option),
				default: 'lead',
			},
			...RESOURCES.flatMap((resource) => resource.properties),
		],
	};

	// resourceMapping.ts also lends Output's "Fields" (loadOptions.ts) its custom-field lookup: only its two methods here.
	methods = { listSearch, loadOptions, resourceMapping: { getLeadFields, getDealFields } };

	execute = router;
}

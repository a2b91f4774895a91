import { NodeConnectionTypes } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import * as lead from './actions/lead';
import { router } from './actions/router';
import { listSearch } from './methods';

export class CrmInvoicing implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CRM Invoicing',
		name: 'crmInvoicing',
		icon: { light: 'file:crmInvoicing.svg', dark: 'file:crmInvoicing.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Work with leads, deals, invoices, clients, products, users and contacts of your CRM',
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
				options: [{ name: 'Lead', value: 'lead' }],
				default: 'lead',
			},
			...lead.description,
		],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}

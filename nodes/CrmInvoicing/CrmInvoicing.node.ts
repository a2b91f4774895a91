import { NodeConnectionTypes } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import * as client from './actions/client';
import * as contact from './actions/contact';
import * as customApiRequest from './actions/customApiRequest';
import * as deal from './actions/deal';
import * as invoice from './actions/invoice';
import * as lead from './actions/lead';
import * as product from './actions/product';
import * as user from './actions/user';
import * as webhook from './actions/webhook';
import { router } from './actions/router';
import { listSearch } from './methods';

export class CrmInvoicing implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CRM Invoicing',
		name: 'crmInvoicing',
		icon: { light: 'file:crmInvoicing.svg', dark: 'file:crmInvoicing.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle:
			'={{ ({ create: "Create", get: "Get", getMany: "Get Many", update: "Update", archive: "Archive", unarchive: "Unarchive", markWon: "Mark as Won", markLost: "Mark as Lost", moveToStage: "Move to Stage", delete: "Delete", request: "Request" })[$parameter["operation"]] + ": " + ({ lead: "Lead", deal: "Deal", invoice: "Invoice", client: "Client", product: "Product", user: "User", contact: "Contact", webhook: "Webhook Subscription", customApiRequest: "Custom API Request" })[$parameter["resource"]] }}',
		description: 'Work with leads, deals, invoices, clients, products, users, contacts and webhook subscriptions of your CRM',
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
				options: [
					{ name: 'Client', value: 'client', description: 'Companies and people you invoice' },
					{ name: 'Contact', value: 'contact', description: 'People at your clients (read through API v2)' },
					{
						name: 'Custom API Request',
						value: 'customApiRequest',
						description: 'Any other endpoint of the API, with this credential',
					},
					{ name: 'Deal', value: 'deal', description: 'Opportunities in a sales pipeline' },
					{ name: 'Invoice', value: 'invoice', description: 'Invoices with line items' },
					{ name: 'Lead', value: 'lead', description: 'Prospects not yet qualified as deals' },
					{ name: 'Product', value: 'product', description: 'Products and services in your catalogue' },
					{ name: 'User', value: 'user', description: 'Members of your team' },
					{
						name: 'Webhook Subscription',
						value: 'webhook',
						description: 'Subscriptions that send CRM events to a URL',
					},
				],
				default: 'lead',
			},
			...client.description,
			...contact.description,
			...customApiRequest.description,
			...deal.description,
			...invoice.description,
			...lead.description,
			...product.description,
			...user.description,
			...webhook.description,
		],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}

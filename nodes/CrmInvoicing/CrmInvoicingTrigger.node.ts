import { NodeConnectionTypes } from 'n8n-workflow';
import type { IHookFunctions, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { EVENT_OPTIONS, simplifyPropertyFrom } from './shared';
import { receiveDelivery, TRIGGER_SIMPLIFY_VERSION } from './trigger/delivery';
import { checkExists, create, deleteSubscription } from './trigger/lifecycle';

export class CrmInvoicingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CRM Invoicing Trigger',
		name: 'crmInvoicingTrigger',
		icon: { light: 'file:crmInvoicingTrigger.svg', dark: 'file:crmInvoicingTrigger.dark.svg' },
		group: ['trigger'],
		// Version 2 (0.3): Simplify, on by default (delivery.ts). Version-1 nodes output deliveries exactly as before.
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{($parameter["events"] || []).join(", ")}}',
		// n8n's picker shows a node `x` and its trigger `xTrigger` as one entry (as Stripe and Stripe Trigger) with the
		// trigger's description, so this one describes the pair (README.md#n8n-versions-and-the-node-picker).
		description:
			'Create and update leads, deals and invoices in your CRM, or start a workflow when they change',
		defaults: { name: 'CRM Invoicing Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'crmInvoicingApi', required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Every delivery is answered by the node itself (delivery.ts); these apply only if it ever did not.
				responseData: 'noData',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					"Use an HTTPS webhook URL in production: the CRM warns about plain-HTTP endpoints, and their deliveries travel unencrypted. The URL comes from n8n's WEBHOOK_URL setting.",
				name: 'httpsNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName:
					'The API documentation names only the event lead.created. The other names are assumed: your CRM may refuse them (activation then says which) or never send them. Use Options > Custom Event Names for the names your CRM uses.',
				name: 'eventsNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				default: [],
				options: EVENT_OPTIONS,
				description:
					'The events that start the workflow (pick here, under Options > Custom Event Names, or both). Deliveries of other events are acknowledged and ignored.',
			},
			simplifyPropertyFrom(TRIGGER_SIMPLIFY_VERSION),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Custom Event Names',
						name: 'customEvents',
						type: 'string',
						default: '',
						placeholder: 'invoice.overdue, client.created',
						description:
							'Further event names to subscribe to, separated by commas, for events the list above does not offer yet',
					},
					{
						displayName: 'Output Full Record',
						name: 'fullRecord',
						type: 'boolean',
						default: false,
						description:
							"Whether to read each lead event's lead from the CRM (GET /leads/{ID}) and output it as the payload, with the same fields as Lead → Get",
						hint: 'One extra API request per lead event. If the CRM cannot be reached in time, the delivery is answered 503 and the CRM sends it again; if the lead cannot be read (e.g. deleted), the event is output as received with a fullRecordError field.',
					},
					{
						displayName: 'Payload Only',
						name: 'payloadOnly',
						type: 'boolean',
						default: false,
						description:
							"Whether to output only the event's payload (the lead, deal or invoice) instead of event, timestamp, payload and webhookId",
					},
					{
						displayName: 'Subscription Name',
						name: 'subscriptionName',
						type: 'string',
						default: '',
						placeholder: 'n8n: My workflow',
						hint: 'When empty: n8n: <workflow name>',
						description: 'The name of the webhook subscription in the CRM',
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await checkExists.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await create.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await deleteSubscription.call(this);
			},
		},
	};

	webhook = receiveDelivery;
}

import {
	NodeConnectionTypes,
	type IDataObject,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import {
	deadlineIn,
	EVENT_OPTIONS,
	eventNamesOf,
	simplifyPropertyFrom,
	type Deadline,
} from './shared';
import {
	rewrap,
	log,
	nodeData,
	readSecret,
	readState,
	saveState,
	tagOf,
	WHY_UNREADABLE,
} from './trigger/store';
import { forgetForeign, getSubscription, sameUrl, thisNode } from './trigger/ownership';
import { inTime, isInactiveStatus, letGo, orLog, subscribe } from './trigger/subscription';
import { eventsOf, TRIGGER_SIMPLIFY_VERSION } from './trigger/item';
import { receiveDelivery } from './trigger/webhook';

// n8n calls the hooks without a time limit and activates workflows one by one (docs/trigger.md#activation-is-bounded).
export const HOOK_TIME_LIMIT_MS = 20_000;

/** Also brings retired subscriptions stored by an earlier version to the current form. */
function forget(data: IDataObject) {
	saveState(data, { subscription: undefined });
	return false;
}

/** One at this node's URL stays stored for create to delete once the new one is stored: n8n 1.x runs this at every
 * start-up, and deleting first, a failed POST would leave the trigger deaf. */
async function check(context: IHookFunctions, deadline: Deadline) {
	const { data, tag, url } = thisNode(context);
	const stored = readState(data).subscription;
	// None: create follows, and its save writes the current form.
	if (!stored) return false;
	if ((stored.ownerTag ?? tag) !== tag) {
		forgetForeign(
			context,
			stored.id,
			"its owner tag is not this n8n instance's, workflow's and node's (for example a workflow imported from another n8n)",
		);
		return forget(data);
	}
	const remote = await getSubscription(context, stored.id, deadline);
	if (remote === 'gone') return forget(data);
	// Data of 0.1 carries no tag: it is this node's when the CRM delivers to exactly this URL. Another node's tag in
	// the CRM's name: someone else's (renamed, or a re-used id).
	const untagged = stored.ownerTag === undefined && !sameUrl(remote.url, url);
	if (untagged || (tagOf(remote.name) ?? tag) !== tag) {
		forgetForeign(context, stored.id);
		return forget(data);
	}
	const current = {
		...stored,
		ownerTag: tag,
		url: typeof remote.url === 'string' ? remote.url : stored.url,
	};
	saveState(data, { subscription: current });
	if (!sameUrl(current.url, url)) {
		await letGo(context, current, deadline);
		return false;
	}
	const same =
		eventNamesOf(remote.events ?? stored.events)
			.sort()
			.join('\n') === eventsOf(context).join('\n');
	if ((await readSecret(context, current)) === undefined) {
		log(
			context,
			`the stored signing secret of webhook subscription ${stored.id} cannot be read with this credential's API key ` +
				`${WHY_UNREADABLE}; this trigger subscribes anew, and deletes that subscription once the new one is stored`,
		);
		return false;
	}
	// Wrapped anew under the credential's key if need be.
	await rewrap(context, current);
	return same && !isInactiveStatus(remote.status);
}

export class CrmInvoicingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CRM Invoicing Trigger',
		name: 'crmInvoicingTrigger',
		icon: { light: 'file:crmInvoicingTrigger.svg', dark: 'file:crmInvoicingTrigger.dark.svg' },
		group: ['trigger'],
		// Version-1 nodes output deliveries exactly as before.
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{($parameter["events"] || []).join(", ")}}',
		// n8n's picker shows this trigger and its node as one entry with this description, so it describes the pair
		// (README.md#n8n-versions-and-the-node-picker).
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
				// The node answers every delivery itself (webhook.ts).
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
					'The API documentation names only the event lead.created. The other names are assumed: your CRM may refuse them (activation then says which) or never send them. ' +
					'Use Options > Custom Event Names for the names your CRM uses.',
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
						hint:
							'One extra API request per lead event. If the CRM cannot be reached in time, the delivery is answered 503 and the CRM sends it again; ' +
							'if the lead cannot be read (e.g. deleted), the event is output as received with a fullRecordError field.',
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
			checkExists(this: IHookFunctions, limitMs = HOOK_TIME_LIMIT_MS) {
				return inTime(this, 'check its webhook subscription', limitMs, check);
			},
			async create(this: IHookFunctions, limitMs = HOOK_TIME_LIMIT_MS) {
				await inTime(this, 'create its webhook subscription', limitMs, subscribe);
				return true;
			},
			/** A failed delete keeps it and returns false, for the next activation. */
			async delete(this: IHookFunctions, limitMs = HOOK_TIME_LIMIT_MS) {
				const stored = readState(nodeData(this)).subscription;
				if (!stored) return true;
				return await orLog(
					this,
					letGo(this, stored, deadlineIn(limitMs), true),
					`webhook subscription ${stored.id}; it is kept and cleaned up on the next activation`,
				);
			},
		},
	};

	webhook = receiveDelivery;
}

import {
	NodeConnectionTypes,
	type IDataObject,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { isBusy, nodeKey, oneAtATime, simplifyPropertyFrom } from './shared';
import { POLLING, SKIPPED_TEXT } from './polling/budget';
import { pollLeads, sampleLead, warn, type LeadEvent } from './polling/poll';

export class CrmInvoicingPollingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CRM Invoicing Polling Trigger',
		name: 'crmInvoicingPollingTrigger',
		icon: {
			light: 'file:crmInvoicingPollingTrigger.svg',
			dark: 'file:crmInvoicingPollingTrigger.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{($parameter["events"] || []).join(", ")}}',
		description:
			'Starts a workflow on new, updated or archived leads by polling the CRM: no public URL needed',
		defaults: { name: 'CRM Invoicing Polling Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'crmInvoicingApi', required: true }],
		properties: [
			{
				displayName:
					'Polls the CRM at the Poll Times below, so n8n needs no public URL. ' +
					'The first poll only remembers the leads that exist; later polls emit what changed since. ' +
					'Each item is the lead plus _event (newLead, updatedLead or archivedLead).',
				name: 'pollingNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['newLead'],
				options: [
					{
						name: 'Archived Lead',
						value: 'archivedLead',
						description: 'A lead became archived since the last poll',
					},
					{
						name: 'New Lead',
						value: 'newLead',
						description: 'A lead appeared since the last poll',
					},
					{
						name: 'Updated Lead',
						value: 'updatedLead',
						description:
							"A lead's fields changed since the last poll; the item names them in _changedFields",
					},
				],
				description: 'The events that start the workflow; any combination',
			},
			{
				displayName:
					'Updated Lead and Archived Lead compare every lead at each poll: one request per 100 leads (10,000 leads: 100 requests). ' +
					"The trigger uses at most half of the credential's Requests per Minute (30 a minute at the API's 60: 10,000 leads take about 3 minutes), " +
					'so poll less often for large CRMs: poll times that come while a poll still runs are skipped. ' +
					'New Lead alone costs 1 request per poll when the API lists the newest leads first, plus one full read per Full Read Interval.',
				name: 'costNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { events: ['updatedLead', 'archivedLead'] } },
			},
			simplifyPropertyFrom(1),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Include Existing Leads on First Poll',
						name: 'includeExisting',
						type: 'boolean',
						default: false,
						description:
							'Whether the first poll after activation emits every lead that already exists as New Lead (a backfill) instead of only remembering them',
					},
					{
						displayName: 'Full Read Interval (Minutes)',
						name: 'fullReadInterval',
						type: 'number',
						// POLLING.fullReadMinutes: n8n's linter wants the literal here.
						default: 60,
						typeOptions: { minValue: 1, maxValue: 1440 },
						description:
							'With New Lead alone on a CRM that lists its newest leads first, most polls read only the first page. ' +
							'At least this often a poll reads the whole list, to find a lead that appears out of order ' +
							'(for example an import that keeps old creation dates): such a lead is emitted within this time plus one poll interval.',
					},
				],
			},
		],
	};

	async poll(this: IPollFunctions) {
		const options = this.getNodeParameter('options', {}) as IDataObject;
		// The option's own bounds, for a value that came through an expression.
		const minutes = Math.min(
			1_440,
			Math.max(1, Number(options.fullReadInterval) || POLLING.fullReadMinutes),
		);
		const settings = {
			events: this.getNodeParameter('events', ['newLead']) as LeadEvent[],
			simplify: this.getNodeParameter('simplify', true) as boolean,
			includeExisting: options.includeExisting === true,
			fullReadEveryMs: minutes * 60_000,
		};
		// "Fetch Test Event": what the trigger remembers stays as it was.
		if (this.getMode() === 'manual') return sampleLead.call(this, settings);
		// A poll that starts while the previous one runs (a long list read at the API's pace) is skipped; n8n polls a
		// workflow in one process.
		const key = nodeKey(this);
		if (isBusy(key)) {
			warn(this, SKIPPED_TEXT);
			return null;
		}
		return oneAtATime(key, () => pollLeads.call(this, settings));
	}
}

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { KNOWN_EVENTS } from '../../../nodes/CrmInvoicing/shared/apiChoices';
import { CrmInvoicingTrigger } from '../../../nodes/CrmInvoicing/CrmInvoicingTrigger.node';

const root = join(__dirname, '..', '..', '..');
const { description } = new CrmInvoicingTrigger();
const property = (name: string) =>
	description.properties.find((entry) => entry.name === name) as INodeProperties;

it('CRM Invoicing Trigger has the public interface', () => {
	expect(description).toMatchObject({
		displayName: 'CRM Invoicing Trigger',
		name: 'crmInvoicingTrigger',
		version: [1, 2],
		defaultVersion: 2,
		group: ['trigger'],
		inputs: [],
		credentials: [{ name: 'crmInvoicingApi', required: true }],
		icon: { light: 'file:crmInvoicingTrigger.svg', dark: 'file:crmInvoicingTrigger.dark.svg' },
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: 'noData',
				path: 'webhook',
			},
		],
	});
});

it('offers the API event names of KNOWN_EVENTS, tells documented ones from assumed ones, does not require Events (custom names alone are enough), and shows its notices', () => {
	const events = property('events');
	expect(events.type).toBe('multiOptions');
	expect(events.required).toBeFalsy();
	const options = (events.options ?? []) as INodePropertyOptions[];
	expect(options.map((option) => option.value).sort()).toEqual(
		KNOWN_EVENTS.map((event) => event.value).sort(),
	);
	for (const option of options) {
		const documented = option.value === 'lead.created';
		expect(option.description).toMatch(
			documented ? /Named in the API documentation/ : /does not name/,
		);
		if (!documented) expect(option.name).toMatch(/\(Assumed Name\)$/);
	}
	expect(KNOWN_EVENTS.filter((event) => event.documented).map((event) => event.value)).toEqual([
		'lead.created',
	]);
	const notice = description.properties.find((entry) => entry.name === 'eventsNotice');
	expect(notice?.displayName).toMatch(/names only the event lead\.created/);
	const https = description.properties.find((entry) => entry.type === 'notice');
	expect(https?.displayName).toMatch(/HTTPS/);
	expect(https?.displayName).toMatch(/WEBHOOK_URL/);
});

it('has customEvents, fullRecord, payloadOnly and subscriptionName under options', () => {
	const options = property('options');
	expect(options.type).toBe('collection');
	const collection = options.options as INodeProperties[];
	expect(collection.map((option) => [option.name, option.type])).toEqual([
		['customEvents', 'string'],
		['fullRecord', 'boolean'],
		['payloadOnly', 'boolean'],
		['subscriptionName', 'string'],
	]);
	expect(collection[3].hint).toContain('n8n: <workflow name>');
});

it('ships its codex file and is registered in package.json (pack.test checks the icons of every registered node)', () => {
	const folder = join(root, 'nodes', 'CrmInvoicing');
	const codex = JSON.parse(readFileSync(join(folder, 'CrmInvoicingTrigger.node.json'), 'utf8'));
	expect(codex).toMatchObject({
		node: 'n8n-nodes-crm-invoicing.crmInvoicingTrigger',
		categories: ['Sales', 'Finance & Accounting'],
		resources: {
			primaryDocumentation: [
				{ url: 'https://github.com/crm-invoicing/n8n-nodes-crm-invoicing#crm-invoicing-trigger' },
			],
		},
	});
	const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
	expect(pkg.n8n.nodes).toContain('dist/nodes/CrmInvoicing/CrmInvoicingTrigger.node.js');
});

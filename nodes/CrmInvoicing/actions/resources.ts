import type { INodeProperties } from 'n8n-workflow';

import * as client from './client';
import * as contact from './contact';
import * as customApiRequest from './customApiRequest';
import * as deal from './deal';
import * as invoice from './invoice';
import * as lead from './lead';
import type { ResourceEntry, ResourceOperation } from './operation';
import * as product from './product';
import * as user from './user';
import * as webhook from './webhook';

interface Resource extends ResourceEntry {
	value: string;
	description: string;
	/** The "Operation" parameter and the operations' own parameters. */
	properties: INodeProperties[];
}

/**
 * Every resource of the node, alphabetical by name, each with its list of operations (in its own index.ts). The
 * "Resource" options, the node's parameters, the router and the subtitle are all read from here.
 */
export const RESOURCES: Resource[] = [
	{
		name: 'Client',
		value: 'client',
		description: 'Companies and people you invoice',
		...of(client),
	},
	{
		name: 'Contact',
		value: 'contact',
		description: 'People at your clients (read through API v2)',
		...of(contact),
	},
	{
		name: 'Custom API Request',
		value: 'customApiRequest',
		description: 'Any other endpoint of the API, with this credential',
		...of(customApiRequest),
	},
	{ name: 'Deal', value: 'deal', description: 'Opportunities in a sales pipeline', ...of(deal) },
	{ name: 'Invoice', value: 'invoice', description: 'Invoices with line items', ...of(invoice) },
	{ name: 'Lead', value: 'lead', description: 'Prospects not yet qualified as deals', ...of(lead) },
	{
		name: 'Product',
		value: 'product',
		description: 'Products and services in your catalogue',
		...of(product),
	},
	{ name: 'User', value: 'user', description: 'Members of your team', ...of(user) },
	{
		name: 'Webhook Subscription',
		value: 'webhook',
		description: 'Subscriptions that send CRM events to a URL',
		...of(webhook),
	},
];

function of(resource: { operations: ResourceOperation[]; description: INodeProperties[] }) {
	return { operations: resource.operations, properties: resource.description };
}

/** The resources by their `resource` parameter value. */
export const RESOURCES_BY_VALUE: Record<string, Resource> = Object.fromEntries(
	RESOURCES.map((resource) => [resource.value, resource]),
);

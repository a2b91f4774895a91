import type { INodeProperties } from 'n8n-workflow';

import * as client from './client';
import * as contact from './contact';
import * as customApiRequest from './customApiRequest';
import * as deal from './deal';
import * as invoice from './invoice';
import * as lead from './lead';
import type { ResourceOperation } from './operation';
import * as product from './product';
import * as user from './user';
import * as webhook from './webhook';

interface Resource {
	name: string;
	value: string;
	description: string;
	/** Listed alphabetically by name in the resource's own index.ts. */
	operations: ResourceOperation[];
	/** The operation a new node shows; the first one unless said. */
	defaultOperation?: string;
}

/** A resource and its properties: the "Operation" parameter and the operations' own. */
function resource({ operations, defaultOperation, ...labels }: Resource) {
	const operation: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [labels.value] } },
		options: operations.map(({ name, value, action, description = action }) => ({
			name,
			value,
			description,
			action,
		})),
		default: defaultOperation ?? operations[0].value,
	};
	const properties = [operation, ...operations.flatMap(({ run }) => run.description)];
	return { ...labels, operations, properties };
}

/**
 * Every resource of the node, alphabetical by name. The "Resource" options, the node's parameters, the router and
 * the subtitle are all read from here.
 */
export const RESOURCES = [
	resource({
		name: 'Client',
		value: 'client',
		description: 'Companies and people you invoice',
		operations: client.operations,
	}),
	resource({
		name: 'Contact',
		value: 'contact',
		description: 'People at your clients (read through API v2)',
		operations: contact.operations,
	}),
	resource({
		name: 'Custom API Request',
		value: 'customApiRequest',
		description: 'Any other endpoint of the API, with this credential',
		operations: customApiRequest.operations,
	}),
	resource({
		name: 'Deal',
		value: 'deal',
		description: 'Opportunities in a sales pipeline',
		operations: deal.operations,
	}),
	resource({
		name: 'Invoice',
		value: 'invoice',
		description: 'Invoices with line items',
		operations: invoice.operations,
	}),
	resource({
		name: 'Lead',
		value: 'lead',
		description: 'Prospects not yet qualified as deals',
		operations: lead.operations,
		defaultOperation: 'create',
	}),
	resource({
		name: 'Product',
		value: 'product',
		description: 'Products and services in your catalogue',
		operations: product.operations,
	}),
	resource({
		name: 'User',
		value: 'user',
		description: 'Members of your team',
		operations: user.operations,
	}),
	resource({
		name: 'Webhook Subscription',
		value: 'webhook',
		description: 'Subscriptions that send CRM events to a URL',
		operations: webhook.operations,
	}),
];

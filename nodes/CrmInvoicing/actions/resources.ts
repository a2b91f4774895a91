import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import * as client from './client';
import * as contact from './contact';
import * as customApiRequest from './customApiRequest';
import * as deal from './deal';
import * as invoice from './invoice';
import * as lead from './lead';
import type { Operation } from './operation';
import * as product from './product';
import * as user from './user';
import * as webhook from './webhook';

/** `module`: as n8n's Airtable node exports them, modules by value. An operation's `value` is saved in workflows and
 * names the module; its `action` is what n8n's picker and AI tools call it. */
function resource(
	name: string,
	value: string,
	description: string,
	module: {
		operations: Array<{ name: string; value: string; action: string }>;
		defaultOperation?: string;
	},
) {
	const { operations, defaultOperation = operations[0].value } = module;
	const runs = module as unknown as Record<string, Operation>;
	const operation: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [value] } },
		options: operations.map((option) => ({ description: option.action, ...option })),
		default: defaultOperation,
	};
	return {
		/** The resource's option under "Resource". */
		option: { name, value, description },
		value,
		operations,
		runs: Object.fromEntries(operations.map(({ value: key }) => [key, runs[key]])),
		properties: [
			operation,
			...operations.flatMap(({ value: key }) =>
				updateDisplayOptions(
					{ show: { resource: [value], operation: [key] } },
					runs[key].description,
				),
			),
		],
	};
}

/** The "Resource" options, parameters, router and subtitle are all read from here. */
export const RESOURCES = [
	resource('Client', 'client', 'Companies and people you invoice', client),
	resource('Contact', 'contact', 'People at your clients (read through API v2)', contact),
	resource(
		'Custom API Request',
		'customApiRequest',
		'Any other endpoint of the API, with this credential',
		customApiRequest,
	),
	resource('Deal', 'deal', 'Opportunities in a sales pipeline', deal),
	resource('Invoice', 'invoice', 'Invoices with line items', invoice),
	resource('Lead', 'lead', 'Prospects not yet qualified as deals', lead),
	resource('Product', 'product', 'Products and services in your catalogue', product),
	resource('User', 'user', 'Members of your team', user),
	resource(
		'Webhook Subscription',
		'webhook',
		'Subscriptions that send CRM events to a URL',
		webhook,
	),
];

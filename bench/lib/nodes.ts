/**
 * The node chains compared: this package's Lead "Get Many", and what a user builds instead with n8n's own nodes:
 * HTTP Request (typeVersion 4.2) with cursor pagination, then Split Out so that each lead is one item, as ours gives.
 */
import { ACTION_NODE_TYPE, adminCredential, type BenchContext, type NodeDef } from './harness';

export function oursGetMany(
	ctx: BenchContext,
	want: { returnAll: true } | { returnAll: false; limit: number },
): NodeDef[] {
	return [
		{
			name: 'CRM Invoicing',
			type: ACTION_NODE_TYPE,
			typeVersion: 1,
			parameters: { resource: 'lead', operation: 'getMany', ...want, filters: {} },
			credentials: adminCredential(ctx),
		},
	];
}

export interface HttpRequestOptions {
	/** "Limit Pages Fetched" → Max Pages. */
	maxPages?: number;
	/** "Interval Between Requests (ms)". */
	intervalMs?: number;
	/** A Limit node after Split Out (the HTTP Request node cannot stop in the middle of a page). */
	limitItems?: number;
}

/**
 * HTTP Request 4.2: GET <sandbox>/api/v1/leads?limit=100 with the same credential (predefined credential type
 * crmInvoicingApi, which sends x-api-key), pagination "Update a Parameter in Each Request": cursor =
 * {{ $response.body.nextCursor }}, complete when {{ !$response.body.hasMore }}. One item per page comes out, so
 * Split Out (field `items`) makes one item per lead.
 */
export function httpRequestGetMany(ctx: BenchContext, options: HttpRequestOptions = {}): NodeDef[] {
	const pagination: Record<string, unknown> = {
		paginationMode: 'updateAParameterInEachRequest',
		parameters: {
			parameters: [{ type: 'qs', name: 'cursor', value: '={{ $response.body.nextCursor }}' }],
		},
		paginationCompleteWhen: 'other',
		completeExpression: '={{ !$response.body.hasMore }}',
		limitPagesFetched: options.maxPages !== undefined,
		requestInterval: options.intervalMs ?? 0,
	};
	if (options.maxPages !== undefined) pagination.maxRequests = options.maxPages;
	const chain: NodeDef[] = [
		{
			name: 'HTTP Request',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: {
				method: 'GET',
				url: `${ctx.stack.sandbox.url}/api/v1/leads`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'crmInvoicingApi',
				sendQuery: true,
				specifyQuery: 'keypair',
				queryParameters: { parameters: [{ name: 'limit', value: '100' }] },
				options: { pagination: { pagination } },
			},
			credentials: adminCredential(ctx),
		},
		{
			name: 'Split Out',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'items', include: 'noOtherFields', options: {} },
		},
	];
	if (options.limitItems !== undefined) {
		chain.push({
			name: 'Limit',
			type: 'n8n-nodes-base.limit',
			typeVersion: 1,
			parameters: { maxItems: options.limitItems },
		});
	}
	return chain;
}

/**
 * The floor's chain: a Code node that outputs `total` lead-shaped items, copies of `sample` (one page of the API's
 * leads) with ids of their own: n8n's own cost of that many items, with no request.
 */
export function codeNodeLeads(sample: unknown[], total: number): NodeDef[] {
	const jsCode = [
		`const page = ${JSON.stringify(sample)};`,
		'const out = [];',
		`for (let i = 0; out.length < ${total}; i++) for (const lead of page) if (out.length < ${total}) out.push({ json: { ...lead, id: lead.id + '-' + i } });`,
		'return out;',
	].join('\n');
	return [
		{
			name: 'Code',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			parameters: { mode: 'runOnceForAllItems', jsCode },
		},
	];
}

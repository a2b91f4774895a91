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
 * leads): n8n's own cost of that many items, with no request.
 *
 * The copies must be as distinct as the API's leads, because n8n stores an execution's data with `flatted`, which
 * writes each distinct string once: 100 plain copies of one page save in about half the time that 10,000 real leads
 * take (issue 29: 57 against 110 ms in one process; 3.2 against 4.2 MB). So each text field that is unique per lead
 * (id, number, name, email, mobile, createdAt: unique in the API's data too) starts in copy i with i's two digits in
 * place of its own first two characters: the same length, unique across all copies, and cheap to build. Fields that
 * repeat within the page (stage, source, title…) repeat as they do in the API's data.
 */
export function codeNodeLeads(sample: Array<Record<string, unknown>>, total: number): NodeDef[] {
	const copies = Math.ceil(total / Math.max(sample.length, 1));
	if (copies > 100) throw new Error(`${copies} copies of the page do not fit in two digits`);
	// Unique per lead even without the first two characters (at most one lead without the field).
	const unique = Object.keys(sample[0] ?? {}).filter((field) => {
		const values = sample.map((lead) => lead[field]);
		const tails = values.filter((value) => typeof value === 'string').map((text) => text.slice(2));
		return new Set(values).size === sample.length && new Set(tails).size === tails.length;
	});
	// Straight-line code (no callback per field): the runner runs it cold, so each call would count in the floor.
	const assign = unique.map(
		(field, f) =>
			`if (tails[at][${f}] !== undefined) json[${JSON.stringify(field)}] = tag + tails[at][${f}];`,
	);
	const jsCode = [
		`const page = ${JSON.stringify(sample)};`,
		`const unique = ${JSON.stringify(unique)};`,
		"const tails = page.map((lead) => unique.map((field) => typeof lead[field] === 'string' ? lead[field].slice(2) : undefined));",
		'const out = [];',
		`for (let i = 0; out.length < ${total}; i++) {`,
		"  const tag = String(i).padStart(2, '0');",
		`  for (let at = 0; at < page.length && out.length < ${total}; at++) {`,
		'    const json = { ...page[at] };',
		...assign.map((line) => `    ${line}`),
		'    out.push({ json });',
		'  }',
		'}',
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

import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import {
	collectionParameter,
	fail,
	failAsIs,
	pageRequestOf,
	parseJson,
	requiredParameter,
	requireOneOf,
	returnAllAndLimit,
	textProperty,
	valueOption,
	type Item,
} from '../common';
import {
	apiRequest,
	filledText,
	isPlainObject,
	readPages,
	showPath,
	unsafePathReason,
	type ApiVersion,
} from '../../shared';

const METHODS = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT'] as const;

export const description: INodeProperties[] = [
	{
		displayName:
			"Calls any endpoint of the CRM API with this node's credential. Use it for what the other operations do not cover.",
		name: 'customRequestNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Method',
		name: 'method',
		type: 'options',
		options: METHODS.map(valueOption),
		default: 'GET',
		description: 'HTTP method of the request',
	},
	{
		displayName: 'API Version',
		name: 'apiVersion',
		type: 'options',
		options: [
			{
				name: 'V1',
				value: 'v1',
				description:
					'Paths under /api/v1, the legacy API: leads, deals, invoices, clients, products, users, webhooks',
			},
			{
				name: 'V2',
				value: 'v2',
				description: 'Paths under /api/v2, the API for new projects, such as /contacts',
			},
		],
		default: 'v1',
		description: 'Which version prefix the path goes under',
	},
	textProperty('Path', 'path', {
		required: true,
		placeholder: '/leads',
		description:
			'Path under the version prefix, starting with /, such as /leads or /deals/deal_123. Do not include the base URL or /api/v1.',
	}),
	{
		displayName: 'Query Parameters',
		name: 'queryParameters',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Query Parameter',
		default: {},
		options: [
			{
				displayName: 'Parameter',
				name: 'parameters',
				values: [
					textProperty('Name', 'name', { placeholder: 'search' }),
					textProperty('Value', 'value'),
				],
			},
		],
	},
	{
		displayName: 'JSON Body',
		name: 'jsonBody',
		type: 'json',
		default: '{}',
		description:
			'Request body as a JSON object (or array). For DELETE an empty object sends no body.',
		displayOptions: { hide: { method: ['GET'] } },
	},
	{
		displayName: 'Paginate',
		name: 'paginate',
		type: 'boolean',
		default: false,
		description:
			'Whether to follow the cursor of a list endpoint and output one item per record. ' +
			'Works with v1 lists (items, nextCursor), v2 lists (data, meta.nextCursor) and bare arrays. Each record must be a JSON object.',
		displayOptions: { show: { method: ['GET'] } },
	},
	...updateDisplayOptions(
		{ show: { method: ['GET'], paginate: [true] } },
		returnAllAndLimit('records'),
	),
];

/** Checked before anything is sent; unsafePathReason is the one path rule. */
function pathOf(item: Item) {
	const path = requiredParameter(item, 'path', 'Path');
	const help = 'Enter the path under the version prefix, such as /leads or /leads/lead_123.';
	if (!path.startsWith('/')) fail(item, `"Path" must start with / but is "${path}"`, help);
	if (/(:|%3a)(\/|%2f){2}/i.test(path))
		fail(
			item,
			'"Path" must not contain "://" (a full URL)',
			`${help} The base URL comes from the credential.`,
		);
	const unsafe = unsafePathReason(path);
	if (unsafe)
		failAsIs(
			item,
			`"Path" is refused in item ${item.index}: ${unsafe} ("${showPath(path)}")`,
			`${help} Control characters (line breaks, tabs), backslashes and "." segments are not allowed; nothing was sent.`,
		);
	const prefix = /^\/api\/v\d+(?=\/|$)/i.exec(path);
	if (prefix)
		fail(
			item,
			`"Path" must not start with the version prefix (${prefix[0]})`,
			`${help} Pick the version under "API Version".`,
		);
	return path;
}

function queryOf(item: Item) {
	const rows = collectionParameter(item, 'queryParameters').parameters ?? [];
	const qs: IDataObject = {};
	for (const { name, value } of rows as IDataObject[]) {
		const key = String(name ?? '').trim();
		if (key !== '') qs[key] = value ?? '';
	}
	return qs;
}

function bodyOf(item: Item, method: string) {
	const body = parseJson(
		item,
		item.context.getNodeParameter('jsonBody', item.index, ''),
		'JSON Body',
	);
	if (body === undefined || body === null) return undefined;
	if (typeof body !== 'object')
		fail(
			item,
			'"JSON Body" must be a JSON object or array',
			'Enter a JSON object such as {"name": "Jane Doe"}.',
		);
	if (method === 'DELETE' && isPlainObject(body) && Object.keys(body).length === 0)
		return undefined;
	return body as IDataObject | IDataObject[];
}

/** A list (a page's records) gives one item per entry; nothing at all, `success`. */
function toOutput(response: unknown) {
	if ((response ?? '') === '' || (isPlainObject(response) && Object.keys(response).length === 0))
		return [{ json: { success: true } }];
	return (Array.isArray(response) ? response : [response]).map((record) => ({
		json: isPlainObject(record) ? record : { value: record },
	}));
}

/** Every later page must have the first answer's shape; a given `cursor` is where it starts. */
async function paginated(item: Item, path: string, version: ApiVersion, query: IDataObject) {
	const { limit = Infinity } = pageRequestOf(item);
	const { cursor, ...qs } = query;
	const records: IDataObject[] = [];
	const pages = readPages.call(
		item.context,
		{
			path,
			version,
			qs,
			shape: 'any',
			itemIndex: item.index,
			startCursor: filledText(cursor),
			otherOnFirstPage: true,
			narrow:
				'Narrow the list with query parameters the endpoint filters by, or set "Limit" instead of "Return All".',
		},
		() => limit - records.length,
	);
	for await (const page of pages) {
		if ('other' in page) return toOutput(page.other);
		records.push(...page.records);
		if (records.length >= limit) break;
	}
	return toOutput(records.slice(0, limit));
}

export async function execute(this: IExecuteFunctions, item: Item) {
	const method = requireOneOf(item, this.getNodeParameter('method', item.index), METHODS, 'Method');
	const version = requireOneOf(
		item,
		this.getNodeParameter('apiVersion', item.index, 'v1'),
		['V1', 'V2'],
		'API Version',
	).toLowerCase() as ApiVersion;
	const path = pathOf(item);
	const qs = queryOf(item);

	if (method === 'GET' && this.getNodeParameter('paginate', item.index, false))
		return await paginated(item, path, version, qs);

	const body = method === 'GET' ? undefined : bodyOf(item, method);
	return toOutput(
		await apiRequest.call(this, { method, path, version, qs, body, itemIndex: item.index }),
	);
}

/** Builders the action node's unit tests share (test/unit/actions/, test/unit/output/): answers, pages, parameters. */
import type { IDataObject, INodeParameters, ResourceMapperField } from 'n8n-workflow';

import { api, logging } from '../unit/actions/support';
import type { SeenRequest } from '../unit/actions/support';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/**
 * Answers `times` requests `method path` with `status` and `body`; returns the requests, as nock saw them (in `log`
 * when given, so that one list holds the requests of several interceptors in order).
 */
export function answer(
	method: Method,
	path: string | RegExp,
	body?: unknown,
	options: { status?: number; times?: number; log?: SeenRequest[] } = {},
): SeenRequest[] {
	const seen = options.log ?? [];
	const interceptor = api()[method](path);
	interceptor.times(options.times ?? 1).reply(logging(seen, options.status ?? 200, body));
	return seen;
}

/** The request bodies, in order. */
export const bodies = (seen: SeenRequest[]): unknown[] => seen.map((request) => request.body);

/** `METHOD path` of each request, in order. */
export const calls = (seen: SeenRequest[]): string[] =>
	seen.map((request) => `${request.method} ${request.path}`);

/** One page of a v1 list (`items`, `hasMore`, `nextCursor`); the last page when there is no `next`. */
export const v1Page = (items: unknown[], next?: string): IDataObject => ({
	items,
	hasMore: next !== undefined,
	nextCursor: next ?? null,
});

/** One page of a v2 list (`data`, `meta`). */
export const v2Page = (data: unknown[], next?: string): IDataObject => ({
	data,
	meta: { hasMore: next !== undefined, nextCursor: next ?? null },
});

/**
 * Answers GET `path` with one v1 page per entry of `pages`, in order; each page but the last hands on the cursor
 * `c<n>` (n its next page's number), which the next request must carry. With `query`, every request must carry it
 * too. Pages are v1 pages unless `page` builds them (as v2Page does). Returns the requests (into `log` when given).
 */
export function servePages(
	path: string,
	pages: unknown[][],
	options: {
		query?: Record<string, string>;
		log?: SeenRequest[];
		page?: (items: unknown[], next?: string) => IDataObject;
	} = {},
): SeenRequest[] {
	const seen = options.log ?? [];
	const scope = api();
	pages.forEach((items, index) => {
		const cursor = index === 0 ? {} : { cursor: `c${index + 1}` };
		const next = index < pages.length - 1 ? `c${index + 2}` : undefined;
		const interceptor = scope.get(path);
		if (options.query) interceptor.query({ ...options.query, ...cursor });
		else interceptor.query(true);
		interceptor.reply(logging(seen, 200, (options.page ?? v1Page)(items, next)));
	});
	return seen;
}

/** The query of each request, as an object of texts. */
export const queries = (seen: SeenRequest[]): Array<Record<string, string>> =>
	seen.map((request) => Object.fromEntries(new URL(request.path, 'http://x').searchParams));

/** Invoice → Create with its required fields (no line items), and `more`. */
export const invoiceCreate = (more: IDataObject = {}): INodeParameters =>
	({
		resource: 'invoice',
		operation: 'create',
		clientId: 'cli_1',
		date: '2026-03-01',
		dueDate: '2026-03-31',
		...more,
	}) as INodeParameters;

/** The fields Deal → Create requires. */
export const DEAL_REQUIRED = {
	title: 'T',
	pipelineId: 'pip_1',
	stageId: 'stg_1',
	clientId: 'cli_1',
};

/** Deal → Create with the required fields, and `more`. */
export const dealCreate = (more: IDataObject = {}): INodeParameters =>
	({ resource: 'deal', operation: 'create', ...DEAL_REQUIRED, ...more }) as INodeParameters;

/** A custom field of the mapper's schema, as the editor saved it (no `type`: untyped). */
export const customField = (
	key: string,
	type?: ResourceMapperField['type'],
): ResourceMapperField => ({
	id: `customFields.${key}`,
	displayName: `${key} (custom field)`,
	type,
	required: false,
	defaultMatch: false,
	display: true,
});

/** The mapper's `columns` value as the editor saves it; Map Automatically when `auto`, converting types when `convert`. */
export function mapperColumns(
	value: IDataObject | null,
	schema: ResourceMapperField[],
	options: { auto?: boolean; convert?: boolean } = {},
): INodeParameters {
	return {
		mappingMode: options.auto ? 'autoMapInputData' : 'defineBelow',
		value,
		matchingColumns: [],
		schema,
		attemptToConvertTypes: options.convert ?? false,
		convertFieldsToString: false,
	} as unknown as INodeParameters;
}

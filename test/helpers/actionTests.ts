/** A v1 list served page by page, for the action node's unit tests (test/unit/actions/). */
import { api, logging } from '../unit/actions/support';
import type { SeenRequest } from '../unit/actions/support';
import { v1Page } from './actions';
import type { IDataObject } from 'n8n-workflow';

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

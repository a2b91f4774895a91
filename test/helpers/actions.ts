/** Builders the action node's unit tests share (test/unit/actions/, test/unit/output/). */
import type { IDataObject } from 'n8n-workflow';

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

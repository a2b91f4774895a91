/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
import { PassThrough } from 'node:stream';

import { deepCopy } from 'n8n-workflow';

/**
 * The sandbox's leads as 100-record pages (fetched once), and an n8n context whose request helper hands them back as
 * streams, by cursor, with no network: what `bench/profileReturnAll.ts` and `bench/pathAgainstRelease.ts` feed the
 * transport's path. Its getNode() deep-copies the node, as n8n's does.
 */
export async function fakeListContext(base: string, key: string) {
	const pages: Buffer[] = [];
	const cursors = new Map<string, number>();
	for (let url: string | undefined = `${base}/api/v1/leads?limit=100`; url; ) {
		const bytes = Buffer.from(
			await (await fetch(url, { headers: { 'x-api-key': key } })).arrayBuffer(),
		);
		const { hasMore, nextCursor } = JSON.parse(bytes.toString('utf8')) as Record<string, string>;
		pages.push(bytes);
		if (hasMore) cursors.set(nextCursor!, pages.length);
		url = hasMore
			? `${base}/api/v1/leads?limit=100&cursor=${encodeURIComponent(nextCursor!)}`
			: undefined;
	}
	const send = async (_type: string, options: { qs?: { cursor?: string } }) => {
		const body = new PassThrough();
		const page = pages[options.qs?.cursor ? cursors.get(options.qs.cursor)! : 0]!;
		body.end(page);
		const headers = { 'content-type': 'application/json', 'content-length': String(page.length) };
		return { statusCode: 200, statusMessage: 'OK', headers, body };
	};
	const node = {
		id: 'n',
		name: 'CRM Invoicing',
		type: 'crmInvoicing',
		typeVersion: 1,
		parameters: {},
	};
	const cancel = new AbortController().signal;
	/** A fresh context per run, as n8n gives each execution its own. */
	const context = () => ({
		getNode: () => deepCopy(node),
		getCredentials: async () => ({ baseUrl: base, apiKey: key, requestsPerMinute: 1e6 }),
		getExecutionCancelSignal: () => cancel,
		helpers: { httpRequestWithAuthentication: send },
	});
	return { pages, send, context };
}

/**
 * The action node's output items for one input item's records, as actions/router.ts builds them: one shared
 * pairedItem. What the in-process benchmarks add after the transport's path.
 */
export function routerItems(records: unknown[]) {
	const pairedItem = { item: 0 };
	return records.map((json) => ({ json, pairedItem }));
}

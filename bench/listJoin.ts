/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * `node --expose-gc --import tsx bench/listJoin.ts` (or `npx tsx bench/listJoin.ts`, with noisier heap figures): the one list reader (nodes/CrmInvoicing/shared/transport/pagination.ts, readList) reading a
 * list of N records through the real transport, against a fake n8n context that answers every page from memory (no
 * network, so the figures are the node's own time and memory). Two servers: one that honours `limit=100`, and one that
 * ignores it and answers pages of 10,000 records. For each, the time to read, the heap held after the read, and
 * whether 0.2's join of Custom API Request → Paginate (`records.push(...more)`) survives the same number of records.
 * Median of 3 runs. Prints the table and writes it, with date, machine and Node.js version, to
 * bench/LIST-JOIN-RESULTS.md.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { LIST } from '../nodes/CrmInvoicing/shared/transport/limits';
import { readList } from '../nodes/CrmInvoicing/shared/transport';
import type { ApiContext } from '../nodes/CrmInvoicing/shared/transport';

const node = {
	id: 'bench',
	name: 'CRM Invoicing',
	type: 'crmInvoicing',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** A context whose every request is answered from a list of `total` records, `pageSize` per page (ignoring limit when set). */
function fakeContext(
	total: number,
	ignoreLimitPageSize?: number,
): { context: ApiContext; requests: () => number } {
	let requests = 0;
	const context = {
		getNode: () => node,
		getCredentials: async () => ({
			baseUrl: 'https://crm.bench',
			apiKey: `sk_bench_${Math.random()}`,
			requestsPerMinute: 1_000_000_000,
		}),
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
				requests++;
				const qs = (options.qs ?? {}) as IDataObject;
				const start = typeof qs.cursor === 'string' ? Number(qs.cursor) : 0;
				const size = ignoreLimitPageSize ?? Number(qs.limit);
				const end = Math.min(total, start + size);
				const items: IDataObject[] = [];
				for (let n = start; n < end; n++)
					items.push({ id: `lead_${n + 1}`, name: `Lead ${n + 1}`, archived: false });
				const more = end < total;
				return {
					statusCode: 200,
					headers: { 'content-type': 'application/json' },
					body: { items, hasMore: more, nextCursor: more ? String(end) : null },
				};
			},
		},
	};
	return { context: context as unknown as ApiContext, requests: () => requests };
}

/** 0.2's join: the first page's records, then `push(...more)` of all the rest at once. */
function joinAsIn02(total: number): string {
	const records: IDataObject[] = Array.from({ length: Math.min(100, total) }, (_, n) => ({
		id: `lead_${n + 1}`,
	}));
	const more: IDataObject[] = Array.from({ length: Math.max(0, total - 100) }, (_, n) => ({
		id: `lead_${n + 101}`,
	}));
	try {
		records.push(...more);
		return 'ok';
	} catch (error) {
		return `fails: ${(error as Error).message}`;
	}
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

async function measure(
	total: number,
	ignoreLimitPageSize?: number,
	maxRecords?: number,
): Promise<string> {
	const times: number[] = [];
	const heaps: number[] = [];
	let outcome = '';
	let requests = 0;
	for (let run = 0; run < 3; run++) {
		global.gc?.();
		const fake = fakeContext(total, ignoreLimitPageSize);
		global.gc?.();
		const heapBefore = process.memoryUsage().heapUsed;
		const started = performance.now();
		try {
			const records = await readList.call(
				fake.context,
				{ path: '/leads', maxRecords },
				{ returnAll: true },
			);
			outcome = `${records.length.toLocaleString('en-US')} records`;
			times.push(performance.now() - started);
			heaps.push(process.memoryUsage().heapUsed - heapBefore);
			if (records.length < 0) console.log('unreachable');
		} catch (error) {
			times.push(performance.now() - started);
			heaps.push(process.memoryUsage().heapUsed - heapBefore);
			outcome = `error: ${(error as Error).message.slice(0, 90)}`;
		}
		requests = fake.requests();
	}
	const server = ignoreLimitPageSize
		? `ignores limit (pages of ${ignoreLimitPageSize.toLocaleString('en-US')})`
		: 'limit=100';
	const cap = (maxRecords ?? LIST.maxRecords).toLocaleString('en-US');
	return `| ${total.toLocaleString('en-US')} | ${server} | ${cap}${maxRecords ? ' (raised: ListSpec.maxRecords)' : ''} | ${requests} | ${median(times).toFixed(0)} | ${(median(heaps) / 1024 / 1024).toFixed(0)} | ${outcome} | ${joinAsIn02(Math.min(total, 1_000_000))} |`;
}

async function main(): Promise<void> {
	const lines = [
		'| Records on the server | Server | Record cap | Requests | Reader (ms) | Heap after (MB) | Reader outcome | 0.2 join of as many |',
		'|---|---|---|---|---|---|---|---|',
	];
	for (const line of lines) console.log(line);
	const cases: Array<[number, number | undefined, number | undefined]> = [
		[10_000, undefined, undefined],
		[100_000, undefined, undefined],
		[150_000, undefined, undefined],
		[150_000, undefined, 1_000_000],
		[500_000, 10_000, 1_000_000],
		[100_000, 10_000, undefined],
		[1_000_000, 10_000, undefined],
	];
	for (const [total, pageSize, maxRecords] of cases) {
		const line = await measure(total, pageSize, maxRecords);
		lines.push(line);
		console.log(line);
	}
	const file = path.join(__dirname, 'LIST-JOIN-RESULTS.md');
	writeFileSync(
		file,
		[
			'# The one list reader: joining and capping lists',
			'',
			`Measured ${new Date().toISOString()} on ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'} (load ${loadavg()[0].toFixed(2)}), Node.js ${process.version}, with \`node --expose-gc --import tsx bench/listJoin.ts\`.`,
			"The server is a fake n8n context answering from memory (no network); the reader and transport are the package's own. Median of 3 runs.",
			"The reader's cap is LIST.maxRecords (100,000 records): past it the list fails with the narrowing error and holds nothing more.",
			'"0.2 join" is Custom API Request → Paginate\'s `records.push(...more)` of 0.2 on the same number of records (at most 1,000,000).',
			'',
			...lines,
			'',
		].join('\n'),
	);
	console.log(`written to ${file}`);
}

void main();

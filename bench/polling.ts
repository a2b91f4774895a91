/**
 * What an idle poll of the CRM Invoicing Polling Trigger costs with 10,000 leads: the requests it makes and the time
 * it takes, listed newest first and oldest first, with New Lead only and with Updated Lead. The node runs in
 * n8n-core's real PollContext (test/helpers/harness.ts) against the sandbox in this process (no rate limit, so the
 * figures are the node's and the sandbox's own work, not the API's pacing; at the API's 60 requests a minute every
 * request above also costs a second of waiting).
 *
 *   npm run build && npx tsx bench/polling.ts [leads=10000] [runs=7]
 *
 * Writes bench/POLLING-RESULTS.md (medians and min–max of the runs) when run with the defaults, else prints only.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import type { CrmInvoicingPollingTrigger as PollingTrigger } from '../nodes/CrmInvoicingPollingTrigger/CrmInvoicingPollingTrigger.node';
import { createPollContext } from '../test/helpers/harness';
import { startSandbox, type ListOrder } from '../test/sandbox/server';

const LEADS = Number(process.argv[2] ?? 10_000);
const RUNS = Number(process.argv[3] ?? 7);
// The built node (`npm run build`), as n8n loads it. (tsx would resolve the source's `.node` import to the codex JSON.)
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { CrmInvoicingPollingTrigger } = require('../dist/nodes/CrmInvoicingPollingTrigger/CrmInvoicingPollingTrigger.node.js') as { CrmInvoicingPollingTrigger: typeof PollingTrigger };
const trigger = new CrmInvoicingPollingTrigger();

interface Row {
	order: ListOrder;
	events: string;
	requests: number[];
	ms: number[];
	firstPollMs: number;
	memoryBytes: number;
}

const median = (values: number[]) => {
	const sorted = values.slice().sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
};
const spread = (values: number[], digits = 0) => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

async function main(): Promise<void> {
	const sandbox = await startSandbox({ rateLimit: false, seedLeads: LEADS - 3 });
	const credentials = { baseUrl: sandbox.url, apiKey: sandbox.keys.admin, requestsPerMinute: 1_000_000 };
	const rows: Row[] = [];
	try {
		for (const order of ['newest', 'oldest'] as ListOrder[]) {
			sandbox.setListOrder(order);
			for (const events of [['newLead'], ['newLead', 'updatedLead']]) {
				const memory: IDataObject = {};
				const pollOnce = async (): Promise<{ requests: number; ms: number }> => {
					const { context } = createPollContext({ nodeType: trigger, parameters: { events, simplify: true }, credentials, staticData: memory });
					const before = sandbox.requests.length;
					const started = performance.now();
					const output = await trigger.poll.call(context);
					const ms = performance.now() - started;
					if (output !== null) throw new Error('an idle poll emitted items');
					return { requests: sandbox.requests.length - before, ms };
				};
				const first = await pollOnce();
				await pollOnce(); // warm-up
				const requests: number[] = [];
				const ms: number[] = [];
				for (let run = 0; run < RUNS; run++) {
					const result = await pollOnce();
					requests.push(result.requests);
					ms.push(result.ms);
				}
				rows.push({ order, events: events.join(' + '), requests, ms, firstPollMs: first.ms, memoryBytes: Buffer.byteLength(JSON.stringify(memory)) });
				console.log(`${order} first, ${events.join(' + ')}: requests ${median(requests)}, ${median(ms).toFixed(1)} ms per idle poll`);
			}
		}
	} finally {
		await sandbox.close();
	}

	const lines = [
		'# Polling trigger: an idle poll with 10,000 leads',
		'',
		`\`npx tsx bench/polling.ts\` (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores, load average ${os
			.loadavg()
			.map((load) => load.toFixed(1))
			.join(' ')}). The node in n8n-core's real PollContext, the sandbox CRM in the same process without a rate`,
		'limit; each idle poll follows a first poll that remembered the leads. Medians of ' + `${RUNS} runs (min–max).`,
		'Time is the whole poll as the node sees it: its requests (answered by the in-process sandbox) and its comparison.',
		'At the API\'s documented 60 requests a minute each request also costs about one second of pacing.',
		'',
		'| List order | Events | Requests per idle poll | Time per idle poll, ms | First poll, ms | Memory (static data) |',
		'|---|---|---|---|---|---|',
		...rows.map(
			(row) =>
				`| ${row.order} first | ${row.events} | ${median(row.requests)} (${spread(row.requests)}) | ${median(row.ms).toFixed(1)} (${spread(row.ms, 1)}) | ${row.firstPollMs.toFixed(0)} | ${(row.memoryBytes / 1024).toFixed(0)} KB |`,
		),
		'',
		'Newest first with New Lead only, an idle poll reads the first page and proves from it that nothing below is new',
		'(1 request). Oldest first, or with Updated Lead (and Archived Lead, which reads the same), every lead is compared:',
		'ceil(10,000 / 100) = 100 requests.',
		'',
	];
	if (LEADS === 10_000 && RUNS === 7) {
		writeFileSync(path.join(__dirname, 'POLLING-RESULTS.md'), lines.join('\n'));
		console.log('written to bench/POLLING-RESULTS.md');
	} else console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});

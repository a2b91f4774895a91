/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * What an idle poll of the CRM Invoicing Polling Trigger costs with 10,000 leads: the requests it makes and the time
 * it takes, listed newest first and oldest first, with New Lead only and with Updated Lead. The node runs in
 * n8n-core's real PollContext (test/helpers/harness.ts) against the sandbox in this process (no rate limit, so the
 * figures are the node's and the sandbox's own work, not the API's pacing; at the API's 60 requests a minute every
 * request above also costs a second of waiting).
 *
 *   npm run build && npx tsx bench/polling.ts [leads=10000] [runs=7] [cap=50000]
 *
 * Then the requests of each poll over an hour of polls a minute apart (the periodic full read of Full Read Interval
 * included), and the node's memory at the cap of 50,000 leads with the spec's fields and with 40 or more fields.
 *
 * Writes bench/POLLING-RESULTS.md (medians and min–max of the runs) when run with the defaults, else prints only.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import type { CrmInvoicingPollingTrigger as PollingTrigger } from '../nodes/CrmInvoicing/CrmInvoicingPollingTrigger.node';
import { createPollContext } from '../test/helpers/harness';
import { startSandbox, type ListOrder } from '../test/sandbox/server';

const LEADS = Number(process.argv[2] ?? 10_000);
const RUNS = Number(process.argv[3] ?? 7);
/** The polling trigger's cap on leads (POLLING.maxLeads), for the memory figures. */
const CAP = Number(process.argv[4] ?? 50_000);
// The built node (`npm run build`), as n8n loads it. (tsx would resolve the source's `.node` import to the codex JSON.)
const { CrmInvoicingPollingTrigger } =
	require('../dist/nodes/CrmInvoicing/CrmInvoicingPollingTrigger.node.js') as {
		CrmInvoicingPollingTrigger: typeof PollingTrigger;
	};
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
const spread = (values: number[], digits = 0) =>
	`${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

/** Static data of the node after a first poll of `leads` leads carrying `extraFields` fields beyond the spec's. */
async function memoryAtCap(leads: number, extraFields: number): Promise<number> {
	const sandbox = await startSandbox({ rateLimit: false, seedLeads: leads - 3 });
	try {
		for (const lead of sandbox.state.leads.values() as unknown as IDataObject[]) {
			for (let field = 0; field < extraFields; field++)
				lead[`custom_${field}`] = `value ${field} of ${String(lead.id)}`;
		}
		const credentials = {
			baseUrl: sandbox.url,
			apiKey: sandbox.keys.admin,
			requestsPerMinute: 1_000_000,
		};
		const memory: IDataObject = {};
		const { context } = createPollContext({
			nodeType: trigger,
			parameters: { events: ['newLead'], simplify: true },
			credentials,
			staticData: memory,
		});
		await trigger.poll.call(context);
		return Buffer.byteLength(JSON.stringify(memory));
	} finally {
		await sandbox.close();
	}
}

/**
 * Requests of each poll over an hour of polls a minute apart (Full Read Interval 60 minutes): the clock of the
 * node's memory is moved back a minute before each poll, as if a minute had passed.
 */
async function hourOfPolls(
	sandbox: Awaited<ReturnType<typeof startSandbox>>,
	events: string[],
	credentials: ICredentialDataDecryptedObject,
): Promise<number[]> {
	const memory: IDataObject = {};
	const pollOnce = async (): Promise<number> => {
		const { context } = createPollContext({
			nodeType: trigger,
			parameters: { events, simplify: true },
			credentials,
			staticData: memory,
		});
		const before = sandbox.requests.length;
		await trigger.poll.call(context);
		return sandbox.requests.length - before;
	};
	await pollOnce(); // the first poll, at activation
	const requests: number[] = [];
	for (let minute = 1; minute <= 60; minute++) {
		memory.fullAt = (memory.fullAt as number) - 60_000;
		requests.push(await pollOnce());
	}
	return requests;
}

async function main(): Promise<void> {
	const sandbox = await startSandbox({ rateLimit: false, seedLeads: LEADS - 3 });
	const credentials = {
		baseUrl: sandbox.url,
		apiKey: sandbox.keys.admin,
		requestsPerMinute: 1_000_000,
	};
	const rows: Row[] = [];
	const hours: Array<{ order: ListOrder; events: string; requests: number[] }> = [];
	try {
		for (const order of ['newest', 'oldest'] as ListOrder[]) {
			sandbox.setListOrder(order);
			for (const events of [['newLead'], ['newLead', 'updatedLead']]) {
				const memory: IDataObject = {};
				const pollOnce = async (): Promise<{ requests: number; ms: number }> => {
					const { context } = createPollContext({
						nodeType: trigger,
						parameters: { events, simplify: true },
						credentials,
						staticData: memory,
					});
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
				rows.push({
					order,
					events: events.join(' + '),
					requests,
					ms,
					firstPollMs: first.ms,
					memoryBytes: Buffer.byteLength(JSON.stringify(memory)),
				});
				console.log(
					`${order} first, ${events.join(' + ')}: requests ${median(requests)}, ${median(ms).toFixed(1)} ms per idle poll`,
				);
			}
		}
		for (const order of ['newest', 'oldest'] as ListOrder[]) {
			sandbox.setListOrder(order);
			for (const events of [['newLead'], ['newLead', 'updatedLead']]) {
				const requests = await hourOfPolls(sandbox, events, credentials);
				hours.push({ order, events: events.join(' + '), requests });
				console.log(
					`${order} first, ${events.join(' + ')}: ${requests.reduce((sum, n) => sum + n, 0)} requests in an hour of polls`,
				);
			}
		}
	} finally {
		await sandbox.close();
	}
	const memoryRows: Array<{ fields: string; bytes: number }> = [];
	for (const [fields, extra] of [
		["the spec's 14", 0],
		['14 + 26 (40)', 26],
		['14 + 40 (54)', 40],
	] as Array<[string, number]>) {
		const bytes = await memoryAtCap(CAP, extra);
		memoryRows.push({ fields, bytes });
		console.log(`memory at ${CAP} leads with ${fields} fields: ${(bytes / 1e6).toFixed(2)} MB`);
	}

	const lines = [
		'# Polling trigger: an idle poll with 10,000 leads',
		'',
		`\`npx tsx bench/polling.ts\` (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores, load average ${os
			.loadavg()
			.map((load) => load.toFixed(1))
			.join(
				' ',
			)}). The node in n8n-core's real PollContext, the sandbox CRM in the same process without a rate`,
		'limit; each idle poll follows a first poll that remembered the leads. Medians of ' +
			`${RUNS} runs (min–max).`,
		'Time is the whole poll as the node sees it: its requests (answered by the in-process sandbox) and its comparison.',
		"At the API's documented 60 requests a minute each request also costs about one second of pacing.",
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
		'## Requests per poll over an hour, the periodic full read included',
		'',
		"Polls a minute apart for an hour (the node's memory is moved back a minute before each poll), Full Read Interval",
		'60 minutes (the default), the same 10,000 leads, nothing new. With New Lead alone on a newest-first list one poll an',
		'hour reads the whole list, to find leads listed out of order (an import that keeps old creation dates).',
		'',
		'| List order | Events | Requests in an hour | Average per poll | Most in one poll | Polls that read everything |',
		'|---|---|---|---|---|---|',
		...hours.map((row) => {
			const total = row.requests.reduce((sum, n) => sum + n, 0);
			const most = Math.max(...row.requests);
			return `| ${row.order} first | ${row.events} | ${total} | ${(total / row.requests.length).toFixed(2)} | ${most} | ${row.requests.filter((n) => n === most).length} of ${row.requests.length} |`;
		}),
		'',
		"The figures are requests, measured without a rate limit. At the API's 60 requests a minute the trigger sends at",
		'most 30 in any minute (half the key): a poll of 100 requests takes about 3 minutes (30 at once, then 30, 30 and 10',
		'a minute apart), and poll times that fall in it are skipped, so once an hour a newest-first New Lead trigger emits',
		'its new leads up to about 3 minutes later. Polls a minute apart that read everything (oldest first, or Updated',
		'Lead) take about 3 minutes each there: n8n skips the poll times that come meanwhile (each logged), so such a',
		'trigger reads the list about every 4 minutes.',
		'',
		`## Memory at the cap (${CAP.toLocaleString('en-US')} leads)`,
		'',
		"The node's static data (JSON, as n8n stores it) after a first poll of the cap's number of leads, by the fields",
		"each lead has. A fingerprint is 1 + 8 characters, plus 2 per field slot (at most 40 slots), plus the lead's id.",
		'',
		'| Fields per lead | Static data | Per lead |',
		'|---|---|---|',
		...memoryRows.map(
			(row) =>
				`| ${row.fields} | ${(row.bytes / 1e6).toFixed(1)} MB (${(row.bytes / 1024 / 1024).toFixed(1)} MiB) | ${Math.round(row.bytes / CAP)} bytes |`,
		),
		'',
	];
	if (LEADS === 10_000 && RUNS === 7 && CAP === 50_000) {
		writeFileSync(path.join(__dirname, 'POLLING-RESULTS.md'), lines.join('\n'));
		console.log('written to bench/POLLING-RESULTS.md');
	} else console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});

/**
 * `npm run build && npx tsx bench/signatureHeader.ts [--runtime compat]`: issue 17's crafted-header case against a
 * real n8n. 30 deliveries whose `webhook-signature` is 16,000 characters of commas ending in one base64 character
 * are sent to an active CRM Invoicing Trigger, 10 at a time, while `GET /healthz` is timed every 25 ms. Reported:
 * the answers to the crafted deliveries, their latency, and /healthz's latency throughout (issue 17 asks < 200 ms).
 * In-process, the parse of the same header by this package (linear scanner, capped) and by 0.2's patterns (kept here
 * as the reference) is timed too.
 * Prints the figures and writes them, with date, machine and Node.js version, to bench/SIGNATURE-RESULTS.md.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';

import { readSignatureEntries, verifyWebhookSignature } from '../nodes/CrmInvoicingTrigger/signature';
import { ROOT, type RuntimeName } from '../scripts/lib/runtime';
import { startStack } from '../scripts/lib/stack';

const DELIVERIES = 30;
const CONCURRENCY = 10;
const HEADER_LENGTH = 16_000;
const HEALTH_EVERY_MS = 25;
const CRAFTED = `${','.repeat(HEADER_LENGTH - 1)}A`;

/** 0.2's entry splitting, kept as the reference: its last pattern backtracks quadratically on runs of commas. */
function referenceEntries(header: string): string[] {
	return header
		.split(/\s+/)
		.flatMap((token) => token.split(/,(?=v\d+[a-z]*,)/))
		.map((token) => token.replace(/^(v\d+[a-z]*,.+?),+$/, '$1'))
		.filter((token) => token !== '');
}

const percentile = (values: number[], p: number) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

function timeMs(run: () => unknown, runs = 5): number {
	const times: number[] = [];
	for (let n = 0; n < runs; n++) {
		const started = performance.now();
		run();
		times.push(performance.now() - started);
	}
	return percentile(times, 50);
}

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const runtimeIndex = args.indexOf('--runtime');
	const runtime = (runtimeIndex >= 0 ? args[runtimeIndex + 1] : 'current') as RuntimeName;

	// In-process: the header as 0.2 parsed it ("v1," first, so that its last pattern applies) and as this package does.
	const reference = `v1,${CRAFTED}`;
	const oursMs = timeMs(() => verifyWebhookSignature({
		secret: `whsec_${Buffer.from('bench-secret-bench-secret-bench!').toString('base64')}`,
		headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': reference },
		rawBody: '{}',
	}));
	const scanMs = timeMs(() => readSignatureEntries(reference, Infinity));
	const referenceMs = timeMs(() => referenceEntries(reference), 1);

	const stack = await startStack({
		runtime,
		userFolder: path.join(ROOT, '.tmp', `bench-signature-${runtime}`),
		fresh: true,
		n8nPort: Number(process.env.BENCH_N8N_PORT ?? 5764),
		sandbox: { port: 0, rateLimit: false, timeScale: 0.001 },
	});
	const health: number[] = [];
	const statuses = new Map<number, number>();
	const latencies: number[] = [];
	try {
		const credential = stack.credentials.admin;
		const webhookId = randomUUID();
		const { id } = await stack.client.createWorkflow({
			name: 'bench: crafted signature header',
			nodes: [
				{
					id: randomUUID(),
					name: 'CRM Invoicing Trigger',
					type: 'n8n-nodes-crm-invoicing.crmInvoicingTrigger',
					typeVersion: 1,
					position: [0, 0],
					webhookId,
					parameters: { events: ['lead.created'], options: {} },
					credentials: { crmInvoicingApi: { id: credential.id, name: credential.name } },
				},
			],
			connections: {},
		});
		await stack.client.activate(id);
		const url = `${stack.n8n.url}/webhook/${webhookId}/webhook`;

		let sending = true;
		const probe = (async () => {
			while (sending) {
				const started = performance.now();
				await fetch(`${stack.n8n.url}/healthz`).then((response) => response.arrayBuffer());
				health.push(performance.now() - started);
				await new Promise((resolve) => setTimeout(resolve, HEALTH_EVERY_MS));
			}
		})();
		// A baseline second of /healthz before the deliveries.
		await new Promise((resolve) => setTimeout(resolve, 1_000));
		const baseline = health.length;
		let next = 0;
		const worker = async () => {
			while (next < DELIVERIES) {
				next++;
				const started = performance.now();
				const response = await fetch(url, {
					method: 'POST',
					headers: {
						'content-type': 'application/json',
						'webhook-id': `msg_bench_${randomUUID()}`,
						'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
						'webhook-signature': CRAFTED,
					},
					body: JSON.stringify({ event: 'lead.created', payload: { id: 'lead_bench' } }),
				});
				await response.arrayBuffer();
				latencies.push(performance.now() - started);
				statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
			}
		};
		await Promise.all(Array.from({ length: CONCURRENCY }, worker));
		await new Promise((resolve) => setTimeout(resolve, 500));
		sending = false;
		await probe;

		const during = health.slice(baseline);
		const lines = [
			'# Crafted `webhook-signature` header (issue 17)',
			'',
			`Measured ${new Date().toISOString()} on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'} (load ${loadavg().map((l) => l.toFixed(2)).join(' ')}), Node.js ${process.version} (bench), n8n ${stack.runtime.n8nVersion}.`,
			`Reproduce: \`npm run build && npx tsx bench/signatureHeader.ts${runtime === 'current' ? '' : ` --runtime ${runtime}`}\`.`,
			'',
			`${DELIVERIES} deliveries, ${CONCURRENCY} at a time, each with a ${HEADER_LENGTH.toLocaleString('en')}-character \`webhook-signature\` of commas ending in one base64 character, to an active trigger; \`GET /healthz\` timed every ${HEALTH_EVERY_MS} ms throughout.`,
			'',
			'| Figure | Value |',
			'|---|---|',
			`| Answers to the crafted deliveries | ${[...statuses].map(([status, count]) => `${count} × ${status}`).join(', ')} |`,
			`| Crafted delivery latency, median / max (ms) | ${percentile(latencies, 50).toFixed(1)} / ${Math.max(...latencies).toFixed(1)} |`,
			`| /healthz before, median (ms), ${baseline} samples | ${percentile(health.slice(0, baseline), 50).toFixed(1)} |`,
			`| /healthz during, median / p95 / max (ms), ${during.length} samples | ${percentile(during, 50).toFixed(1)} / ${percentile(during, 95).toFixed(1)} / ${Math.max(...during).toFixed(1)} |`,
			`| Issue 17's bound: /healthz < 200 ms throughout | ${Math.max(...during) < 200 ? 'met' : 'NOT met'} |`,
			'',
			`In-process, the same header with \`v1,\` in front (the shape 0.2's last pattern backtracks on), median of 5 runs:`,
			'',
			'| Parse | ms |',
			'|---|---|',
			`| verifyWebhookSignature (length cap: refused before parsing) | ${oursMs.toFixed(3)} |`,
			`| readSignatureEntries without the cap (linear scan of all ${HEADER_LENGTH.toLocaleString('en')} characters) | ${scanMs.toFixed(3)} |`,
			`| 0.2's patterns (reference, 1 run) | ${referenceMs.toFixed(1)} |`,
			'',
		];
		const text = lines.join('\n');
		console.log(text);
		writeFileSync(path.join(ROOT, 'bench', 'SIGNATURE-RESULTS.md'), text);
		await stack.client.deactivate(id).catch(() => undefined);
	} finally {
		await stack.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});

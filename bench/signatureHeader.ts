/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
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

import {
	readSignatureEntries,
	verifyWebhookSignature,
} from '../nodes/CrmInvoicing/trigger/signature';
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
	const oursMs = timeMs(() =>
		verifyWebhookSignature({
			secret: `whsec_${Buffer.from('bench-secret-bench-secret-bench!').toString('base64')}`,
			headers: {
				'webhook-id': 'msg_1',
				'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
				'webhook-signature': reference,
			},
			rawBody: '{}',
		}),
	);
	const scanMs = timeMs(() => readSignatureEntries(reference, Infinity));
	const referenceMs = timeMs(() => referenceEntries(reference), 1);

	const stack = await startStack({
		runtime,
		userFolder: path.join(ROOT, '.tmp', `bench-signature-${runtime}`),
		fresh: true,
		n8nPort: Number(process.env.BENCH_N8N_PORT ?? 5764),
		sandbox: { port: 0, rateLimit: false, timeScale: 0.001 },
	});
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

		/** 30 deliveries with `signature`, 10 at a time, while /healthz is timed; returns the figures. */
		const phase = async (signature: string) => {
			const health: number[] = [];
			const statuses = new Map<number, number>();
			const latencies: number[] = [];
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
							'webhook-signature': signature,
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
			return {
				answers: [...statuses].map(([status, count]) => `${count} × ${status}`).join(', '),
				latency: `${percentile(latencies, 50).toFixed(1)} / ${Math.max(...latencies).toFixed(1)}`,
				before: `${percentile(health.slice(0, baseline), 50).toFixed(1)} (${baseline})`,
				during: `${percentile(during, 50).toFixed(1)} / ${percentile(during, 95).toFixed(1)} / ${Math.max(...during).toFixed(1)} (${during.length})`,
				max: Math.max(...during),
			};
		};
		// The control: the same deliveries with a short header that is refused as quickly (no v1 entry): what n8n's own
		// handling of 10 concurrent webhook calls costs /healthz on this machine, header parsing aside.
		const control = await phase('v2,AAAA');
		const crafted = await phase(CRAFTED);

		const lines = [
			'# Crafted `webhook-signature` header (issue 17)',
			'',
			`Measured ${new Date().toISOString()} on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'} (load average ${loadavg()
				.map((l) => l.toFixed(2))
				.join(
					' ',
				)}: other test runs shared the machine), Node.js ${process.version} (bench), n8n ${stack.runtime.n8nVersion}.`,
			`Reproduce: \`npm run build && npx tsx bench/signatureHeader.ts${runtime === 'current' ? '' : ` --runtime ${runtime}`}\`.`,
			'',
			`${DELIVERIES} deliveries, ${CONCURRENCY} at a time, to an active trigger, while \`GET /healthz\` is timed every ${HEALTH_EVERY_MS} ms. Crafted: a ${HEADER_LENGTH.toLocaleString('en')}-character \`webhook-signature\` of commas ending in one base64 character. Control: the same deliveries with a 7-character header refused as quickly (no \`v1\` entry).`,
			'',
			'| Figure | Control (short header) | Crafted (16,000 characters) |',
			'|---|---|---|',
			`| Answers | ${control.answers} | ${crafted.answers} |`,
			`| Delivery latency, median / max (ms) | ${control.latency} | ${crafted.latency} |`,
			`| /healthz before, median (ms) (samples) | ${control.before} | ${crafted.before} |`,
			`| /healthz during, median / p95 / max (ms) (samples) | ${control.during} | ${crafted.during} |`,
			`| Issue 17's bound: /healthz < 200 ms throughout | ${control.max < 200 ? 'met' : 'not met'} | ${crafted.max < 200 ? 'met' : 'not met'} |`,
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

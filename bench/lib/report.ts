/** bench/RESULTS.md from the cases' results. */
import type { CaseResult, MetricSummary, VariantResult } from './harness';
import { fmt, formatSummary } from './stats';

export interface Environment {
	date: string;
	command: string;
	cpu: string;
	cores: number;
	memoryGb: number;
	os: string;
	n8nVersion: string;
	n8nNode: string;
	benchNode: string;
	packageVersion: string;
	runs: number;
	durationS: number;
}

const METRIC_LABELS: Record<string, string> = {
	requests: 'Requests to the API',
	rateLimited: 'Responses 429',
	items: 'Leads out',
	wallMs: 'Wall time (webhook call → last node done)',
	nodeMs: "Node time (n8n's executionTime of the fetching nodes)",
	executionMs: 'Execution time (startedAt → stoppedAt)',
	p50Ms: 'Answer time p50',
	p95Ms: 'Answer time p95',
	maxMs: 'Answer time max',
	batchMs: 'Whole batch',
	perSecond: 'Deliveries answered per second',
	answered2xx: 'Answered 2xx (of 200)',
	executions: 'Executions started (of 200)',
	nsPerOp: 'Time per verification',
	peakMb: 'Peak RSS of n8n (VmRSS sampled every 50 ms)',
	deltaMb: 'Sampled peak above the RSS before the run',
	baselineMb: 'RSS before the run',
	hwmMb: 'Peak RSS (kernel VmHWM, reset before the run)',
	hwmDeltaMb: 'VmHWM above the RSS before the run',
};

function formatterFor(unit: MetricSummary['unit']): (value: number) => string {
	switch (unit) {
		case 'ms':
			return fmt.ms;
		case 'MB':
			return fmt.mb;
		case 'ns':
			return fmt.ns;
		default:
			return (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));
	}
}

function cell(variant: VariantResult | undefined, metric: string): string {
	const summary = variant?.metrics[metric];
	if (!summary) return '—';
	return formatSummary(summary, formatterFor(summary.unit));
}

function ratio(a: VariantResult | undefined, b: VariantResult | undefined, metric: string): string {
	const x = a?.metrics[metric]?.median;
	const y = b?.metrics[metric]?.median;
	if (x === undefined || y === undefined || !Number.isFinite(x) || !Number.isFinite(y) || y === 0)
		return '—';
	return fmt.ratio(x / y);
}

interface SummaryRow {
	metric: string;
	/** Our variant's key (default `ours`). */
	ours?: string;
	/** The reference variant's key, or a fixed number from the case (e.g. a floor). */
	reference: string | ((result: CaseResult) => number);
	referenceName: string;
	/** Row label when it differs from the metric's. */
	label?: string;
	/** No ratio where one would mislead (e.g. against a run that failed). */
	noRatio?: boolean;
}

const HTTP = 'HTTP Request + Split Out';

/** Which metrics of each case go into the summary table, ours against which reference. */
const SUMMARY: Record<string, SummaryRow[]> = {
	'1': [
		{ metric: 'requests', reference: 'httpRequest', referenceName: HTTP },
		{ metric: 'wallMs', reference: 'httpRequest', referenceName: HTTP },
		{ metric: 'nodeMs', reference: 'httpRequest', referenceName: HTTP },
	],
	'2': [
		{
			metric: 'items',
			reference: 'httpRequest',
			referenceName: `${HTTP} (the execution fails)`,
			noRatio: true,
		},
		{
			metric: 'rateLimited',
			reference: 'httpRequest',
			referenceName: `${HTTP} (stops at it)`,
			noRatio: true,
		},
		{
			metric: 'requests',
			reference: 'httpRequest',
			referenceName: `${HTTP} (until it fails)`,
			noRatio: true,
		},
		{
			metric: 'wallMs',
			reference: (result) => Number(result.extra.floorMs),
			referenceName: 'the floor the limit imposes',
		},
		{
			metric: 'wallMs',
			reference: 'httpRequestInterval',
			referenceName: `${HTTP}, 500 ms between pages`,
		},
	],
	'3': [
		{ metric: 'requests', reference: 'httpRequest', referenceName: `${HTTP} → Limit` },
		{ metric: 'wallMs', reference: 'httpRequest', referenceName: `${HTTP} → Limit` },
		{ metric: 'nodeMs', reference: 'httpRequest', referenceName: `${HTTP} → Limit` },
	],
	'4': [
		{ metric: 'p50Ms', reference: 'webhookNode', referenceName: 'Webhook node' },
		{ metric: 'p95Ms', reference: 'webhookNode', referenceName: 'Webhook node' },
		{
			metric: 'p50Ms',
			reference: 'webhookNodeIsolate',
			referenceName: 'Webhook node with one expression',
		},
		{
			metric: 'p95Ms',
			reference: 'webhookNodeIsolate',
			referenceName: 'Webhook node with one expression',
		},
		{ metric: 'answered2xx', reference: 'webhookNode', referenceName: 'Webhook node' },
		{ metric: 'executions', reference: 'webhookNode', referenceName: 'Webhook node' },
	],
	'4b': [
		{
			metric: 'nsPerOp',
			reference: 'library',
			referenceName: 'standardwebhooks',
			label: "Time per verification, benchmark's Node.js",
		},
		{
			metric: 'nsPerOp',
			ours: 'ours@n8n',
			reference: 'library@n8n',
			referenceName: 'standardwebhooks',
			label: "Time per verification, n8n's Node.js",
		},
	],
	'5': [
		// The increase first: n8n's idle RSS (about 1 GB) varies by up to ~100 MB from one start to the next.
		{ metric: 'hwmDeltaMb', reference: 'httpRequest', referenceName: HTTP },
		{ metric: 'deltaMb', reference: 'httpRequest', referenceName: HTTP },
		{ metric: 'hwmMb', reference: 'httpRequest', referenceName: HTTP },
		{ metric: 'peakMb', reference: 'httpRequest', referenceName: HTTP },
	],
};

function summaryTable(cases: CaseResult[]): string[] {
	const lines = [
		'| Case | Metric | This package: median (min–max) | Reference | Reference: median (min–max) | Ours / reference |',
		'|---|---|---|---|---|---|',
	];
	for (const result of cases) {
		const rows = SUMMARY[result.id];
		if (!rows) continue;
		if (result.variants.length === 0) {
			lines.push(
				`| ${result.id}. ${result.title} | — | failed: ${(result.error ?? 'no result').replace(/\|/g, '/')} | | | |`,
			);
			continue;
		}
		rows.forEach((row, index) => {
			const ours = result.variants.find((variant) => variant.key === (row.ours ?? 'ours'));
			const caseCell = index === 0 ? `${result.id}. ${result.title}` : '';
			const label = row.label ?? METRIC_LABELS[row.metric] ?? row.metric;
			let referenceCell: string;
			let ratioCell: string;
			if (typeof row.reference === 'function') {
				const value = row.reference(result);
				const unit = ours?.metrics[row.metric]?.unit ?? 'count';
				referenceCell = Number.isFinite(value) ? formatterFor(unit)(value) : '—';
				const mine = ours?.metrics[row.metric]?.median;
				ratioCell =
					mine !== undefined && Number.isFinite(value) && value !== 0
						? fmt.ratio(mine / value)
						: '—';
			} else {
				const reference = result.variants.find((variant) => variant.key === row.reference);
				referenceCell = cell(reference, row.metric);
				ratioCell = ratio(ours, reference, row.metric);
			}
			if (row.noRatio) ratioCell = '—';
			lines.push(
				`| ${caseCell} | ${label} | ${cell(ours, row.metric)} | ${row.referenceName} | ${referenceCell} | ${ratioCell} |`,
			);
		});
	}
	return lines;
}

function caseSection(result: CaseResult): string[] {
	const lines = [`### ${result.id}. ${result.title}`, ''];
	if (result.error) lines.push(`**Did not finish:** ${result.error}`, '');
	if (result.variants.length > 0) {
		const metrics = [
			...new Set(result.variants.flatMap((variant) => Object.keys(variant.metrics))),
		];
		if (metrics.length === 1) {
			const [only] = metrics;
			lines.push(`| Variant | ${METRIC_LABELS[only] ?? only}: median (min–max) |`, '|---|---|');
			for (const variant of result.variants)
				lines.push(`| ${variant.label.replace(/\|/g, '/')} | ${cell(variant, only)} |`);
		} else {
			lines.push(
				`| Metric | ${result.variants.map((variant) => variant.label.replace(/\|/g, '/')).join(' | ')} |`,
			);
			lines.push(`|---|${result.variants.map(() => '---').join('|')}|`);
			for (const metric of metrics) {
				lines.push(
					`| ${METRIC_LABELS[metric] ?? metric} | ${result.variants.map((variant) => cell(variant, metric)).join(' | ')} |`,
				);
			}
		}
		const runs = result.variants.map(
			(variant) =>
				`${variant.key}: ${variant.runs.length} measured${variant.warmup.length ? ` + ${variant.warmup.length} warm-up` : ''}`,
		);
		lines.push('', `Runs: ${runs.join('; ')}.`, '');
	}
	for (const check of result.checks) {
		const verdict = check.must
			? check.ok
				? 'PASS (must)'
				: 'FAIL (must)'
			: check.ok
				? 'Observed: yes'
				: 'Observed: no';
		lines.push(`- ${verdict}: ${check.name}. ${check.detail}`);
	}
	if (result.checks.length) lines.push('');
	for (const note of result.notes) lines.push(note, '');
	return lines;
}

export function renderResults(
	environment: Environment,
	cases: CaseResult[],
	analysis: string[],
): string {
	const failedMusts = cases.flatMap((result) =>
		result.checks.filter((check) => check.must && !check.ok),
	);
	const lines = [
		'# Benchmarks',
		'',
		`Generated by \`${environment.command}\` on ${environment.date} (took ${Math.round(environment.durationS)} s). Do not edit by hand: run it again.`,
		'',
		'| | |',
		'|---|---|',
		`| Machine | ${environment.cpu}, ${environment.cores} cores, ${environment.memoryGb.toFixed(1)} GB memory |`,
		`| OS | ${environment.os} |`,
		`| n8n | ${environment.n8nVersion} on Node.js ${environment.n8nNode} (the project's pinned runtime, runtime/current) |`,
		`| n8n configuration | SQLite, regular mode, default expression engine (N8N_EXPRESSION_ENGINE=vm, pool size 1), the environment of scripts/lib/n8n.ts, own free ports |`,
		`| Benchmark and sandbox | Node.js ${environment.benchNode} |`,
		`| Package | n8n-nodes-crm-invoicing ${environment.packageVersion}, installed into n8n from its packed tarball |`,
		`| Runs | 1 warm-up + ${environment.runs} measured per case and variant (case 2: 1 + ${Math.min(environment.runs, 3)}; case 5: ${environment.runs}, each on a freshly restarted n8n) |`,
		'',
		'Both sides run in the same n8n, against the same sandbox, in the same run, alternating order run by run. Compare the ratios; absolute times depend on this machine and are context only. The sandbox runs inside the benchmark process on the same 2 cores, so it takes its share of CPU from both sides alike.',
		'',
		`**Musts:** ${failedMusts.length === 0 ? 'all passed.' : `${failedMusts.length} failed: ${failedMusts.map((check) => check.name).join('; ')}.`}`,
		'',
		'## Summary',
		'',
		'"HTTP Request + Split Out" is n8n\'s HTTP Request node (4.2) with cursor pagination ("Update a Parameter in Each Request", cursor = {{ $response.body.nextCursor }}, complete when {{ !$response.body.hasMore }}, limit=100, the same credential) followed by Split Out, so that it also yields one item per lead.',
		'',
		...summaryTable(cases),
		'',
	];
	if (analysis.length) lines.push('## What the numbers say', '', ...analysis, '');
	lines.push('## Cases in detail', '');
	for (const result of cases) lines.push(...caseSection(result));
	lines.push('Raw numbers of every run: bench/results.json.', '');
	return lines.join('\n');
}

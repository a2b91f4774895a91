/**
 * Cases 1, 2, 3 and 5: lead "Get Many" in the real n8n against the HTTP Request node doing the same work.
 */
import type { RateLimitConfig } from '../../test/sandbox/server';
import {
	type ActionRun,
	type ActionWorkflow,
	type BenchContext,
	type CaseResult,
	type Check,
	createActionWorkflow,
	distinctValues,
	hwmMb,
	lastRequestSeq,
	leadListRequests,
	removeWorkflow,
	resetHwm,
	rssMb,
	runActionWorkflow,
	sampleRss,
	sleep,
} from '../lib/harness';
import { codeNodeLeads, httpRequestGetMany, oursGetMany } from '../lib/nodes';
import { fmt } from '../lib/stats';
import { alternate, toVariantResult } from '../lib/variants';

const OURS = 'ours';
const HTTP = 'httpRequest';
const FLOOR = 'floor';
const OURS_LABEL = 'CRM Invoicing → Lead → Get Many';
const FLOOR_LABEL =
	"Floor: n8n's own cost (a Code node that outputs 10,000 lead-shaped items) plus the 100 raw page requests";
const HTTP_LABEL = 'HTTP Request 4.2 (cursor pagination) → Split Out';

const ACTION_UNITS = {
	wallMs: 'ms',
	nodeMs: 'ms',
	executionMs: 'ms',
	requests: 'count',
	rateLimited: 'count',
	items: 'count',
} as const;

/** Empties the sandbox and fills it with exactly `total` leads; sets the rate limit. */
function prepareSandbox(
	ctx: BenchContext,
	total: number,
	rateLimit: RateLimitConfig | false,
): void {
	const { sandbox } = ctx.stack;
	sandbox.reset();
	sandbox.setRateLimit(rateLimit);
	const have = sandbox.state.leads.size;
	if (have > total) throw new Error(`The sandbox starts with ${have} leads, more than ${total}`);
	const after = sandbox.seedLeads(total - have);
	if (after !== total) throw new Error(`Seeding gave ${after} leads instead of ${total}`);
}

function everyRun<R>(runs: R[], test: (run: R) => boolean): boolean {
	return runs.length > 0 && runs.every(test);
}

function valuesOf(runs: ActionRun[], field: keyof ActionRun): string {
	return runs.map((run) => String(run[field])).join(', ');
}

async function withWorkflows<T>(
	ctx: BenchContext,
	specs: Array<[string, Parameters<typeof createActionWorkflow>[2]]>,
	body: (workflows: ActionWorkflow[]) => Promise<T>,
): Promise<T> {
	const workflows: ActionWorkflow[] = [];
	try {
		for (const [name, chain] of specs) workflows.push(await createActionWorkflow(ctx, name, chain));
		return await body(workflows);
	} finally {
		for (const workflow of workflows) await removeWorkflow(ctx, workflow.id);
	}
}

// ------------------------------------------------------------------ case 1

/** The sandbox's first page of leads, as the API serves it (the shape the floor's Code node outputs). */
async function firstPage(ctx: BenchContext): Promise<Array<Record<string, unknown>>> {
	const { sandbox } = ctx.stack;
	const response = await fetch(`${sandbox.url}/api/v1/leads?limit=100`, {
		headers: { 'x-api-key': sandbox.keys.admin },
	});
	return ((await response.json()) as { items: Array<Record<string, unknown>> }).items;
}

/** Distinct names and emails among the output items: n8n stores each distinct text once (see `codeNodeLeads`). */
function distinctLeads(workflow: ActionWorkflow): (execution: unknown) => Record<string, number> {
	return (execution) => ({
		distinctNames: distinctValues(execution, workflow.lastNode, 'name'),
		distinctEmails: distinctValues(execution, workflow.lastNode, 'email'),
	});
}

/**
 * The floor of Return All: the 100 page requests themselves (sent and parsed by the benchmark, one after the other,
 * as any client must), then a workflow whose Code node outputs 10,000 lead-shaped items (n8n's own cost of them).
 */
async function floorRun(ctx: BenchContext, workflow: ActionWorkflow): Promise<ActionRun> {
	const { sandbox } = ctx.stack;
	const seq = lastRequestSeq(ctx);
	const started = performance.now();
	let cursor: string | undefined;
	do {
		const url = new URL(`${sandbox.url}/api/v1/leads`);
		url.searchParams.set('limit', '100');
		if (cursor) url.searchParams.set('cursor', cursor);
		const page = (await (
			await fetch(url, { headers: { 'x-api-key': sandbox.keys.admin } })
		).json()) as { hasMore: boolean; nextCursor: string | null };
		cursor = page.hasMore && page.nextCursor ? page.nextCursor : undefined;
	} while (cursor);
	const requestsMs = performance.now() - started;
	const requests = leadListRequests(ctx, seq).length;
	const run = await runActionWorkflow(ctx, workflow, { inspect: distinctLeads(workflow) });
	return {
		...run,
		wallMs: run.wallMs + requestsMs,
		nodeMs: run.nodeMs + requestsMs,
		executionMs: run.executionMs + requestsMs,
		requests,
		// The 100 raw requests alone (fetch, keep-alive), beside ours' through n8n's helper (bench/profileReturnAll.ts).
		requestsMs,
	};
}

export async function caseReturnAll(ctx: BenchContext): Promise<Omit<CaseResult, 'durationMs'>> {
	const total = 10_000;
	prepareSandbox(ctx, total, false);
	const sample = await firstPage(ctx);
	return await withWorkflows(
		ctx,
		[
			['ours: return all', oursGetMany(ctx, { returnAll: true })],
			['http: return all', httpRequestGetMany(ctx)],
			['floor: code node', codeNodeLeads(sample, total)],
		],
		async ([ours, http, floor]) => {
			const results = await alternate(
				ctx,
				'1',
				[
					{
						key: OURS,
						label: OURS_LABEL,
						run: () => runActionWorkflow(ctx, ours, { inspect: distinctLeads(ours) }),
					},
					{ key: HTTP, label: HTTP_LABEL, run: () => runActionWorkflow(ctx, http) },
					{ key: FLOOR, label: FLOOR_LABEL, run: () => floorRun(ctx, floor) },
				],
				{ warmup: 1, runs: ctx.runs },
			);
			const oursRuns = results.get(OURS)!.runs;
			const httpRuns = results.get(HTTP)!.runs;
			const floorRuns = results.get(FLOOR)!.runs;
			const checks: Check[] = [
				{
					name: 'case 1: ours makes exactly 100 requests for 10,000 leads (the floor at 100 per page)',
					must: true,
					ok: everyRun(oursRuns, (run) => run.requests === 100),
					detail: `requests per run: ${valuesOf(oursRuns, 'requests')}`,
				},
				{
					name: 'case 1: ours returns all 10,000 leads in a successful execution',
					must: true,
					ok: everyRun(oursRuns, (run) => run.items === total && run.status === 'success'),
					detail: `items per run: ${valuesOf(oursRuns, 'items')}; status: ${valuesOf(oursRuns, 'status')}`,
				},
				{
					name: 'case 1: HTTP Request + Split Out returns all 10,000 leads',
					must: false,
					ok: everyRun(httpRuns, (run) => run.items === total && run.status === 'success'),
					detail: `requests per run: ${valuesOf(httpRuns, 'requests')}; items: ${valuesOf(httpRuns, 'items')}; status: ${valuesOf(httpRuns, 'status')}`,
				},
				{
					name: 'case 1: the floor made 100 requests and its Code node output 10,000 items',
					must: false,
					ok: everyRun(floorRuns, (run) => run.requests === 100 && run.items === total),
					detail: `requests per run: ${valuesOf(floorRuns, 'requests')}; items: ${valuesOf(floorRuns, 'items')}`,
				},
				{
					// Copies of one page would be cheaper for n8n to store than 10,000 different leads: not a floor.
					name: "case 1: the floor's items are as distinct as the API's leads (at least 99 % of ours, by name and email)",
					must: false,
					ok: everyRun(floorRuns, (run) =>
						(['distinctNames', 'distinctEmails'] as const).every(
							(field) => Number(run[field]) >= 0.99 * Number(oursRuns[0]?.[field]),
						),
					),
					detail: `distinct names / emails per run, floor: ${valuesOf(floorRuns, 'distinctNames')} / ${valuesOf(floorRuns, 'distinctEmails')}; ours: ${valuesOf(oursRuns, 'distinctNames')} / ${valuesOf(oursRuns, 'distinctEmails')}`,
				},
			];
			return {
				id: '1',
				title: 'Return All over 10,000 leads, no rate limit',
				variants: [
					toVariantResult(OURS, OURS_LABEL, results.get(OURS)!, ACTION_UNITS),
					toVariantResult(HTTP, HTTP_LABEL, results.get(HTTP)!, ACTION_UNITS),
					toVariantResult(FLOOR, FLOOR_LABEL, results.get(FLOOR)!, ACTION_UNITS),
				],
				checks,
				notes: [
					"The floor is what no client of n8n can go below: the 100 page requests (sent and parsed one after the other by the benchmark process) plus n8n's cost of 10,000 lead-shaped items (a Code node that outputs them, in a workflow run like the others). The Code node's items are copies of one page of the API's leads with every field that is unique per lead (id, name, email…) made unique in each copy at the same length, because n8n stores each distinct text of an execution once and plain copies would cost it less to store than the API's 10,000 different leads.",
				],
				extra: { leads: total, floorRequests: Math.ceil(total / 100) },
			};
		},
	);
}

// ------------------------------------------------------------------ case 2

export async function caseRateLimited(ctx: BenchContext): Promise<Omit<CaseResult, 'durationMs'>> {
	const total = 2_000;
	const limit: RateLimitConfig = { limit: 10, windowMs: 5_000 };
	const floorRequests = Math.ceil(total / 100);
	// The first `limit` requests go in the first window; each further `limit` needs one more window.
	const floorMs = (Math.ceil(floorRequests / limit.limit) - 1) * limit.windowMs;
	prepareSandbox(ctx, total, limit);
	const runs = Math.min(ctx.runs, 3);
	try {
		return await withWorkflows(
			ctx,
			[
				['ours: return all (rate limited)', oursGetMany(ctx, { returnAll: true })],
				['http: return all (rate limited)', httpRequestGetMany(ctx)],
				[
					'http: return all, 500 ms between pages',
					httpRequestGetMany(ctx, { intervalMs: limit.windowMs / limit.limit }),
				],
			],
			async ([ours, http, httpPaced]) => {
				const HTTP_PACED = 'httpRequestInterval';
				const pacedLabel = `${HTTP_LABEL}, "Interval Between Requests" = ${limit.windowMs / limit.limit} ms`;
				const results = await alternate(
					ctx,
					'2',
					[
						{ key: OURS, label: OURS_LABEL, run: () => runActionWorkflow(ctx, ours) },
						{ key: HTTP, label: HTTP_LABEL, run: () => runActionWorkflow(ctx, http) },
						{ key: HTTP_PACED, label: pacedLabel, run: () => runActionWorkflow(ctx, httpPaced) },
					],
					{
						warmup: 1,
						runs,
						// Each run starts with a fresh window on both sides: the sandbox's and the node's pacer (which
						// remembers the last RateLimit-Reset for this key) have both expired after a full window.
						between: async () => {
							await sleep(limit.windowMs + 1_500);
							ctx.stack.sandbox.setRateLimit(limit);
						},
					},
				);
				const oursRuns = results.get(OURS)!.runs;
				const httpRuns = results.get(HTTP)!.runs;
				const pacedRuns = results.get(HTTP_PACED)!.runs;
				const checks: Check[] = [
					{
						name: 'case 2: ours returns all 2,000 leads under 10 requests / 5 s, no failed execution',
						must: true,
						ok: everyRun(
							[...results.get(OURS)!.warmup, ...oursRuns],
							(run) => run.items === total && run.status === 'success',
						),
						detail: `items: ${valuesOf(oursRuns, 'items')}; status: ${valuesOf(oursRuns, 'status')}`,
					},
					{
						name: 'case 2: ours gets at most 2 responses 429 per run',
						must: true,
						ok: everyRun(oursRuns, (run) => run.rateLimited <= 2),
						detail: `429s per run: ${valuesOf(oursRuns, 'rateLimited')}; requests per run: ${valuesOf(oursRuns, 'requests')}`,
					},
					{
						name: 'case 2: ours makes the floor of 20 requests',
						must: false,
						ok: everyRun(oursRuns, (run) => run.requests === floorRequests),
						detail: `requests per run: ${valuesOf(oursRuns, 'requests')}`,
					},
					{
						name: 'case 2: HTTP Request (no interval) completes under the limit',
						must: false,
						ok: everyRun(httpRuns, (run) => run.status === 'success' && run.items === total),
						detail: `status: ${valuesOf(httpRuns, 'status')}; requests: ${valuesOf(httpRuns, 'requests')}; 429s: ${valuesOf(httpRuns, 'rateLimited')}; items: ${valuesOf(httpRuns, 'items')}; error: ${httpRuns[0]?.error ?? '—'}`,
					},
					{
						name: `case 2: HTTP Request with a ${limit.windowMs / limit.limit} ms interval completes under the limit`,
						must: false,
						ok: everyRun(pacedRuns, (run) => run.status === 'success' && run.items === total),
						detail: `status: ${valuesOf(pacedRuns, 'status')}; requests: ${valuesOf(pacedRuns, 'requests')}; 429s: ${valuesOf(pacedRuns, 'rateLimited')}; items: ${valuesOf(pacedRuns, 'items')}`,
					},
				];
				const notes = [
					`Floor: ${floorRequests} requests at ${limit.limit} per ${limit.windowMs / 1000} s fit in ${Math.ceil(floorRequests / limit.limit)} windows, so no client can finish in less than ${fmt.ms(floorMs)} plus the time of the requests themselves.`,
				];
				return {
					id: '2',
					title: 'Return All over 2,000 leads under 10 requests per 5 s',
					variants: [
						toVariantResult(OURS, OURS_LABEL, results.get(OURS)!, ACTION_UNITS),
						toVariantResult(HTTP, HTTP_LABEL, results.get(HTTP)!, ACTION_UNITS),
						toVariantResult(HTTP_PACED, pacedLabel, results.get(HTTP_PACED)!, ACTION_UNITS),
					],
					checks,
					notes,
					extra: { leads: total, rateLimit: limit, floorRequests, floorMs },
				};
			},
		);
	} finally {
		ctx.stack.sandbox.setRateLimit(false);
	}
}

// ------------------------------------------------------------------ case 3

export async function caseLimit(ctx: BenchContext): Promise<Omit<CaseResult, 'durationMs'>> {
	const total = 10_000;
	const limit = 250;
	prepareSandbox(ctx, total, false);
	return await withWorkflows(
		ctx,
		[
			['ours: limit 250', oursGetMany(ctx, { returnAll: false, limit })],
			['http: 3 pages, limit 250', httpRequestGetMany(ctx, { maxPages: 3, limitItems: limit })],
		],
		async ([ours, http]) => {
			const httpLabel = `HTTP Request 4.2 (Max Pages 3) → Split Out → Limit ${limit}`;
			const results = await alternate(
				ctx,
				'3',
				[
					{ key: OURS, label: OURS_LABEL, run: () => runActionWorkflow(ctx, ours) },
					{ key: HTTP, label: httpLabel, run: () => runActionWorkflow(ctx, http) },
				],
				{ warmup: 1, runs: ctx.runs },
			);
			const oursRuns = results.get(OURS)!.runs;
			const httpRuns = results.get(HTTP)!.runs;
			const checks: Check[] = [
				{
					name: 'case 3: ours makes exactly 3 requests with limit=100, 100, 50',
					must: true,
					ok: everyRun(
						oursRuns,
						(run) => run.requests === 3 && run.limits.join(',') === '100,100,50',
					),
					detail: `limit parameters per run: ${oursRuns.map((run) => `[${run.limits.join(',')}]`).join(' ')}`,
				},
				{
					name: 'case 3: ours returns exactly 250 leads',
					must: true,
					ok: everyRun(oursRuns, (run) => run.items === limit && run.status === 'success'),
					detail: `items per run: ${valuesOf(oursRuns, 'items')}`,
				},
				{
					name: 'case 3: HTTP Request chain returns 250 leads',
					must: false,
					ok: everyRun(httpRuns, (run) => run.items === limit && run.status === 'success'),
					detail: `limit parameters: [${httpRuns[0]?.limits.join(',') ?? ''}]; items: ${valuesOf(httpRuns, 'items')}`,
				},
			];
			return {
				id: '3',
				title: 'Limit = 250',
				variants: [
					toVariantResult(OURS, OURS_LABEL, results.get(OURS)!, ACTION_UNITS),
					toVariantResult(HTTP, httpLabel, results.get(HTTP)!, ACTION_UNITS),
				],
				checks,
				notes: [
					'The HTTP Request node cannot ask for less than its page size on the last page: it reads 300 leads (limit=100 three times) and a Limit node drops 50.',
				],
				extra: { leads: total, limit },
			};
		},
	);
}

// ------------------------------------------------------------------ case 5

interface MemoryRun extends ActionRun {
	baselineMb: number;
	peakMb: number;
	deltaMb: number;
	/** The kernel's own peak (VmHWM) after resetting it before the run; NaN when it could not be reset. */
	hwmMb: number;
	hwmDeltaMb: number;
	samples: number;
}

/** Restarts n8n, so every memory run starts from the same fresh process. */
async function restartN8n(ctx: BenchContext): Promise<number> {
	await ctx.stack.n8n.stop();
	await ctx.stack.n8n.start();
	const pid = ctx.stack.n8n.pid;
	if (!pid) throw new Error('n8n has no pid after restart');
	return pid;
}

/** Calls a workflow until its production webhook is registered again after a restart. */
async function warmUpAfterRestart(ctx: BenchContext, workflow: ActionWorkflow): Promise<void> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const run = await runActionWorkflow(ctx, workflow).catch(
			(error: unknown) => ({ httpStatus: 0, error: String(error) }) as ActionRun,
		);
		if (run.httpStatus === 200) return;
		if (Date.now() > deadline)
			throw new Error(
				`Warm-up of ${workflow.name} after restart kept failing: ${run.httpStatus} ${run.error ?? ''}`,
			);
		await sleep(500);
	}
}

export async function caseMemory(ctx: BenchContext): Promise<Omit<CaseResult, 'durationMs'>> {
	const total = 10_000;
	prepareSandbox(ctx, total, false);
	const runs = ctx.runs;
	return await withWorkflows(
		ctx,
		[
			['ours: return all (memory)', oursGetMany(ctx, { returnAll: true })],
			['http: return all (memory)', httpRequestGetMany(ctx)],
			['ours: warm-up', oursGetMany(ctx, { returnAll: false, limit: 250 })],
			['http: warm-up', httpRequestGetMany(ctx, { maxPages: 3 })],
		],
		async ([ours, http, oursWarm, httpWarm]) => {
			const measure = async (
				workflow: ActionWorkflow,
				warm: ActionWorkflow,
			): Promise<MemoryRun> => {
				const pid = await restartN8n(ctx);
				await warmUpAfterRestart(ctx, warm);
				await sleep(2_000);
				const baselineMb = rssMb(pid);
				const hwmReset = resetHwm(pid);
				const sampler = sampleRss(pid, 50);
				let sampled: { peakMb: number; samples: number } | undefined;
				let hwm = Number.NaN;
				const stop = (): void => {
					if (sampled) return;
					sampled = sampler.stop();
					if (hwmReset) hwm = hwmMb(pid);
				};
				// Sampling covers the run and the saving of the execution; it stops before the execution (with its
				// 10,000 items) is read back through the API, which costs n8n memory of its own.
				const run = await runActionWorkflow(ctx, workflow, { finished: stop });
				stop();
				const peakMb = sampled!.peakMb;
				return {
					...run,
					baselineMb,
					peakMb,
					deltaMb: peakMb - baselineMb,
					hwmMb: hwm,
					hwmDeltaMb: hwm - baselineMb,
					samples: sampled!.samples,
				};
			};
			const results = await alternate(
				ctx,
				'5',
				[
					{ key: OURS, label: OURS_LABEL, run: () => measure(ours, oursWarm) },
					{ key: HTTP, label: HTTP_LABEL, run: () => measure(http, httpWarm) },
				],
				{ warmup: 0, runs },
			);
			const units = {
				peakMb: 'MB',
				deltaMb: 'MB',
				hwmMb: 'MB',
				hwmDeltaMb: 'MB',
				baselineMb: 'MB',
				wallMs: 'ms',
				items: 'count',
			} as const;
			const oursRuns = results.get(OURS)!.runs;
			const httpRuns = results.get(HTTP)!.runs;
			return {
				id: '5',
				title: 'Peak RSS of the n8n process during Return All over 10,000 leads',
				variants: [
					toVariantResult(OURS, OURS_LABEL, results.get(OURS)!, units),
					toVariantResult(HTTP, HTTP_LABEL, results.get(HTTP)!, units),
				],
				checks: [
					{
						name: 'case 5: every memory run returned all 10,000 leads (ours and HTTP Request)',
						must: false,
						ok: everyRun(
							[...oursRuns, ...httpRuns],
							(run) => run.items === total && run.status === 'success',
						),
						detail: `ours items: ${valuesOf(oursRuns, 'items')}; HTTP items: ${valuesOf(httpRuns, 'items')}`,
					},
				],
				notes: [
					'Each run restarts n8n, warms the variant up with a 250-lead run, waits 2 s, then samples VmRSS of the n8n process every 50 ms until the execution is finished and saved. Reading the execution back through the API happens after the sampling. "hwm" is the kernel\'s VmHWM after resetting it (clear_refs) just before the run.',
				],
				extra: { leads: total },
			};
		},
	);
}

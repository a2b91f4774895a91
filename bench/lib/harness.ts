/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * What every benchmark case shares: the running stack, workflow builders for "Webhook (answers when the last node
 * is done) → nodes under test", execution look-ups, the sandbox's request log, timeouts and an RSS sampler.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';

import { webhookNode } from '../../scripts/lib/n8n';
import type { Stack } from '../../scripts/lib/stack';
import type { RequestLogEntry } from '../../test/sandbox/server';
import type { Summary } from './stats';

export const ACTION_NODE_TYPE = 'n8n-nodes-crm-invoicing.crmInvoicing';
export const TRIGGER_NODE_TYPE = 'n8n-nodes-crm-invoicing.crmInvoicingTrigger';

export interface BenchContext {
	stack: Stack;
	/** Measured runs per case (after the warm-up); case 2 uses fewer. */
	runs: number;
	log(message: string): void;
}

/** One check of a case; `must` checks decide the exit code. */
export interface Check {
	name: string;
	must: boolean;
	ok: boolean;
	detail: string;
}

/** A metric of one variant over its measured runs. */
export interface MetricSummary extends Summary {
	unit: 'ms' | 'count' | 'MB' | 'ns';
}

export interface VariantResult {
	/** Stable key, e.g. `ours`, `httpRequest`. */
	key: string;
	label: string;
	warmup: Array<Record<string, unknown>>;
	runs: Array<Record<string, unknown>>;
	metrics: Record<string, MetricSummary>;
}

export interface CaseResult {
	id: string;
	title: string;
	variants: VariantResult[];
	checks: Check[];
	notes: string[];
	/** Extra numbers for the report (floors, ratios). */
	extra: Record<string, unknown>;
	error?: string;
	durationMs: number;
}

export const sleep = (ms: number): Promise<void> =>
	new Promise((resolve) => setTimeout(resolve, ms));

export class TimeoutError extends Error {}

/** Rejects after `ms` (the work itself is not cancelled; the caller moves on and cleans up). */
export async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(
			() => reject(new TimeoutError(`${what} did not finish within ${Math.round(ms / 1000)} s`)),
			ms,
		);
	});
	try {
		return await Promise.race([work, timeout]);
	} finally {
		clearTimeout(timer);
	}
}

// ------------------------------------------------------------------ workflows

export interface NodeDef {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
}

export interface ActionWorkflow {
	id: string;
	name: string;
	/** Production webhook path that runs it. */
	path: string;
	/** Nodes whose execution time is "the fetch" (the node under test and what it needs to yield one item per record). */
	measuredNodes: string[];
	/** The node whose output items are the result. */
	lastNode: string;
}

/** The admin credential of the stack, in the shape node definitions use. */
export function adminCredential(ctx: BenchContext): {
	crmInvoicingApi: { id: string; name: string };
} {
	const { id, name } = ctx.stack.credentials.admin;
	return { crmInvoicingApi: { id, name } };
}

/**
 * Creates and activates "Webhook → chain…". The Webhook node answers once the last node is done, with only the
 * first item (so the answer's size does not depend on the number of records and costs both variants the same).
 */
export async function createActionWorkflow(
	ctx: BenchContext,
	name: string,
	chain: NodeDef[],
): Promise<ActionWorkflow> {
	const path = `bench-${randomUUID()}`;
	const nodes: Array<Record<string, unknown>> = [
		webhookNode(path, { responseMode: 'lastNode', responseData: 'firstEntryJson' }),
	];
	const connections: Record<string, unknown> = {};
	let previous = 'Webhook';
	chain.forEach((node, index) => {
		nodes.push({ id: randomUUID(), position: [300 * (index + 1), 0], ...node });
		connections[previous] = { main: [[{ node: node.name, type: 'main', index: 0 }]] };
		previous = node.name;
	});
	const workflow = await ctx.stack.client.createWorkflow({
		name: `bench: ${name}`,
		nodes,
		connections,
	});
	await ctx.stack.client.activate(workflow.id);
	return {
		id: workflow.id,
		name,
		path,
		measuredNodes: chain.map((node) => node.name),
		lastNode: previous,
	};
}

export async function removeWorkflow(ctx: BenchContext, id: string): Promise<void> {
	try {
		await ctx.stack.client.deactivate(id);
	} catch {
		// already inactive
	}
	try {
		await ctx.stack.client.deleteWorkflow(id);
	} catch (error) {
		ctx.log(`could not delete workflow ${id}: ${String(error)}`);
	}
}

// ------------------------------------------------------------------ executions

interface ExecutionSummary {
	id: string;
	finished?: boolean;
	status?: string;
	startedAt?: string;
	stoppedAt?: string | null;
}

/** The id of the newest execution of a workflow (0 when there is none). */
export async function newestExecutionId(ctx: BenchContext, workflowId: string): Promise<number> {
	const result = await ctx.stack.client.api<{ data: ExecutionSummary[] }>(
		'GET',
		`/executions?workflowId=${workflowId}&limit=1`,
	);
	return result.data.length ? Number(result.data[0].id) : 0;
}

/** Waits for a finished execution newer than `afterId`, then reads it with its data. */
export async function waitForExecutionAfter(
	ctx: BenchContext,
	workflowId: string,
	afterId: number,
	timeoutMs = 60_000,
	onFinished?: () => void,
): Promise<any> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const result = await ctx.stack.client.api<{ data: ExecutionSummary[] }>(
			'GET',
			`/executions?workflowId=${workflowId}&limit=1`,
		);
		const newest = result.data[0];
		if (newest && Number(newest.id) > afterId && newest.stoppedAt) {
			onFinished?.();
			return await ctx.stack.client.api('GET', `/executions/${newest.id}?includeData=true`);
		}
		if (Date.now() > deadline)
			throw new Error(
				`No finished execution of workflow ${workflowId} after #${afterId} within ${timeoutMs / 1000} s`,
			);
		await sleep(200);
	}
}

/** Every execution of a workflow (no data), following the public API's cursor. */
export async function listExecutions(
	ctx: BenchContext,
	workflowId: string,
): Promise<ExecutionSummary[]> {
	const all: ExecutionSummary[] = [];
	let cursor: string | undefined;
	for (let page = 0; page < 1000; page++) {
		const query = `/executions?workflowId=${workflowId}&limit=250${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
		const result = await ctx.stack.client.api<{
			data: ExecutionSummary[];
			nextCursor?: string | null;
		}>('GET', query);
		all.push(...result.data);
		if (!result.nextCursor || result.data.length === 0) break;
		cursor = result.nextCursor;
	}
	return all;
}

export function executionStatus(execution: any): string {
	if (typeof execution?.status === 'string') return execution.status;
	if (execution?.data?.resultData?.error) return 'error';
	return execution?.finished ? 'success' : 'unknown';
}

/** Items a node put out in an execution (first run, first output). */
export function outputCount(execution: any, nodeName: string): number {
	const runs = execution?.data?.resultData?.runData?.[nodeName];
	const main = runs?.[0]?.data?.main?.[0];
	return Array.isArray(main) ? main.length : 0;
}

/** Distinct values of `field` in the items a node put out (first run, first output). */
export function distinctValues(execution: any, nodeName: string, field: string): number {
	const main = execution?.data?.resultData?.runData?.[nodeName]?.[0]?.data?.main?.[0];
	return Array.isArray(main) ? new Set(main.map((item) => item?.json?.[field])).size : 0;
}

/** Sum of the execution times n8n recorded for these nodes (ms). */
export function nodesExecutionMs(execution: any, nodeNames: string[]): number {
	let total = 0;
	for (const name of nodeNames) {
		const runs = execution?.data?.resultData?.runData?.[name];
		if (!Array.isArray(runs)) continue;
		for (const run of runs) total += Number(run?.executionTime ?? 0);
	}
	return total;
}

/** The error message of a failed execution. */
export function executionError(execution: any): string | undefined {
	const resultData = execution?.data?.resultData;
	const fromRun = Object.values((resultData?.runData ?? {}) as Record<string, any[]>)
		.flat()
		.find((run) => run?.error)?.error;
	const error = fromRun ?? resultData?.error;
	if (!error) return undefined;
	const parts = [error.message, error.description].filter(
		(part) => typeof part === 'string' && part !== '',
	);
	return parts.join(' — ').slice(0, 300);
}

export function executionWallMs(execution: any): number {
	if (!execution?.startedAt || !execution?.stoppedAt) return Number.NaN;
	return Date.parse(execution.stoppedAt) - Date.parse(execution.startedAt);
}

// ------------------------------------------------------------------ running an action workflow

export interface ActionRun extends Record<string, unknown> {
	/** Round trip of the webhook call that ran the workflow (request sent → last node done → answer read). */
	wallMs: number;
	/** n8n's own execution time of the measured nodes. */
	nodeMs: number;
	/** startedAt → stoppedAt of the execution. */
	executionMs: number;
	/** GET /api/v1/leads requests the sandbox received during the run. */
	requests: number;
	/** …of which answered 429. */
	rateLimited: number;
	/** `limit` query parameter of each request, in order. */
	limits: string[];
	items: number;
	httpStatus: number;
	status: string;
	error?: string;
}

/** Requests for the lead list logged since `fromSeq`. */
export function leadListRequests(ctx: BenchContext, fromSeq: number): RequestLogEntry[] {
	return ctx.stack.sandbox.requests.filter(
		(entry) => entry.seq > fromSeq && entry.method === 'GET' && entry.path === '/api/v1/leads',
	);
}

export function lastRequestSeq(ctx: BenchContext): number {
	const requests = ctx.stack.sandbox.requests;
	return requests.length ? requests[requests.length - 1].seq : 0;
}

/** Runs an action workflow once through its webhook and reads what happened from n8n and from the sandbox. */
export async function runActionWorkflow(
	ctx: BenchContext,
	workflow: ActionWorkflow,
	hooks: {
		/** Called once the execution is finished and saved, before its data is read back. */ finished?: () => void;
		/** Numbers read from the finished execution (with its data), added to the run. */
		inspect?: (execution: any) => Record<string, number>;
	} = {},
): Promise<ActionRun> {
	const before = await newestExecutionId(ctx, workflow.id);
	const seq = lastRequestSeq(ctx);
	const started = performance.now();
	const response = await fetch(`${ctx.stack.n8n.url}/webhook/${workflow.path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: '{}',
	});
	await response.text();
	const wallMs = performance.now() - started;
	const execution = await waitForExecutionAfter(ctx, workflow.id, before, 120_000, hooks.finished);
	const requests = leadListRequests(ctx, seq);
	const run: ActionRun = {
		wallMs,
		nodeMs: nodesExecutionMs(execution, workflow.measuredNodes),
		executionMs: executionWallMs(execution),
		requests: requests.length,
		rateLimited: requests.filter((entry) => entry.status === 429).length,
		limits: requests.map((entry) => entry.query.limit ?? ''),
		items: outputCount(execution, workflow.lastNode),
		httpStatus: response.status,
		status: executionStatus(execution),
	};
	const error = executionError(execution);
	if (error) run.error = error;
	if (hooks.inspect) Object.assign(run, hooks.inspect(execution));
	return run;
}

// ------------------------------------------------------------------ memory of the n8n process

function readStatusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status);
	if (!match) throw new Error(`No ${field} in /proc/${pid}/status`);
	return Number(match[1]);
}

export function rssMb(pid: number): number {
	return readStatusKb(pid, 'VmRSS') / 1024;
}

/** The kernel's peak RSS (VmHWM), in MB. */
export function hwmMb(pid: number): number {
	return readStatusKb(pid, 'VmHWM') / 1024;
}

/** Resets VmHWM to the current RSS (Linux ≥ 4.0, own process). False when the kernel does not allow it. */
export function resetHwm(pid: number): boolean {
	try {
		writeFileSync(`/proc/${pid}/clear_refs`, '5');
		return true;
	} catch {
		return false;
	}
}

/** Samples VmRSS every `intervalMs` until stopped; returns the peak and the number of samples. */
export function sampleRss(
	pid: number,
	intervalMs = 50,
): { stop(): { peakMb: number; samples: number } } {
	let peak = rssMb(pid);
	let samples = 1;
	const timer = setInterval(() => {
		try {
			peak = Math.max(peak, rssMb(pid));
			samples++;
		} catch {
			// process gone; the case will fail on its own
		}
	}, intervalMs);
	return {
		stop() {
			clearInterval(timer);
			try {
				peak = Math.max(peak, rssMb(pid));
				samples++;
			} catch {
				// ignore
			}
			return { peakMb: peak, samples };
		},
	};
}

// ------------------------------------------------------------------ raw HTTP posts (like the sandbox's deliveries)

export interface PostResult {
	status: number;
	ms: number;
	error?: string;
}

/** One POST on a fresh connection (agent: false), as the sandbox delivers webhooks. */
export function postOnce(
	url: string,
	headers: Record<string, string>,
	body: Buffer,
	timeoutMs = 30_000,
): Promise<PostResult> {
	return new Promise((resolve) => {
		const started = performance.now();
		let done = false;
		const finish = (result: Omit<PostResult, 'ms'>): void => {
			if (done) return;
			done = true;
			resolve({ ...result, ms: performance.now() - started });
		};
		const request = http.request(url, {
			method: 'POST',
			agent: false,
			headers: { ...headers, 'content-length': String(body.length) },
			timeout: timeoutMs,
		});
		request.on('response', (response) => {
			response.resume();
			response.on('end', () => finish({ status: response.statusCode ?? 0 }));
			response.on('error', (error) => finish({ status: 0, error: error.message }));
		});
		request.on('timeout', () => {
			request.destroy(new Error('timeout'));
		});
		request.on('error', (error) => finish({ status: 0, error: error.message }));
		request.end(body);
	});
}

/** Runs `count` tasks with at most `concurrency` at a time; results in task order. */
export async function pool<T>(
	count: number,
	concurrency: number,
	task: (index: number) => Promise<T>,
): Promise<T[]> {
	const results = new Array<T>(count);
	let next = 0;
	const worker = async (): Promise<void> => {
		while (next < count) {
			const index = next++;
			results[index] = await task(index);
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
	return results;
}

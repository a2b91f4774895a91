/** Runs variants of a case alternately (warm-up first), so drift of the machine spreads over all of them. */
import type { BenchContext, MetricSummary, VariantResult } from './harness';
import { summarize } from './stats';

export interface Variant<R extends Record<string, unknown>> {
	key: string;
	label: string;
	run(): Promise<R>;
}

export interface AlternateOptions {
	warmup: number;
	runs: number;
	/** Called before every run (warm-up or measured) but the very first, e.g. to wait out a rate-limit window. */
	between?: () => Promise<void>;
}

export async function alternate<R extends Record<string, unknown>>(
	ctx: BenchContext,
	caseId: string,
	variants: Array<Variant<R>>,
	options: AlternateOptions,
): Promise<Map<string, { warmup: R[]; runs: R[] }>> {
	const results = new Map<string, { warmup: R[]; runs: R[] }>(
		variants.map((variant) => [variant.key, { warmup: [], runs: [] }]),
	);
	let first = true;
	for (let round = 0; round < options.warmup + options.runs; round++) {
		const warm = round < options.warmup;
		// Alternate the order each round: A B, B A, A B, …
		const ordered = round % 2 === 0 ? variants : [...variants].reverse();
		for (const variant of ordered) {
			if (!first && options.between) await options.between();
			first = false;
			const result = await variant.run();
			const bucket = results.get(variant.key)!;
			(warm ? bucket.warmup : bucket.runs).push(result);
			ctx.log(
				`case ${caseId} ${warm ? 'warm-up' : `run ${round - options.warmup + 1}/${options.runs}`} ${variant.key}: ${brief(result)}`,
			);
		}
	}
	return results;
}

function brief(result: Record<string, unknown>): string {
	return Object.entries(result)
		.filter(([, value]) => typeof value !== 'object' || value === null)
		.map(
			([key, value]) =>
				`${key}=${typeof value === 'number' && !Number.isInteger(value) ? value.toFixed(1) : String(value)}`,
		)
		.join(' ')
		.slice(0, 400);
}

/** Summaries of the numeric fields named in `units` over the measured runs. */
export function toVariantResult<R extends Record<string, unknown>>(
	key: string,
	label: string,
	buckets: { warmup: R[]; runs: R[] },
	units: Record<string, MetricSummary['unit']>,
): VariantResult {
	const metrics: Record<string, MetricSummary> = {};
	for (const [name, unit] of Object.entries(units)) {
		const values = buckets.runs.map((run) => Number(run[name]));
		metrics[name] = { ...summarize(values), unit };
	}
	return { key, label, warmup: buckets.warmup, runs: buckets.runs, metrics };
}

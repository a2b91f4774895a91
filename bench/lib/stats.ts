/** Small statistics helpers for the benchmark: medians and spreads of a handful of runs, percentiles of latencies. */

export interface Summary {
	n: number;
	median: number;
	min: number;
	max: number;
}

export function median(values: readonly number[]): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Nearest-rank percentile (p in 0..100) of a list of values. */
export function percentile(values: readonly number[], p: number): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
	return sorted[rank - 1];
}

export function summarize(values: readonly number[]): Summary {
	const finite = values.filter((value) => Number.isFinite(value));
	if (finite.length === 0) return { n: 0, median: Number.NaN, min: Number.NaN, max: Number.NaN };
	return {
		n: finite.length,
		median: median(finite),
		min: Math.min(...finite),
		max: Math.max(...finite),
	};
}

/** `1234 (1200–1300)` with the given formatter; `—` when there are no values. */
export function formatSummary(
	summary: Summary | undefined,
	format: (value: number) => string,
): string {
	if (!summary || summary.n === 0) return '—';
	if (summary.n === 1 || summary.min === summary.max)
		return `${format(summary.median)}${summary.n > 1 ? ` (all ${summary.n})` : ''}`;
	return `${format(summary.median)} (${format(summary.min)}–${format(summary.max)})`;
}

export const fmt = {
	ms: (value: number): string =>
		value >= 9_995
			? `${(value / 1000).toFixed(1)} s`
			: value >= 999.5
				? `${(value / 1000).toFixed(2)} s`
				: `${value.toFixed(0)} ms`,
	int: (value: number): string => String(Math.round(value)),
	mb: (value: number): string => `${value.toFixed(0)} MB`,
	ns: (value: number): string =>
		value >= 1000 ? `${(value / 1000).toFixed(2)} µs` : `${value.toFixed(0)} ns`,
	ratio: (value: number): string => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '—'),
};

/** The median time of `runs` calls of a synchronous `run`, in ms (for the in-process micro-benchmarks). */
export function medianTimeMs(run: () => unknown, runs = 5): number {
	const times: number[] = [];
	for (let n = 0; n < runs; n++) {
		const started = performance.now();
		run();
		times.push(performance.now() - started);
	}
	return median(times);
}

// For the execution hint; kept for one run (one n8n context) only.
const fresh = () => ({ requests: 0, pages: 0, mostPagesOfOneList: 0, rateLimited: 0, waitedMs: 0 });
export type RunStats = ReturnType<typeof fresh>;
const statsByContext = new WeakMap<object, RunStats>();

export function runStatsOf(context: object) {
	const stats = statsByContext.get(context) ?? fresh();
	statsByContext.set(context, stats);
	return stats;
}

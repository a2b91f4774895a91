/** What one run of a node (one n8n context) cost at the CRM, for its execution hint; kept for that run only. */
const fresh = () => ({ requests: 0, pages: 0, mostPagesOfOneList: 0, rateLimited: 0, waitedMs: 0 });
export type RunStats = ReturnType<typeof fresh>;
const statsByContext = new WeakMap<object, RunStats>();

/** The counters of a context's run: the transport counts into them, the action node reads them after its last item. */
export const runStatsOf = (context: object): RunStats =>
	statsByContext.get(context) ?? (statsByContext.set(context, fresh()).get(context) as RunStats);

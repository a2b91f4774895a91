/**
 * What one run of the node cost at the CRM: requests sent, pages of lists read, answers 429 absorbed and the time
 * waited for the rate limit. Counted per n8n context (one run of a node, like request.ts's `connections`), read by
 * the router at the end of the run and shown as an execution hint (helpers/hints.ts). The counters live only as long
 * as the context: nothing is kept across runs or shared between executions.
 */
export interface RunStats {
	/** HTTP requests sent to the CRM (retries included). */
	requests: number;
	/** Pages of lists read (transport/pagination.ts), all lists of the run together. */
	pages: number;
	/** The most pages one list of the run took (0 when the run read no list). */
	mostPagesOfOneList: number;
	/** Answers 429 (Too Many Requests) the transport waited out and retried, or gave up on. */
	rateLimited: number;
	/** Time waited before sending, for the rate limit (the pacer's waits, 429 waits included), in ms. */
	waitedMs: number;
}

const statsByContext = new WeakMap<object, RunStats>();

const none = (): RunStats => ({
	requests: 0,
	pages: 0,
	mostPagesOfOneList: 0,
	rateLimited: 0,
	waitedMs: 0,
});

function statsFor(context: object): RunStats {
	let stats = statsByContext.get(context);
	if (!stats) statsByContext.set(context, (stats = none()));
	return stats;
}

/** The hooks the transport calls: one line each in request.ts and pagination.ts. */
export const countStats = {
	request(context: object): void {
		statsFor(context).requests++;
	},
	/** A page read; `number` is its place in its list (1 for the first page). */
	page(context: object, number: number): void {
		const stats = statsFor(context);
		stats.pages++;
		stats.mostPagesOfOneList = Math.max(stats.mostPagesOfOneList, number);
	},
	rateLimited(context: object): void {
		statsFor(context).rateLimited++;
	},
	waited(context: object, ms: number): void {
		if (Number.isFinite(ms) && ms > 0) statsFor(context).waitedMs += ms;
	},
};

/** What this context's run has cost so far (zeros when it made no request). */
export function runStatsOf(context: object): RunStats {
	return { ...(statsByContext.get(context) ?? none()) };
}

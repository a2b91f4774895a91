/**
 * Two polls of one node never overlap in this n8n process: a poll that starts while the previous one still runs
 * (a long list read at the API's pace, slower than the poll times) is skipped, and the next poll time tries again.
 *
 * The guard is per process. n8n runs a workflow's polls in one process (the main instance; in queue mode the leader),
 * so that covers a normal setup; two n8n instances polling the same workflow (two mains without leader election)
 * each keep their own guard and their own copy of the memory, and could both emit a lead.
 */
const running = new Set<string>();

/** Runs `poll` unless a poll with the same key is running; then resolves to `skipped()` without running it. */
export async function withoutOverlap<T>(
	key: string,
	poll: () => Promise<T>,
	skipped: () => T,
): Promise<T> {
	if (running.has(key)) return skipped();
	running.add(key);
	try {
		return await poll();
	} finally {
		running.delete(key);
	}
}

/**
 * The package's one deadline type: the instant (ms since the epoch) by which a request, a list, a wait or a whole
 * lifecycle step must be done. A caller makes one with `deadlineIn` and hands it down; each step asks `msLeft`.
 */
export type Deadline = number;

export function deadlineIn(ms: number): Deadline {
	return Date.now() + ms;
}

/** What is left of `deadline`, in ms (0 once it has passed; Infinity for none). */
export function msLeft(deadline: Deadline): number {
	return Math.max(0, deadline - Date.now());
}

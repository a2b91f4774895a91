/** Ms since the epoch: made with `deadlineIn`, handed down; each step asks `msLeft`. */
export type Deadline = number;

export function deadlineIn(ms: number): Deadline {
	return Date.now() + ms;
}

/** 0 once passed; Infinity for none. */
export function msLeft(deadline: Deadline): number {
	return Math.max(0, deadline - Date.now());
}

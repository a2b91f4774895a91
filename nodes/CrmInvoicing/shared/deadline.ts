/** Ms since the epoch: made with `deadlineIn`, handed down; each step asks `msLeft`. */
export type Deadline = number;

export const deadlineIn = (ms: number): Deadline => Date.now() + ms;

/** 0 once passed; Infinity for none. */
export const msLeft = (deadline: Deadline) => Math.max(0, deadline - Date.now());

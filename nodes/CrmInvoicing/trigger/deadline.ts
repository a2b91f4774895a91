import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

/**
 * The longest time one of checkExists, create and delete may take, every request, retry and wait included. n8n
 * activates workflows one after the other, so a CRM that accepts connections and never answers holds up the
 * activation of every later workflow for at most this long; the trigger's own activation then fails with an error
 * that says so. Each request gets what is left of it as its time limit (`timeLimitMs`).
 */
export const HOOK_TIME_LIMIT_MS = 20_000;

/**
 * The longest time a delivery may spend subscribing anew (renewal.ts): the CRM waits 20 s for its answer, and the
 * answer (503) goes out once the new subscription is stored, so that n8n saves it.
 */
export const RENEWAL_TIME_LIMIT_MS = 15_000;

/** The transport throws NodeApiError already; anything else is wrapped so n8n shows it as the node's error. */
export function nodeError(node: INode, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : String(error));
}

/** One deadline for a piece of work (a hook call, a renewal) and every request in it. */
export class Deadline {
	private readonly end: number;

	constructor(
		private readonly node: INode,
		/** What is being done, as in "the trigger could not <what>". */
		private readonly what: string,
		readonly limitMs: number,
	) {
		this.end = Date.now() + limitMs;
	}

	/** What is left, in ms (at least 1, so a request made now fails at once instead of having no limit). */
	left(): number {
		return Math.max(1, this.end - Date.now());
	}

	expired(): boolean {
		return Date.now() >= this.end - 50;
	}

	/** What is left above the share of the limit kept for later work, in ms (may be 0 or less: no time). */
	leftAbove(share: number): number {
		return this.end - Date.now() - share * this.limitMs;
	}

	/** The error of work that ran out of time: it names the time limit; the transport's last error is in the description. */
	error(detail: string): NodeOperationError {
		return new NodeOperationError(this.node, `The CRM did not answer in time: the trigger could not ${this.what} within ${this.limitMs / 1000} s`, {
			// The transport's own text goes here: n8n would replace a message holding a connection error code.
			description: `The CRM API did not answer in time (it may be down, overloaded or slow; ${detail.slice(0, 300)}). Check the CRM and the Base URL of the credential, then activate the workflow again.`,
		});
	}

	/** Runs `work`; an error after the deadline passed is rethrown as one that names the time limit. */
	async run<T>(work: () => Promise<T>): Promise<T> {
		try {
			return await work();
		} catch (error) {
			if (!this.expired()) throw nodeError(this.node, error);
			throw this.error(`last error: ${error instanceof Error ? error.message : String(error)}`);
		}
	}
}

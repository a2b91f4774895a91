/**
 * The send log of the documented rate (used while answers carry no RateLimit-* headers): how many requests went out
 * in the last window. It counts requests in LOG_SLICES slices of the window (a slice's requests count as sent at the
 * slice's end, so it errs on the slow side by at most one slice), so its memory is a fixed number of counters whatever
 * the rate.
 */

/** Slices of the window the log counts in. */
export const LOG_SLICES = 240;

/**
 * Margin of the pacing without RateLimit-* headers: a request counts for the server when it arrives, a little after
 * the node sent it, so the next window's first request waits this much longer than the window itself.
 */
export const DOCUMENTED_MARGIN_MS = 250;

export class SendLog {
	/** Slice number and count, oldest first, and their sum. */
	private readonly slices: number[] = [];

	private readonly counts: number[] = [];

	private sum = 0;

	private readonly sliceMs: number;

	constructor(private readonly windowMs: number) {
		this.sliceMs = windowMs / LOG_SLICES;
	}

	/** Requests sent in the last window. */
	get total(): number {
		return this.sum;
	}

	/** Entries held (at most LOG_SLICES + 2, whatever the rate). */
	get entries(): number {
		return this.slices.length;
	}

	/** Drops the slices that no longer count at `now`. */
	expire(now: number): void {
		const expiredBefore = now - this.windowMs - DOCUMENTED_MARGIN_MS;
		while (this.slices.length > 0 && (this.slices[0] + 1) * this.sliceMs <= expiredBefore) {
			this.sum -= this.counts[0];
			this.slices.shift();
			this.counts.shift();
		}
	}

	/** Counts one request sent at `now`. */
	add(now: number): void {
		const slice = Math.floor(now / this.sliceMs);
		const last = this.slices.length - 1;
		if (last >= 0 && this.slices[last] === slice) this.counts[last]++;
		else {
			this.slices.push(slice);
			this.counts.push(1);
		}
		this.sum++;
	}

	/** When the oldest entry stops counting (`now` when the log is empty). */
	freesAt(now: number): number {
		return this.slices.length === 0
			? now
			: (this.slices[0] + 1) * this.sliceMs + this.windowMs + DOCUMENTED_MARGIN_MS;
	}
}

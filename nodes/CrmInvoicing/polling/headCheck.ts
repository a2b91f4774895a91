import type { IDataObject } from 'n8n-workflow';

import type { ListOrder } from './memory';

/** A lead's createdAt in ms, or NaN when it has none the trigger can read. */
export const createdAtOf = (record: IDataObject): number =>
	typeof record.createdAt === 'string' ? Date.parse(record.createdAt) : NaN;

/** The order a whole list is in, by createdAt. */
export function orderOf(times: number[]): ListOrder {
	let up = false;
	let down = false;
	for (let i = 1; i < times.length; i++) {
		if (Number.isNaN(times[i]) || Number.isNaN(times[i - 1])) return 'mixed';
		if (times[i] > times[i - 1]) up = true;
		if (times[i] < times[i - 1]) down = true;
	}
	if (up && down) return 'mixed';
	if (down) return 'newest';
	if (up) return 'oldest';
	return 'unknown';
}

/**
 * The head of a newest-first list, read page by page: whether the node may stop reading after `page`.
 *
 * It may when this poll's pages prove the list is newest first down to a lead older than every lead it remembers:
 * the first lead is at least as new as the newest remembered, createdAt never increases along the pages read, and the
 * last lead read is older than the newest remembered. Then every lead further down is older still, so none is new by
 * its createdAt. A lead it does not know that is older than the newest remembered breaks that proof (the API does not
 * list by creation, or mixes orders): the node then reads the whole list this poll. A lead listed out of order further
 * down (an import that keeps old creation dates) is found by the periodic full read (Full Read Interval).
 */
export class HeadCheck {
	private previous: number | undefined;
	private isBroken = false;

	constructor(
		private readonly newest: number | undefined,
		private readonly known: Record<string, string>,
	) {
		if (newest === undefined) this.isBroken = true;
	}

	/** Whether the pages read so far failed the proof (the poll reads the whole list). */
	get broken(): boolean {
		return this.isBroken;
	}

	/** Takes one page (in list order, with the leads' ids); true when no further page can hold a new lead. */
	page(records: IDataObject[], ids: Array<string | undefined>): boolean {
		if (this.isBroken || this.newest === undefined) return false;
		for (let i = 0; i < records.length; i++) {
			const time = createdAtOf(records[i]);
			const id = ids[i];
			if (Number.isNaN(time)) return this.break();
			if (this.previous === undefined && time < this.newest) return this.break();
			if (this.previous !== undefined && time > this.previous) return this.break();
			if (time < this.newest && (id === undefined || this.known[id] === undefined))
				return this.break();
			this.previous = time;
		}
		return this.previous !== undefined && this.previous < this.newest;
	}

	private break(): false {
		this.isBroken = true;
		return false;
	}
}

/**
 * A Map that holds at most `limit` entries: setting one past the limit drops the least recently set or touched.
 * The package's one size-capped map: every in-process memory (caches, per-execution memories, queues) uses it, so
 * that no memory grows with what the network or the workflows send.
 */
export class BoundedMap<K, V> {
	private readonly entries = new Map<K, V>();

	constructor(readonly limit: number) {
		if (!Number.isInteger(limit) || limit < 1)
			throw new RangeError(`BoundedMap limit must be a positive integer, not ${limit}`);
	}

	/** The value, without changing its place. */
	peek(key: K): V | undefined {
		return this.entries.get(key);
	}

	/** The value, moved to the newest place (it is dropped last). */
	get(key: K): V | undefined {
		if (!this.entries.has(key)) return undefined;
		const value = this.entries.get(key) as V;
		this.entries.delete(key);
		this.entries.set(key, value);
		return value;
	}

	has(key: K): boolean {
		return this.entries.has(key);
	}

	/** Sets the value at the newest place, then drops the oldest entries past the limit. */
	set(key: K, value: V): this {
		this.entries.delete(key);
		this.entries.set(key, value);
		while (this.entries.size > this.limit) {
			const oldest = this.entries.keys().next();
			if (oldest.done) break;
			this.entries.delete(oldest.value);
		}
		return this;
	}

	/** The value for `key`, created with `make` (and set) when there is none; either way at the newest place. */
	getOrSet(key: K, make: () => V): V {
		const found = this.get(key);
		if (found !== undefined || this.entries.has(key)) return found as V;
		const made = make();
		this.set(key, made);
		return made;
	}

	delete(key: K): boolean {
		return this.entries.delete(key);
	}
}

/**
 * When each key (at most `maxKeys`) last had its turn, to ration work per key to one per `intervalMs`. A clock set
 * back counts as past the interval, so a turn is never withheld for longer than the interval.
 */
export class Turns {
	private readonly last: BoundedMap<string, number>;

	constructor(
		readonly intervalMs: number,
		maxKeys: number,
	) {
		this.last = new BoundedMap(maxKeys);
	}

	/** Whether `key` had a turn less than the interval before `now`. */
	recent(key: string, now = Date.now()): boolean {
		const last = this.last.get(key);
		return last !== undefined && now >= last && now - last < this.intervalMs;
	}

	/** Starts `key`'s turn at `now`. */
	start(key: string, now = Date.now()): void {
		this.last.set(key, now);
	}

	/** Starts `key`'s turn now unless it had one within the interval; whether it did start. */
	take(key: string): boolean {
		const now = Date.now();
		if (this.recent(key, now)) return false;
		this.start(key, now);
		return true;
	}
}

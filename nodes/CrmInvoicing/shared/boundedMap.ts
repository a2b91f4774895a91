/**
 * A Map that holds at most `limit` entries: setting one past the limit drops the least recently set or read (`get`;
 * `peek` reads without touching). The package's one size-capped map: every in-process memory (caches, per-execution
 * memories, queues) uses it, so that no memory grows with what the network or the workflows send.
 */
export class BoundedMap<K, V> extends Map<K, V> {
	constructor(readonly limit: number) {
		super();
		if (!Number.isInteger(limit) || limit < 1)
			throw new RangeError(`BoundedMap limit must be a positive integer, not ${limit}`);
	}

	peek(key: K): V | undefined {
		return super.get(key);
	}

	get(key: K): V | undefined {
		const value = super.get(key);
		if (value !== undefined || super.has(key)) this.set(key, value as V);
		return value;
	}

	set(key: K, value: V): this {
		super.delete(key);
		super.set(key, value);
		for (const oldest of this.keys()) {
			if (this.size <= this.limit) break;
			this.delete(oldest);
		}
		return this;
	}

	/** The value for `key`, created with `make` (and set) when there is none; either way at the newest place. */
	getOrSet(key: K, make: () => V): V {
		if (!this.has(key)) this.set(key, make());
		return this.get(key) as V;
	}
}

/**
 * When each key (at most `maxKeys`) last had its turn, to ration work per key to one per `intervalMs`. A clock set
 * back counts as past the interval, so a turn is never withheld for longer than the interval.
 */
export class Turns extends BoundedMap<string, number> {
	constructor(
		readonly intervalMs: number,
		maxKeys: number,
	) {
		super(maxKeys);
	}

	/** Starts `key`'s turn now unless it had one within the interval; whether it did start. */
	take(key: string): boolean {
		const now = Date.now();
		const last = this.get(key);
		if (last !== undefined && now >= last && now - last < this.intervalMs) return false;
		this.set(key, now);
		return true;
	}
}

// Every in-process memory is one of these, so that none grows with what the network or the workflows send.
// Past `limit`, the least recently set or read entry goes (`peek` does not touch).
export class BoundedMap<K, V> extends Map<K, V> {
	constructor(readonly limit: number) {
		super();
		if (!Number.isInteger(limit) || limit < 1)
			throw new RangeError(`BoundedMap limit must be a positive integer, not ${limit}`);
	}

	peek(key: K) {
		return super.get(key);
	}

	get(key: K) {
		const value = super.get(key);
		if (super.has(key)) this.set(key, value as V);
		return value;
	}

	set(key: K, value: V) {
		super.delete(key);
		super.set(key, value);
		for (const oldest of this.keys()) {
			if (this.size <= this.limit) break;
			this.delete(oldest);
		}
		return this;
	}

	/** For values that are never undefined or null. */
	getOrSet(key: K, make: () => V) {
		const value = this.get(key) ?? make();
		this.set(key, value);
		return value;
	}
}

/** A clock set back counts as past the interval, so a turn is never withheld longer than it. */
export class Turns extends BoundedMap<string, number> {
	constructor(
		readonly intervalMs: number,
		maxKeys: number,
	) {
		super(maxKeys);
	}

	take(key: string) {
		const now = Date.now();
		const last = this.get(key);
		if (last !== undefined && now >= last && now - last < this.intervalMs) return false;
		this.set(key, now);
		return true;
	}
}

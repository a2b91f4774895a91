import { createHash } from 'node:crypto';

import { sleep as n8nSleep } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { DOCUMENTED_RATE_LIMIT, RETRY } from './limits';
import { BoundedMap } from './boundedMap';
import { KeyBudget } from './keyBudget';
import { SendLog } from './sendLog';
import { boundedWait, PacingWaitTooLongError, rateLimitWaitMs } from './rateLimit';

export { PacingWaitTooLongError };

/** A queued request whose turn is this much later than the wait it accepted is refused instead of sent. */
const TURN_GRACE_MS = 1_000;

/** One request's turn: handed to `settle` with the answer, and to `take` again (its ticket) for a retry. */
export interface PacerTurn {
	/** The request's place in the queue; a retry keeps it, so it goes before requests that came later. */
	readonly ticket: number;
	/** @internal The window the turn was given in; answers of an older window are not read. */
	readonly epoch: number;
	/** @internal The first request of its window (the one whose answer tells the budget). */
	readonly first: boolean;
	/** @internal */
	settled: boolean;
	/**
	 * How long the request waited for this turn, in ms: the time it queued, or the wait the pacer foresaw when it
	 * queued if that is longer (the figure the run's execution hint reports).
	 */
	waitedMs: number;
}

interface Waiter {
	ticket: number;
	/** Pacer time after which the waiter is refused instead of sent. */
	deadline: number;
	capMs: number;
	/** Pacer time it queued at, and the wait foreseen then. */
	queuedAt: number;
	foreseenMs: number;
	resolve: (turn: PacerTurn) => void;
	reject: (error: Error) => void;
}

export interface PacerOptions {
	/** The clock, in ms. */
	now?: () => number;
	/** Waits `ms` (the pacer's only timer); aborted when it is no longer needed. */
	sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
	/** The rate used while answers carry no RateLimit-* headers (the credential's "Requests per Minute"). */
	requestsPerMinute?: number;
}

/**
 * Paces the requests of one API key, shared by all executions in this n8n process.
 *
 * - **First in, first out.** Requests wait in one queue, ordered by when they first asked; a retry after a 429 keeps
 *   its place. The queue is released one request at a time, never more than the known budget: a spent window is
 *   never answered by sending every queued request at its reset.
 * - **The API's own count first.** While answers carry `RateLimit-Remaining` and `RateLimit-Reset`, they describe
 *   the key's budget across every process that uses it (queue-mode workers, other n8n instances). At the start of a
 *   window one request goes first; its answer tells the budget left, and the queue is released against it, each
 *   answer updating it. When other processes spend the same budget (it drops faster than this process spends it),
 *   this process takes only its share of what is left, so processes sharing a key slow down together.
 * - **The documented rate otherwise.** While answers carry no such headers, at most the documented 60 requests (or
 *   the credential's "Requests per Minute") go out in any minute. The log behind it is a fixed number of counters.
 * - **Bounded waits.** A request whose turn would come later than the wait it accepts (RETRY.maxPacingWaitMs, or
 *   what is left of its time limit) is refused at once, before it is sent, instead of being sent over the limit.
 *   After a 429 the key waits for what the API asked, up to RETRY.maxWaitMs; a longer wait is not remembered.
 *
 * Its memory is the queue (the requests actually waiting) and a fixed set of numbers, whatever the rate.
 */
export class RateLimitPacer {
	private readonly clockNow: () => number;

	private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

	/** The pacer's time never goes back behind a wait it has served (see clock()). */
	private clockFloor = 0;

	/** What the key may send now: the API's announced window, or the documented rate. */
	private readonly budget: KeyBudget;

	/** Requests waiting for their turn, by ticket. */
	private readonly queue: Waiter[] = [];

	private lastTicket = 0;

	/** The shares of this key asked for (takeShare), by their requests per minute. */
	private readonly shares = new Map<number, { log: SendLog; floor: number }>();

	/** The one timer, if any: when it fires, and how to cancel it. */
	private timer: { at: number; abort: AbortController } | undefined;

	constructor(options: PacerOptions = {}) {
		this.clockNow = options.now ?? Date.now;
		this.sleep = options.sleep ?? n8nSleep;
		this.budget = new KeyBudget(options.requestsPerMinute ?? DOCUMENTED_RATE_LIMIT.requests);
	}

	/** The pacer's clock: a wait it has served counts as over, even if the clock says a moment less. */
	private clock(): number {
		return Math.max(this.clockNow(), this.clockFloor);
	}

	/** Requests waiting for their turn (for tests and figures). */
	get waiting(): number {
		return this.queue.length;
	}

	/** Entries in the documented rate's send log (at most LOG_SLICES + 2, whatever the rate). */
	get logEntries(): number {
		return this.budget.logEntries;
	}

	/**
	 * Waits for the request's turn, and takes it. Throws PacingWaitTooLongError at once when the turn would come later
	 * than `maxWaitMs` (at most RETRY.maxPacingWaitMs), and when a queued request's turn has not come by then.
	 * `ticket`: the turn of an earlier attempt of the same request (a retry after a 429 keeps its place).
	 */
	async take(options: { maxWaitMs?: number; ticket?: number } = {}): Promise<PacerTurn> {
		const now = this.clock();
		this.budget.advance(now);
		const capMs = Math.max(
			0,
			Math.min(options.maxWaitMs ?? RETRY.maxPacingWaitMs, RETRY.maxPacingWaitMs),
		);
		const ticket = options.ticket ?? ++this.lastTicket;
		let position = 0;
		while (position < this.queue.length && this.queue[position].ticket < ticket) position++;
		if (position === 0 && this.budget.canRelease()) return this.release(ticket, now);
		const waitMs = this.budget.predictWait(position, now);
		if (waitMs > capMs) throw new PacingWaitTooLongError(waitMs, capMs, this.queue.length);
		return await new Promise<PacerTurn>((resolve, reject) => {
			// A request with a time limit of its own gets no grace: past its limit it could not be sent in time anyway.
			const grace = options.maxWaitMs === undefined ? TURN_GRACE_MS : 0;
			this.queue.splice(position, 0, {
				ticket,
				deadline: now + capMs + grace,
				capMs,
				queuedAt: now,
				foreseenMs: waitMs,
				resolve,
				reject,
			});
			this.pump();
		});
	}

	/**
	 * The answer to a turn: `status` and `headers` of the response, or nothing when none came (a dropped connection or
	 * a timeout). Reads the window from the headers, and releases what the queue may now send. After a 429 the key
	 * waits `rateLimitWaitMs` (what the request will wait; by default what the headers ask), up to RETRY.maxWaitMs.
	 */
	settle(turn: PacerTurn, status?: number, headers?: IDataObject, waitMs?: number): void {
		if (turn.settled) return;
		turn.settled = true;
		const now = this.clock();
		const wait = status === 429 ? (waitMs ?? rateLimitWaitMs(headers, now)) : undefined;
		this.budget.settle(turn, now, status, headers, wait);
		this.pump();
	}

	/**
	 * Waits until this key's callers that asked for a share of `perMinute` (the polling triggers: half the key) have
	 * sent fewer than that in the last 60 s, and counts one more for them. The share is a part of this one limiter,
	 * not a second one: the request then takes its turn here like any other.
	 */
	async takeShare(perMinute: number): Promise<void> {
		const share = this.shares.get(perMinute) ?? { log: new SendLog(60_000), floor: 0 };
		this.shares.set(perMinute, share);
		for (;;) {
			const now = Math.max(this.clockNow(), share.floor);
			share.log.expire(now);
			if (share.log.total < perMinute) {
				share.log.add(now);
				return;
			}
			const until = share.log.freesAt(now);
			await this.sleep(boundedWait(until - now, RETRY.maxPacingWaitMs));
			share.floor = until;
		}
	}

	private release(ticket: number, now: number): PacerTurn {
		return { ticket, ...this.budget.release(now), settled: false, waitedMs: 0 };
	}

	/** Releases what may go now, refuses what waited past its cap, and sets the one timer for the next change. */
	private pump(): void {
		const now = this.clock();
		this.budget.advance(now);
		for (let index = 0; index < this.queue.length; ) {
			const waiter = this.queue[index];
			if (now > waiter.deadline) {
				this.queue.splice(index, 1);
				waiter.reject(
					new PacingWaitTooLongError(
						Math.max(now - waiter.deadline, 0) + waiter.capMs + 1,
						waiter.capMs,
						this.queue.length,
					),
				);
			} else index++;
		}
		while (this.queue.length > 0 && this.budget.canRelease()) {
			const waiter = this.queue.shift() as Waiter;
			const turn = this.release(waiter.ticket, now);
			turn.waitedMs = Math.max(now - waiter.queuedAt, waiter.foreseenMs);
			waiter.resolve(turn);
		}
		if (this.queue.length === 0) {
			this.cancelTimer();
			return;
		}
		let at = this.budget.nextChange(now);
		for (const waiter of this.queue) at = Math.min(at, waiter.deadline + 1);
		this.schedule(Math.max(at, now));
	}

	private cancelTimer(): void {
		this.timer?.abort.abort();
		this.timer = undefined;
	}

	/** Sets the timer for `at`, unless one is set for then or earlier (it runs the pump, which sets the next). */
	private schedule(at: number): void {
		if (this.timer && this.timer.at <= at) return;
		this.cancelTimer();
		const timer = { at, abort: new AbortController() };
		this.timer = timer;
		this.sleep(
			boundedWait(at - this.clock(), RETRY.maxPacingWaitMs + TURN_GRACE_MS),
			timer.abort.signal,
		).then(
			() => {
				if (this.timer !== timer) return;
				this.timer = undefined;
				this.clockFloor = Math.max(this.clockFloor, at);
				this.pump();
			},
			() => undefined,
		);
	}
}

/**
 * Pacers by key, at most this many: the least recently used is dropped past it (a key unused for that long has no
 * request waiting), so the memory does not grow with the credentials an n8n process has seen.
 */
const MAX_PACERS = 1_000;

const pacers = new BoundedMap<string, RateLimitPacer>(MAX_PACERS);

/**
 * The name of an API key (with its Base URL) in this process's memories (its pacer, the polling triggers' share): a
 * hash of both, never the key itself.
 */
export function keyIdOf(baseUrl: string, apiKey: string): string {
	return createHash('sha256').update(`${baseUrl}\n${apiKey}`).digest('base64url').slice(0, 24);
}

/** One pacer per API key (its keyIdOf) and rate, shared by all executions in this n8n process: the limit is per key. */
export function pacerOf(
	keyId: string,
	requestsPerMinute: number = DOCUMENTED_RATE_LIMIT.requests,
): RateLimitPacer {
	return pacers.getOrSet(
		`${keyId}\n${requestsPerMinute}`,
		() => new RateLimitPacer({ requestsPerMinute }),
	);
}

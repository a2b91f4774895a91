import { createHash } from 'node:crypto';

import { NodeOperationError, sleep as n8nSleep } from 'n8n-workflow';
import type { IDataObject, INode } from 'n8n-workflow';

import { DOCUMENTED_RATE_LIMIT, RETRY } from './limits';
import { headerValue } from './values';

/** Margin added to a wait for the window to reset, so the next request lands in the new window. */
const RESET_MARGIN_MS = 50;

/**
 * Margin of the pacing without RateLimit-* headers: a request counts for the server when it arrives, a little after
 * the node sent it, so the next window's first request waits this much longer than the window itself.
 */
const DOCUMENTED_MARGIN_MS = 250;

/**
 * How long the other queued requests of a key wait for the answer to the first request of a window (which tells the
 * window's budget) before they go by the documented rate instead, in ms: a slow first answer does not hold them up.
 */
const FIRST_ANSWER_PATIENCE_MS = 2_000;

/**
 * The send log of the documented rate counts requests in this many slices of its window (a slice's requests count as
 * sent at the slice's end, so the log errs on the slow side by at most one slice). Its memory is this many counters,
 * whatever the rate.
 */
const LOG_SLICES = 240;

/** Most processes the pacer assumes share a key (the divisor of a window's budget), however busy the others look. */
const MAX_SHARERS = 16;

/** A queued request whose turn is this much later than the wait it accepted is refused instead of sent. */
const TURN_GRACE_MS = 1_000;

/** A wait, bounded: never negative, never more than `cap` (so never near a timer's 2^31 ms overflow). */
export function boundedWait(ms: number, cap: number = RETRY.maxWaitMs): number {
	if (!Number.isFinite(ms) || ms <= 0) return ms === Infinity ? cap : 0;
	return Math.min(Math.ceil(ms), cap);
}

function toInt(value: string | undefined): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const number = Number(value);
	return Number.isFinite(number) ? number : undefined;
}

/** `RateLimit-Reset` is seconds until the window resets; a value that looks like a Unix time is read as one. */
function resetToMs(reset: number, now: number): number {
	return reset > 1_000_000_000 ? Math.max(0, reset * 1000 - now) : Math.max(0, reset * 1000);
}

/**
 * How long a 429 asks us to wait, from `Retry-After` (seconds or HTTP date), else `RateLimit-Reset`. Not bounded:
 * the caller compares it with RETRY.maxWaitMs and fails at once when the API asks for more.
 */
export function rateLimitWaitMs(headers: IDataObject | undefined, now = Date.now()): number {
	const retryAfter = headerValue(headers, 'retry-after');
	if (retryAfter !== undefined) {
		const seconds = toInt(retryAfter);
		if (seconds !== undefined) return Math.max(0, seconds * 1000);
		const date = Date.parse(retryAfter);
		if (!Number.isNaN(date)) return Math.max(0, date - now);
	}
	const reset = toInt(headerValue(headers, 'ratelimit-reset'));
	if (reset !== undefined) return resetToMs(reset, now) + RESET_MARGIN_MS;
	return RETRY.defaultRateLimitWaitMs;
}

/** Whether a response announces its rate-limit window (`RateLimit-Remaining` and `RateLimit-Reset`). */
export function announcesRateLimit(headers: IDataObject | undefined): boolean {
	return (
		toInt(headerValue(headers, 'ratelimit-remaining')) !== undefined && toInt(headerValue(headers, 'ratelimit-reset')) !== undefined
	);
}


/** A request that cannot get a turn within the wait it may accept: refused before it is sent. */
export class PacingWaitTooLongError extends Error {
	constructor(
		/** When the request's turn would come, in ms from now (an estimate from the known rate and the queue). */
		readonly waitMs: number,
		/** The longest wait the request accepted, in ms. */
		readonly capMs: number,
		/** Requests of this key waiting for their turn, in this process. */
		readonly queued: number,
	) {
		super(`No turn within ${Math.ceil(capMs / 1000)} s: the next turn is in about ${Math.ceil(waitMs / 1000)} s`);
		this.name = 'PacingWaitTooLongError';
	}
}

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

	/** The documented rate (or the credential's): requests per window of `windowMs`. */
	private readonly requestsPerWindow: number;

	private readonly windowMs: number;

	/** The pacer's time never goes back behind a wait it has served (see clock()). */
	private clockFloor = 0;

	/**
	 * - `first`: nothing is known about the current window; one request goes, and its answer tells.
	 * - `announced`: the API's headers tell the window's budget (`remaining`) and its reset (`resetAt`).
	 * - `documented`: answers carry no RateLimit-* headers; the documented rate applies.
	 */
	private mode: 'first' | 'announced' | 'documented' = 'first';

	/** Counts windows (and 429s); turns of an older one do not count any more. */
	private epoch = 0;

	/** When the first request of the current window was sent, while its answer is awaited. */
	private firstSentAt: number | undefined;

	/** The first answer took longer than FIRST_ANSWER_PATIENCE_MS: the documented rate releases the queue meanwhile. */
	private firstAnswerLate = false;

	/** The budget left in the current window, by the lowest `RateLimit-Remaining` read in it. */
	private remaining = 0;

	/** Latest time the current window resets, by its answers (each reset is read as an upper bound). */
	private resetAt = 0;

	/** Requests this process may still send in the current window before the next answer. */
	private tokens = 0;

	/** Requests of the current window sent and not yet answered. */
	private inFlight = 0;

	/** Answers of the current window read. */
	private answered = 0;

	/** The budget of a whole window (`RateLimit-Limit`, else the most ever seen left plus one). */
	private knownLimit: number | undefined;

	/** The length of the API's window, by the longest `RateLimit-Reset` seen (bounded by RETRY.maxWaitMs). */
	private knownWindowMs: number | undefined;

	/** How many processes seem to share the key (1: this one alone). */
	private sharers = 1;

	/**
	 * Others spent this key's budget in the previous window (or a 429 said so): in this window the process takes half
	 * of what is left at its first answer, and at most half of the window in all, leaving the other half to them.
	 */
	private sharedBefore = false;

	/** Others spent of the current window, by the answers read so far. */
	private othersSeen = 0;

	/** Requests this process sent in the current window. */
	private sentInWindow = 0;

	/** Send log of the documented rate: slice number and count, oldest first, and their sum. */
	private readonly logSlice: number[] = [];

	private readonly logCount: number[] = [];

	private logTotal = 0;

	private readonly sliceMs: number;

	/** Requests waiting for their turn, by ticket. */
	private readonly queue: Waiter[] = [];

	private lastTicket = 0;

	/** The one timer, if any: when it fires, and how to cancel it. */
	private timer: { at: number; abort: AbortController } | undefined;

	constructor(options: PacerOptions = {}) {
		this.clockNow = options.now ?? Date.now;
		this.sleep = options.sleep ?? n8nSleep;
		const rate = options.requestsPerMinute ?? DOCUMENTED_RATE_LIMIT.requests;
		this.requestsPerWindow = Number.isFinite(rate) && rate >= 1 ? Math.floor(rate) : DOCUMENTED_RATE_LIMIT.requests;
		this.windowMs = DOCUMENTED_RATE_LIMIT.windowSeconds * 1000;
		this.sliceMs = this.windowMs / LOG_SLICES;
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
		return this.logSlice.length;
	}

	/**
	 * Waits for the request's turn, and takes it. Throws PacingWaitTooLongError at once when the turn would come later
	 * than `maxWaitMs` (at most RETRY.maxPacingWaitMs), and when a queued request's turn has not come by then.
	 * `ticket`: the turn of an earlier attempt of the same request (a retry after a 429 keeps its place).
	 */
	async take(options: { maxWaitMs?: number; ticket?: number } = {}): Promise<PacerTurn> {
		const now = this.clock();
		this.advance(now);
		const capMs = Math.max(0, Math.min(options.maxWaitMs ?? RETRY.maxPacingWaitMs, RETRY.maxPacingWaitMs));
		const ticket = options.ticket ?? ++this.lastTicket;
		let position = 0;
		while (position < this.queue.length && this.queue[position].ticket < ticket) position++;
		if (position === 0 && this.canRelease()) return this.release(ticket, now);
		const waitMs = this.predictWait(position, now);
		if (waitMs > capMs) throw new PacingWaitTooLongError(waitMs, capMs, this.queue.length);
		return await new Promise<PacerTurn>((resolve, reject) => {
			// A request with a time limit of its own gets no grace: past its limit it could not be sent in time anyway.
			const grace = options.maxWaitMs === undefined ? TURN_GRACE_MS : 0;
			this.queue.splice(position, 0, { ticket, deadline: now + capMs + grace, capMs, queuedAt: now, foreseenMs: waitMs, resolve, reject });
			this.pump();
		});
	}

	/**
	 * The answer to a turn: `status` and `headers` of the response, or nothing when none came (a dropped connection or
	 * a timeout). Reads the window from the headers, and releases what the queue may now send.
	 */
	settle(turn: PacerTurn, status?: number, headers?: IDataObject): void {
		if (turn.settled) return;
		turn.settled = true;
		const now = this.clock();
		this.advance(now);
		const current = turn.epoch === this.epoch;
		if (current) this.inFlight = Math.max(0, this.inFlight - 1);
		if (status === 429) this.onRateLimited(headers, now);
		else if (status !== undefined && current) this.onAnswer(headers, now);
		// No answer, or one that told nothing of the window (a 429 asking for too long): the next request asks instead.
		if (current && turn.first && this.mode === 'first') this.firstSentAt = undefined;
		this.pump();
	}

	/** Reads an answer of the current window. */
	private onAnswer(headers: IDataObject | undefined, now: number): void {
		const remaining = toInt(headerValue(headers, 'ratelimit-remaining'));
		const reset = toInt(headerValue(headers, 'ratelimit-reset'));
		if (remaining === undefined || reset === undefined || remaining < 0) {
			// The API does not announce its window (or stopped): the documented rate applies.
			this.mode = 'documented';
			this.tokens = 0;
			return;
		}
		const resetMs = Math.min(resetToMs(reset, now), RETRY.maxWaitMs);
		const resetAt = now + resetMs;
		const limit = toInt(headerValue(headers, 'ratelimit-limit'));
		this.knownLimit = limit !== undefined && limit >= 1 ? Math.floor(limit) : Math.max(this.knownLimit ?? 0, remaining + 1);
		this.knownWindowMs = Math.max(this.knownWindowMs ?? 0, resetMs);
		const firstOfWindow = this.mode !== 'announced';
		if (firstOfWindow) {
			this.mode = 'announced';
			this.remaining = remaining;
			this.resetAt = resetAt;
		} else {
			// Answers can arrive out of order: the lowest budget and the earliest reset of the window hold.
			this.remaining = Math.min(this.remaining, remaining);
			this.resetAt = Math.min(this.resetAt, resetAt);
		}
		this.answered++;
		// What others spent of this window: its budget, less what is left, less what this process sent.
		const own = this.answered + this.inFlight;
		const others = Math.max(0, this.knownLimit - this.remaining - own);
		this.othersSeen = Math.max(this.othersSeen, others);
		let sharers = others > 0 ? Math.min(MAX_SHARERS, 1 + Math.ceil(others / Math.max(1, own))) : 1;
		// The first answer of a window says little about the others: they may not have started yet (their requests
		// are not counted), or this process came late in their window (they spent much). If others shared the last
		// window, take half of what is left to begin with; the next answers tell the shares.
		if (firstOfWindow && this.sharedBefore) sharers = 2;
		this.sharers = sharers;
		let tokens = Math.floor((this.remaining - this.inFlight) / sharers);
		// …and, while they share, at most half of the window in all: a process whose turn comes first in every window
		// does not starve one that comes later (whose requests would meet 429 after 429).
		if (this.sharedBefore) tokens = Math.min(tokens, Math.ceil(this.knownLimit / 2) - this.sentInWindow);
		this.tokens = Math.max(0, tokens);
	}

	/** After a 429 the window is spent until the wait the API asked for; a wait over RETRY.maxWaitMs is not kept. */
	private onRateLimited(headers: IDataObject | undefined, now: number): void {
		const waitMs = rateLimitWaitMs(headers, now);
		if (!(waitMs <= RETRY.maxWaitMs)) return;
		// Someone spent the budget this process counted on: in the next window it takes at most half.
		this.sharedBefore = true;
		this.othersSeen = 0;
		this.sentInWindow = 0;
		this.epoch++;
		this.mode = 'announced';
		this.remaining = 0;
		this.tokens = 0;
		this.inFlight = 0;
		this.answered = 0;
		this.firstSentAt = undefined;
		this.resetAt = now + Math.max(0, waitMs);
	}

	/** What time alone changes: a window that has reset, a first answer that is late, old entries of the send log. */
	private advance(now: number): void {
		if (this.mode === 'announced' && now >= this.resetAt + RESET_MARGIN_MS) {
			this.epoch++;
			this.mode = 'first';
			this.firstSentAt = undefined;
			this.firstAnswerLate = false;
			this.tokens = 0;
			this.inFlight = 0;
			this.answered = 0;
			// Only what the window just over showed is carried: a process left alone has the whole budget back after it.
			this.sharedBefore = this.othersSeen > 0;
			this.othersSeen = 0;
			this.sentInWindow = 0;
		}
		if (this.mode === 'first' && this.firstSentAt !== undefined && now >= this.firstSentAt + FIRST_ANSWER_PATIENCE_MS) {
			this.firstAnswerLate = true;
		}
		const expiredBefore = now - this.windowMs - DOCUMENTED_MARGIN_MS;
		while (this.logSlice.length > 0 && (this.logSlice[0] + 1) * this.sliceMs <= expiredBefore) {
			this.logTotal -= this.logCount[0];
			this.logSlice.shift();
			this.logCount.shift();
		}
	}

	private canRelease(): boolean {
		switch (this.mode) {
			case 'announced':
				return this.tokens > 0;
			case 'first':
				if (this.firstSentAt === undefined) return this.logTotal < this.requestsPerWindow || this.knownLimit !== undefined;
				return this.firstAnswerLate && this.logTotal < this.requestsPerWindow;
			default:
				return this.logTotal < this.requestsPerWindow;
		}
	}

	private release(ticket: number, now: number): PacerTurn {
		let first = false;
		if (this.mode === 'announced') this.tokens--;
		else if (this.mode === 'first' && this.firstSentAt === undefined) {
			first = true;
			this.firstSentAt = now;
		}
		this.inFlight++;
		this.sentInWindow++;
		const slice = Math.floor(now / this.sliceMs);
		const last = this.logSlice.length - 1;
		if (last >= 0 && this.logSlice[last] === slice) this.logCount[last]++;
		else {
			this.logSlice.push(slice);
			this.logCount.push(1);
		}
		this.logTotal++;
		return { ticket, epoch: this.epoch, first, settled: false, waitedMs: 0 };
	}

	/** When the oldest entry of the send log stops counting. */
	private logFreesAt(now: number): number {
		return this.logSlice.length === 0 ? now : (this.logSlice[0] + 1) * this.sliceMs + this.windowMs + DOCUMENTED_MARGIN_MS;
	}

	/** When time alone may let the head of the queue go (the pump runs again then). */
	private nextChange(now: number): number {
		switch (this.mode) {
			case 'announced':
				return this.resetAt + RESET_MARGIN_MS;
			case 'first':
				if (this.firstSentAt !== undefined && !this.firstAnswerLate) return this.firstSentAt + FIRST_ANSWER_PATIENCE_MS;
				return this.logFreesAt(now);
			default:
				return this.logFreesAt(now);
		}
	}

	/** An estimate of when the request at `position` in the queue gets its turn, in ms from now. */
	private predictWait(position: number, now: number): number {
		if (this.mode === 'documented' || (this.mode === 'first' && this.knownLimit === undefined)) {
			const free = Math.max(0, this.requestsPerWindow - this.logTotal);
			if (position < free) return 0;
			const windows = Math.ceil((position + 1 - free) / this.requestsPerWindow);
			return Math.max(0, this.logFreesAt(now) - now) + (windows - 1) * (this.windowMs + DOCUMENTED_MARGIN_MS);
		}
		const limit = this.knownLimit ?? this.requestsPerWindow;
		const perWindow = Math.max(1, Math.floor(limit / Math.max(1, this.sharers, this.sharedBefore ? 2 : 1)));
		const windowMs = (this.knownWindowMs ?? this.windowMs) + RESET_MARGIN_MS;
		const free = this.mode === 'announced' ? this.tokens : this.firstSentAt === undefined ? 1 : 0;
		if (position < free) return 0;
		const untilReset = this.mode === 'announced' ? Math.max(0, this.resetAt + RESET_MARGIN_MS - now) : 0;
		return untilReset + (Math.ceil((position + 1 - free) / perWindow) - (this.mode === 'announced' ? 1 : 0)) * windowMs;
	}

	/** Releases what may go now, refuses what waited past its cap, and sets the one timer for the next change. */
	private pump(): void {
		const now = this.clock();
		this.advance(now);
		for (let index = 0; index < this.queue.length; ) {
			const waiter = this.queue[index];
			if (now > waiter.deadline) {
				this.queue.splice(index, 1);
				waiter.reject(new PacingWaitTooLongError(Math.max(now - waiter.deadline, 0) + waiter.capMs + 1, waiter.capMs, this.queue.length));
			} else index++;
		}
		while (this.queue.length > 0 && this.canRelease()) {
			const waiter = this.queue.shift() as Waiter;
			const turn = this.release(waiter.ticket, now);
			turn.waitedMs = Math.max(now - waiter.queuedAt, waiter.foreseenMs);
			waiter.resolve(turn);
		}
		if (this.queue.length === 0) {
			this.cancelTimer();
			return;
		}
		let at = this.nextChange(now);
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
		this.sleep(boundedWait(at - this.clock(), RETRY.maxPacingWaitMs + TURN_GRACE_MS), timer.abort.signal).then(
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
 * The error of a request that got no turn in time: what happened, and what to do (fewer executions at once, a
 * higher "Requests per Minute" only if the plan allows). Nothing was sent.
 */
export function pacingWaitError(
	node: INode,
	request: { method: string; path: string; itemIndex?: number },
	error: PacingWaitTooLongError,
	timeLimitMs: number | undefined,
): NodeOperationError {
	const seconds = (ms: number): number => Math.ceil(ms / 1000);
	if (timeLimitMs !== undefined && error.capMs < RETRY.maxPacingWaitMs) {
		return new NodeOperationError(
			node,
			`${request.method} ${request.path} was not sent: the rate limit asks to wait ${seconds(error.waitMs)} s, longer than its time limit of ${seconds(timeLimitMs)} s`,
			{ itemIndex: request.itemIndex, description: "The CRM's rate limit is used up for now; the request can be made again later." },
		);
	}
	return new NodeOperationError(
		node,
		`${request.method} ${request.path} was not sent: its turn under the API key's rate limit would come in about ${seconds(error.waitMs)} s, and a request waits at most ${seconds(error.capMs)} s`,
		{
			itemIndex: request.itemIndex,
			description: `${error.queued} requests with this API key are waiting for their turn in this n8n process, more than the key's rate limit lets through in that time. The node did not send this one over the limit. Run fewer executions with this key at once (n8n's concurrency limit, or smaller batches), or, only if the CRM plan allows more, raise "Requests per Minute" in the credential.`,
		},
	);
}

const pacers = new Map<string, RateLimitPacer>();

/**
 * One pacer per base URL, API key and rate, shared by all executions in this n8n process, since the limit is per key.
 * The key itself is not kept: only a hash of it names the pacer.
 */
export function pacerFor(
	baseUrl: string,
	apiKey: string,
	requestsPerMinute: number = DOCUMENTED_RATE_LIMIT.requests,
): RateLimitPacer {
	const id = createHash('sha256').update(`${baseUrl}\n${apiKey}\n${requestsPerMinute}`).digest('hex').slice(0, 32);
	let pacer = pacers.get(id);
	if (!pacer) {
		pacer = new RateLimitPacer({ requestsPerMinute });
		pacers.set(id, pacer);
	}
	return pacer;
}

import { sleep as n8nSleep } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { DOCUMENTED_RATE_LIMIT, RETRY } from './errors';
import {
	announcedWindow,
	boundedWait,
	PacingWaitTooLongError,
	rateLimitWait,
	RESET_MARGIN_MS,
} from './waits';

/**
 * The one rate limiter of an API key, shared by all executions in this n8n process (pacerOf). Its rules:
 * - **First in, first out.** Requests wait in one queue by when they first asked; a retry after a 429 keeps its place
 *   (its ticket). The queue is released one request at a time, never past the known budget.
 * - **The API's own count first.** While answers carry `RateLimit-Remaining` and `RateLimit-Reset`, they tell the
 *   key's budget across every process using it. At the start of a window one request goes first and its answer tells
 *   the budget; when others spend the same budget, this process takes only its share of what is left.
 * - **The documented rate otherwise:** at most 60 requests (or the credential's "Requests per Minute") in any 60 s,
 *   not only in a minute that begins with its first request: a CRM that counts a sliding minute never sees more.
 * - **Bounded waits.** A request whose turn would come later than it accepts (RETRY.maxPacingWaitMs, or what is left
 *   of its deadline) is refused before it is sent. After a 429 the key waits what the API asked, up to RETRY.maxWaitMs.
 * - **Shares.** A caller may take a share of the key (takeShare: the polling triggers' half), not a limiter of its own.
 */

/** How long the queue waits for a window's first answer before the documented rate releases it instead. */
const FIRST_ANSWER_PATIENCE_MS = 2_000;
/** Most processes assumed to share a key (the divisor of a window's budget). */
const MAX_SHARERS = 16;
/** A queued request whose turn comes this much later than the wait it accepted is refused instead of sent. */
const TURN_GRACE_MS = 1_000;
/** The documented rate's window: a request counts for the server a little after it was sent, so 250 ms more. */
const WINDOW_MS = DOCUMENTED_RATE_LIMIT.windowSeconds * 1000 + 250;

/**
 * When one more request may go under at most `limit` in any WINDOW_MS, by `log`: the times of the last sends, oldest
 * first. It keeps only those that still count, at most `limit` (the `limit`-th last send is all the check needs).
 */
function freeAt(log: number[], limit: number, now: number): number {
	while (log.length > limit || log[0] + WINDOW_MS <= now) log.shift();
	return log.length < limit ? now : log[0] + WINDOW_MS;
}

/** One request's turn: handed to `settle` with the answer, and to `take` again (its ticket) for a retry. */
export interface PacerTurn {
	readonly ticket: number;
	/** Whether it was its window's first (whose answer tells the budget). */
	readonly first: boolean;
	/** How long the request waited for its turn: the run's execution hint. */
	readonly waitedMs: number;
}

type Waiter = Record<'ticket' | 'deadline' | 'capMs' | 'queuedAt', number> & {
	resolve: (turn: PacerTurn) => void;
	reject: (error: Error) => void;
};

export class RateLimitPacer {
	private clockFloor = 0; // the pacer's time never goes back behind a wait it has served
	private readonly sends: number[] = [];
	/** The sends of takeShare's share (its callers, the polling triggers, ask the same: half this pacer's rate). */
	private readonly shared: number[] = [];
	private readonly queue: Waiter[] = [];
	private lastTicket = 0;
	private timer: { at: number; abort: AbortController } | undefined;
	/** `first`: one request goes and its answer tells; `announced`: the headers tell; `documented`: they do not. */
	private mode: 'first' | 'announced' | 'documented' = 'first';
	private firstSentAt: number | undefined;
	/** The lowest `RateLimit-Remaining` and earliest reset read in the window. */
	private remaining = 0;
	private resetAt = 0;
	/** Requests this process may still send in the window before the next answer. */
	private tokens = 0;
	/** The window's turns not yet settled (answers to turns of an older window, or a 429's, are not read). */
	private readonly inFlight = new Set<PacerTurn>();
	/** `RateLimit-Limit`, else the most ever seen left plus one; the longest reset seen. */
	private knownLimit: number | undefined;
	private knownWindowMs: number | undefined;
	private sharers = 1;
	/** Others spent the previous window (or a 429 said so): take at most half of this one. */
	private sharedBefore = false;
	private othersSeen = 0;
	private sentInWindow = 0;

	/** `perWindow`: the credential's "Requests per Minute" as requestsPerMinuteOf reads it (a whole number, >= 1). */
	constructor(
		private readonly perWindow: number = DOCUMENTED_RATE_LIMIT.requests,
		private readonly clockNow: () => number = Date.now,
		private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void> = n8nSleep,
	) {}

	/** Waits for the request's turn and takes it; refuses one whose turn would come after `maxWaitMs` (capped). */
	async take(options: { maxWaitMs?: number; ticket?: number } = {}): Promise<PacerTurn> {
		const now = this.advance();
		const capMs = Math.max(0, Math.min(options.maxWaitMs ?? Infinity, RETRY.maxPacingWaitMs));
		const ticket = options.ticket ?? ++this.lastTicket;
		// The queue is in ticket order: a retry goes back to its place.
		const position = this.queue.filter((waiter) => waiter.ticket < ticket).length;
		if (position === 0 && this.openAt(now) <= now) return this.release(ticket, now);
		const waitMs = this.predictWait(position, now);
		if (waitMs > capMs) throw new PacingWaitTooLongError(waitMs, capMs, this.queue.length);
		// A queued request is refused after its deadline; one with a deadline of its own gets no grace.
		const deadline = now + capMs + (options.maxWaitMs === undefined ? TURN_GRACE_MS : 0);
		const turn = new Promise<PacerTurn>((resolve, reject) => {
			this.queue.splice(position, 0, { ticket, deadline, capMs, queuedAt: now, resolve, reject });
		});
		this.pump();
		return await turn;
	}

	/**
	 * The answer to a turn (none when none came): reads the window from the headers and releases what may now go.
	 * After a 429 the key waits `waitMs` (what the request will wait), up to RETRY.maxWaitMs.
	 */
	settle(turn: PacerTurn, status?: number, headers?: IDataObject, waitMs?: number): void {
		const now = this.advance();
		const current = this.inFlight.delete(turn);
		const wait = status === 429 ? (waitMs ?? rateLimitWait(headers, now).ms) : NaN;
		// After a 429 the window is spent until the wait the API asked for; a wait over RETRY.maxWaitMs is not kept.
		if (wait <= RETRY.maxWaitMs) this.newWindow('announced', true, now + Math.max(0, wait));
		else if (status !== 429 && status !== undefined && current) this.onAnswer(headers, now);
		// No answer, or one that told nothing of the window: the next request asks instead.
		if (current && turn.first && this.mode === 'first') this.firstSentAt = undefined;
		this.pump();
	}

	/** Waits until this key's callers of a `perMinute` share sent fewer than that in 60 s; counts one more. */
	async takeShare(perMinute: number): Promise<void> {
		for (let now = this.advance(); ; now = this.advance()) {
			const at = freeAt(this.shared, perMinute, now);
			if (at <= now) return void this.shared.push(now);
			await this.sleep(boundedWait(at - now, RETRY.maxPacingWaitMs));
			this.clockFloor = Math.max(this.clockFloor, at);
		}
	}

	private onAnswer(headers: IDataObject | undefined, now: number): void {
		const window = announcedWindow(headers, now);
		if (window === undefined) return void (this.mode = 'documented');
		const { remaining, limit } = window;
		const resetMs = Math.min(window.resetMs, RETRY.maxWaitMs);
		const atLeast = Math.max(this.knownLimit ?? 0, remaining + 1);
		this.knownLimit = limit >= 1 ? Math.floor(limit) : atLeast;
		this.knownWindowMs = Math.max(this.knownWindowMs ?? 0, resetMs);
		const firstOfWindow = this.mode !== 'announced';
		// Answers can arrive out of order: the lowest budget and the earliest reset of the window hold.
		this.remaining = firstOfWindow ? remaining : Math.min(this.remaining, remaining);
		this.resetAt = firstOfWindow ? now + resetMs : Math.min(this.resetAt, now + resetMs);
		this.mode = 'announced';
		// What others spent of this window: its budget, less what is left, less what this process sent.
		const own = this.sentInWindow;
		const others = Math.max(0, this.knownLimit - this.remaining - own);
		this.othersSeen = Math.max(this.othersSeen, others);
		// A window's first answer says little of the others: if they shared the last window, take half to begin with.
		const estimate = others > 0 ? 1 + Math.ceil(others / Math.max(1, own)) : 1;
		this.sharers = firstOfWindow && this.sharedBefore ? 2 : Math.min(MAX_SHARERS, estimate);
		const byShare = Math.floor((this.remaining - this.inFlight.size) / this.sharers);
		// While they share, at most half the window in all: a process first in every window does not starve the others.
		const half = this.sharedBefore ? Math.ceil(this.knownLimit / 2) - own : byShare;
		this.tokens = Math.max(0, Math.min(byShare, half));
	}

	private newWindow(mode: 'first' | 'announced', shared: boolean, resetAt = 0): void {
		[this.mode, this.sharedBefore, this.resetAt] = [mode, shared, resetAt];
		this.othersSeen = this.tokens = this.sentInWindow = 0;
		this.inFlight.clear();
		this.firstSentAt = undefined;
	}

	/** The pacer's time (never behind a wait it has served), and what time alone changes: the send log, the window. */
	private advance(): number {
		const now = Math.max(this.clockNow(), this.clockFloor);
		freeAt(this.sends, this.perWindow, now);
		// Only what the window just over showed is carried: a process left alone has the whole budget back after it.
		if (this.mode === 'announced' && now >= this.resetAt + RESET_MARGIN_MS)
			this.newWindow('first', this.othersSeen > 0);
		return now;
	}

	/** When the head of the queue may go (at `now` or before: now), unless an answer tells more first. */
	private openAt(now: number): number {
		const byRate = freeAt(this.sends, this.perWindow, now);
		if (this.mode === 'announced') return this.tokens > 0 ? now : this.resetAt + RESET_MARGIN_MS;
		if (this.mode === 'documented') return byRate;
		// A window's first request goes alone (by the rate, unless the API's count is known); its answer tells the rest.
		if (this.firstSentAt === undefined) return this.knownLimit === undefined ? byRate : now;
		return Math.max(this.firstSentAt + FIRST_ANSWER_PATIENCE_MS, byRate);
	}

	private release(ticket: number, now: number, queuedAt = now): PacerTurn {
		const first = this.mode === 'first' && this.firstSentAt === undefined;
		if (this.mode === 'announced') this.tokens--;
		else if (first) this.firstSentAt = now;
		const turn = { ticket, first, waitedMs: now - queuedAt };
		this.inFlight.add(turn);
		this.sentInWindow++;
		this.sends.push(now);
		return turn;
	}

	/** An estimate of when the request at `position` in the queue gets its turn, in ms from now. */
	private predictWait(position: number, now: number): number {
		const announced = this.mode === 'announced';
		const byApi = announced || (this.mode === 'first' && this.knownLimit !== undefined);
		const probe = this.firstSentAt === undefined ? 1 : 0;
		const free = byApi ? (announced ? this.tokens : probe) : this.perWindow - this.sends.length;
		if (position < free) return 0;
		// Then whole windows: of the documented rate, or of this process's share of the budget the API announced.
		const share = Math.max(this.sharers, this.sharedBefore ? 2 : 1);
		const limit = Math.floor((this.knownLimit ?? this.perWindow) / share);
		const perWindow = byApi ? Math.max(1, limit) : this.perWindow;
		const windowMs = byApi ? (this.knownWindowMs ?? WINDOW_MS) + RESET_MARGIN_MS : WINDOW_MS;
		const oldest = (this.sends[0] ?? now) + WINDOW_MS;
		const next = announced ? this.resetAt + RESET_MARGIN_MS : byApi ? now + windowMs : oldest;
		const windows = Math.ceil((position + 1 - free) / perWindow) - 1;
		return Math.max(0, next - now) + windows * windowMs;
	}

	/** Releases what may go now, refuses what waited past its cap, and sets the one timer for the next change. */
	private pump(): void {
		const now = this.advance();
		for (const waiter of this.queue.filter((one) => now > one.deadline)) {
			this.queue.splice(this.queue.indexOf(waiter), 1);
			const late = now - waiter.deadline + waiter.capMs + 1;
			waiter.reject(new PacingWaitTooLongError(late, waiter.capMs, this.queue.length));
		}
		let at = this.openAt(now);
		for (; this.queue.length > 0 && at <= now; at = this.openAt(now)) {
			const waiter = this.queue.shift() as Waiter;
			waiter.resolve(this.release(waiter.ticket, now, waiter.queuedAt));
		}
		// The one timer, for what time alone changes next: a turn that comes, or a deadline that passes.
		for (const waiter of this.queue) at = Math.min(at, waiter.deadline + 1);
		if (this.queue.length > 0 && this.timer && this.timer.at <= at) return;
		this.timer?.abort.abort();
		this.timer = undefined;
		if (this.queue.length === 0) return;
		const timer = { at, abort: new AbortController() };
		this.timer = timer;
		const ms = boundedWait(at - now, RETRY.maxPacingWaitMs + TURN_GRACE_MS);
		this.sleep(ms, timer.abort.signal).then(
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

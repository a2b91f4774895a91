import type { IDataObject } from 'n8n-workflow';

import { DOCUMENTED_RATE_LIMIT, RETRY } from './limits';
import { announcedWindow, RESET_MARGIN_MS } from './rateLimit';
import { DOCUMENTED_MARGIN_MS, SendLog } from './sendLog';

/**
 * How long the other queued requests of a key wait for the answer to the first request of a window (which tells the
 * window's budget) before they go by the documented rate instead, in ms: a slow first answer does not hold them up.
 */
const FIRST_ANSWER_PATIENCE_MS = 2_000;

/** Most processes the pacer assumes share a key (the divisor of a window's budget), however busy the others look. */
const MAX_SHARERS = 16;

/**
 * What one API key may send now: the pacer's (pacer.ts) rules of the budget, apart from its queue and its timer.
 * The API's announced window when its answers carry `RateLimit-*` headers (shared fairly with other processes that
 * spend the same key), else the documented rate (the credential's "Requests per Minute"), counted by a SendLog.
 */
export class KeyBudget {
	/** The documented rate (or the credential's): requests per window of `windowMs`. */
	private readonly requestsPerWindow: number;

	private readonly windowMs: number;

	/**
	 * - `first`: nothing is known about the current window; one request goes, and its answer tells.
	 * - `announced`: the API's headers tell the window's budget (`remaining`) and its reset (`resetAt`).
	 * - `documented`: answers carry no RateLimit-* headers; the documented rate applies.
	 */
	mode: 'first' | 'announced' | 'documented' = 'first';

	/** Counts windows (and 429s); turns of an older one do not count any more. */
	epoch = 0;

	/** When the first request of the current window was sent, while its answer is awaited. */
	firstSentAt: number | undefined;

	/** The first answer took longer than FIRST_ANSWER_PATIENCE_MS: the documented rate releases the queue meanwhile. */
	private firstAnswerLate = false;

	/** The budget left in the current window, by the lowest `RateLimit-Remaining` read in it. */
	private remaining = 0;

	/** Latest time the current window resets, by its answers (each reset is read as an upper bound). */
	private resetAt = 0;

	/** Requests this process may still send in the current window before the next answer. */
	private tokens = 0;

	/** Requests of the current window sent and not yet answered. */
	inFlight = 0;

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

	/** What went out in the last window, for the documented rate. */
	private readonly log: SendLog;

	constructor(requestsPerMinute: number) {
		this.requestsPerWindow =
			Number.isFinite(requestsPerMinute) && requestsPerMinute >= 1
				? Math.floor(requestsPerMinute)
				: DOCUMENTED_RATE_LIMIT.requests;
		this.windowMs = DOCUMENTED_RATE_LIMIT.windowSeconds * 1000;
		this.log = new SendLog(this.windowMs);
	}

	/** Entries in the documented rate's send log (at most LOG_SLICES + 2, whatever the rate). */
	get logEntries(): number {
		return this.log.entries;
	}

	/**
	 * The answer to a request released in window `epoch`: its status and headers (none when no answer came), and for a
	 * 429 the wait the request will keep.
	 */
	settle(
		turn: { epoch: number; first: boolean },
		now: number,
		status?: number,
		headers?: IDataObject,
		rateLimitWaitMs?: number,
	): void {
		this.advance(now);
		const current = turn.epoch === this.epoch;
		if (current) this.inFlight = Math.max(0, this.inFlight - 1);
		if (status === 429) this.onRateLimited(rateLimitWaitMs ?? RETRY.defaultRateLimitWaitMs, now);
		else if (status !== undefined && current) this.onAnswer(headers, now);
		// No answer, or one that told nothing of the window (a 429 asking for too long): the next request asks instead.
		if (current && turn.first && this.mode === 'first') this.firstSentAt = undefined;
	}

	/** Reads an answer of the current window. */
	private onAnswer(headers: IDataObject | undefined, now: number): void {
		const window = announcedWindow(headers, now);
		if (window === undefined) {
			// The API does not announce its window (or stopped): the documented rate applies.
			this.mode = 'documented';
			this.tokens = 0;
			return;
		}
		const { remaining, limit } = window;
		const resetMs = Math.min(window.resetMs, RETRY.maxWaitMs);
		const resetAt = now + resetMs;
		this.knownLimit =
			limit !== undefined && limit >= 1
				? Math.floor(limit)
				: Math.max(this.knownLimit ?? 0, remaining + 1);
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
		if (this.sharedBefore)
			tokens = Math.min(tokens, Math.ceil(this.knownLimit / 2) - this.sentInWindow);
		this.tokens = Math.max(0, tokens);
	}

	/** After a 429 the window is spent until the wait the API asked for; a wait over RETRY.maxWaitMs is not kept. */
	private onRateLimited(waitMs: number, now: number): void {
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
	advance(now: number): void {
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
		if (
			this.mode === 'first' &&
			this.firstSentAt !== undefined &&
			now >= this.firstSentAt + FIRST_ANSWER_PATIENCE_MS
		) {
			this.firstAnswerLate = true;
		}
		this.log.expire(now);
	}

	/** Whether the head of the queue may go now. */
	canRelease(): boolean {
		switch (this.mode) {
			case 'announced':
				return this.tokens > 0;
			case 'first':
				if (this.firstSentAt === undefined)
					return this.log.total < this.requestsPerWindow || this.knownLimit !== undefined;
				return this.firstAnswerLate && this.log.total < this.requestsPerWindow;
			default:
				return this.log.total < this.requestsPerWindow;
		}
	}

	/** Counts one request released at `now`; its turn's window and whether it is the window's first. */
	release(now: number): { epoch: number; first: boolean } {
		let first = false;
		if (this.mode === 'announced') this.tokens--;
		else if (this.mode === 'first' && this.firstSentAt === undefined) {
			first = true;
			this.firstSentAt = now;
		}
		this.inFlight++;
		this.sentInWindow++;
		this.log.add(now);
		return { epoch: this.epoch, first };
	}

	/** When time alone may let the head of the queue go (the pump runs again then). */
	nextChange(now: number): number {
		switch (this.mode) {
			case 'announced':
				return this.resetAt + RESET_MARGIN_MS;
			case 'first':
				if (this.firstSentAt !== undefined && !this.firstAnswerLate)
					return this.firstSentAt + FIRST_ANSWER_PATIENCE_MS;
				return this.log.freesAt(now);
			default:
				return this.log.freesAt(now);
		}
	}

	/** An estimate of when the request at `position` in the queue gets its turn, in ms from now. */
	predictWait(position: number, now: number): number {
		if (this.mode === 'documented' || (this.mode === 'first' && this.knownLimit === undefined)) {
			const free = Math.max(0, this.requestsPerWindow - this.log.total);
			if (position < free) return 0;
			const windows = Math.ceil((position + 1 - free) / this.requestsPerWindow);
			return (
				Math.max(0, this.log.freesAt(now) - now) +
				(windows - 1) * (this.windowMs + DOCUMENTED_MARGIN_MS)
			);
		}
		const limit = this.knownLimit ?? this.requestsPerWindow;
		const perWindow = Math.max(
			1,
			Math.floor(limit / Math.max(1, this.sharers, this.sharedBefore ? 2 : 1)),
		);
		const windowMs = (this.knownWindowMs ?? this.windowMs) + RESET_MARGIN_MS;
		const free = this.mode === 'announced' ? this.tokens : this.firstSentAt === undefined ? 1 : 0;
		if (position < free) return 0;
		const untilReset =
			this.mode === 'announced' ? Math.max(0, this.resetAt + RESET_MARGIN_MS - now) : 0;
		return (
			untilReset +
			(Math.ceil((position + 1 - free) / perWindow) - (this.mode === 'announced' ? 1 : 0)) *
				windowMs
		);
	}
}

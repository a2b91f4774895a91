import { sleep as n8nSleep } from 'n8n-workflow';

import { headerValue, type HeaderMap } from '../values';
import { DOCUMENTED_RATE_LIMIT, RETRY } from './limits';

// One FIFO queue per API key in this process (a retry keeps its ticket). The API's RateLimit-* headers rule when
// present, else the documented rate in ANY 60 s; a turn later than the request's cap is refused, unsent.

/** A request counts for the server a little after it was sent. */
const WINDOW_MS = DOCUMENTED_RATE_LIMIT.windowSeconds * 1000 + 250;

export type PacerTurn = { readonly ticket: number; readonly waitedMs: number };

type Waiter = Record<'ticket' | 'deadline' | 'capMs' | 'queuedAt', number> & {
	resolve(turn: PacerTurn): void;
	reject(error: Error): void;
};

export class RateLimitPacer {
	readonly #sends: number[] = [];
	readonly #queue: Waiter[] = [];
	#lastTicket = 0;
	#timerAt = Infinity;
	#served = 0;
	/** `first`: one request goes, its answer tells the budget; `announced`: the headers tell; `documented`: they do not. */
	#mode: 'first' | 'announced' | 'documented' = 'first';
	#tokens = 1;
	#until = Infinity;
	#remaining = 0;
	/** Answers to turns of an older window, or a 429's, are not read. */
	readonly #inFlight = new Set<PacerTurn>();
	/** Whether others spent some of this window or the last (or a 429 said so). */
	#own = 0;
	#othersSeen = false;
	#sharedBefore = false;
	/** `RateLimit-Limit`, else the most ever seen left plus one (0: none seen). */
	#knownLimit = 0;
	#share?: RateLimitPacer;

	constructor(
		private readonly perWindow: number = DOCUMENTED_RATE_LIMIT.requests,
		private readonly clockNow = () => Date.now(),
		private readonly sleep = n8nSleep,
	) {}

	/** `maxWaitMs`: Infinity for a request with no deadline of its own. */
	async take({
		maxWaitMs = Infinity,
		ticket = ++this.#lastTicket,
	}: { maxWaitMs?: number; ticket?: number } = {}) {
		const now = this.#advance();
		const capMs = Math.max(0, Math.min(maxWaitMs, RETRY.maxPacingWaitMs));
		const position = this.#queue.filter((waiter) => waiter.ticket < ticket).length;
		const waitMs = this.#turnAt(position, now) - now;
		if (waitMs > capMs) throw noTurnError(waitMs, capMs);
		const deadline = now + capMs + (maxWaitMs === Infinity ? RETRY.turnGraceMs : 0);
		return await new Promise<PacerTurn>((resolve, reject) => {
			this.#queue.splice(position, 0, { ticket, deadline, capMs, queuedAt: now, resolve, reject });
			this.#pump(now);
		});
	}

	/** After a 429 the whole key waits `waitMs`. */
	settle(turn: PacerTurn, status?: number, headers?: HeaderMap, waitMs = NaN) {
		const now = this.#advance();
		const current = this.#inFlight.delete(turn);
		if (status === 429 && waitMs <= RETRY.maxWaitMs) this.#newWindow('announced', now + waitMs);
		else if (status !== 429 && status !== undefined && current) this.#onAnswer(headers, now);
		// No answer to the window's first request: the next request asks instead.
		else if (current && this.#mode === 'first') {
			this.#tokens = 1;
			this.#until = Infinity;
		}
		this.#pump(now);
	}

	/** For the polling triggers' `perMinute` share; false, nothing counted, past `maxWaitMs` (a poll's budget). */
	async takeShare(perMinute: number, maxWaitMs?: number) {
		this.#share ??= new RateLimitPacer(perMinute, this.clockNow, this.sleep);
		try {
			this.#share.settle(await this.#share.take({ maxWaitMs }));
			return true;
		} catch {
			return false;
		}
	}

	#onAnswer(headers: HeaderMap, now: number) {
		const window = announcedWindow(headers, now);
		if (!window) {
			this.#mode = 'documented';
			return;
		}
		const { remaining, limit, resetMs } = window;
		this.#knownLimit =
			limit >= 1 && limit < Infinity
				? Math.floor(limit)
				: Math.max(this.#knownLimit, remaining + 1);
		const firstOfWindow = this.#mode !== 'announced';
		this.#mode = 'announced';
		// Answers can arrive out of order: the lowest budget and the earliest reset of the window hold.
		this.#remaining = firstOfWindow ? remaining : Math.min(this.#remaining, remaining);
		this.#until = firstOfWindow ? now + resetMs : Math.min(this.#until, now + resetMs);
		// Others spent its budget less what is left and what this process sent (>= 1). Sharers: one more than others
		// spent per own request, or 2 on a window's first answer if they shared the last.
		const others = Math.max(0, this.#knownLimit - this.#remaining - this.#own);
		this.#othersSeen ||= others > 0;
		const sharers = firstOfWindow && this.#sharedBefore ? 2 : 1 + Math.ceil(others / this.#own);
		const byShare = Math.floor((this.#remaining - this.#inFlight.size) / sharers);
		// While they share, at most half the window in all: a process first in every window does not starve the others.
		const half = this.#sharedBefore ? Math.ceil(this.#knownLimit / 2) - this.#own : byShare;
		this.#tokens = Math.max(0, Math.min(byShare, half));
	}

	#newWindow(mode: 'first' | 'announced', at = Infinity) {
		this.#mode = mode;
		this.#tokens = mode === 'first' ? 1 : 0;
		this.#until = at + RETRY.resetMarginMs;
		// Only what the window just over showed is carried: a process left alone has the whole budget back after it.
		this.#sharedBefore = mode === 'announced' || this.#othersSeen;
		this.#othersSeen = false;
		this.#own = 0;
		this.#inFlight.clear();
	}

	/** A timer may end its wait a little early: never before a time served. */
	#advance(served = 0) {
		const now = Math.max(this.clockNow(), served, this.#served);
		this.#served = now;
		while (this.#sends.length > this.perWindow || this.#sends[0] + WINDOW_MS <= now)
			this.#sends.shift();
		if (now >= this.#until) {
			if (this.#mode === 'announced') this.#newWindow('first');
			else this.#mode = 'documented'; // no first answer in time: the documented rate
		}
		return now;
	}

	#turnAt(position: number, now: number) {
		// The documented rate paces too, unless the API's count is known.
		const rated = this.#mode === 'documented' || (this.#mode !== 'announced' && !this.#knownLimit);
		const gate = this.#mode === 'documented' || this.#tokens > 0 ? now : this.#until;
		const free = rated ? this.perWindow - this.#sends.length : this.#tokens;
		if (position < free) return gate;
		// Then whole windows of the credential's rate, from the next one: the oldest send's end, or the API's reset.
		const apiNext = this.#mode === 'first' && this.#tokens > 0 ? now : this.#until;
		const next = rated ? (this.#sends[0] ?? now) + WINDOW_MS : apiNext;
		return Math.max(gate, next + Math.floor((position - free) / this.perWindow) * WINDOW_MS);
	}

	#pump(now: number) {
		for (const late of this.#queue.filter((waiter) => now > waiter.deadline)) {
			this.#queue.splice(this.#queue.indexOf(late), 1);
			late.reject(noTurnError(now - late.queuedAt, late.capMs));
		}
		while (this.#queue.length > 0 && this.#turnAt(0, now) <= now) {
			const { ticket, queuedAt, resolve } = this.#queue.shift() as Waiter;
			if (this.#mode === 'first') this.#until = now + RETRY.firstAnswerPatienceMs;
			const turn = { ticket, waitedMs: now - queuedAt };
			this.#tokens--;
			this.#own++;
			this.#inFlight.add(turn);
			this.#sends.push(now);
			resolve(turn);
		}
		// The one timer, for what time alone changes next: a turn that comes, or a deadline that passes.
		let at = this.#turnAt(0, now);
		for (const waiter of this.#queue) at = Math.min(at, waiter.deadline + 1);
		if (this.#queue.length === 0 || this.#timerAt <= at) return;
		this.#timerAt = at;
		void this.sleep(boundedWait(at - now, RETRY.maxPacingWaitMs + RETRY.turnGraceMs)).then(() => {
			if (this.#timerAt === at) this.#timerAt = Infinity;
			this.#pump(this.#advance(at));
		});
	}
}

// What answers say about waiting.

/** Capped, so never near a timer's 2^31 ms overflow. */
const boundedWait = (ms: number, cap: number = RETRY.maxWaitMs) =>
	ms > 0 ? Math.min(Math.ceil(ms), cap) : 0;

/** A time counts from the answer's `Date` (the clocks need not agree); a wait under a second asked again is not used. */
export function rateLimitWait(headers: HeaderMap, now: number, tries = 0): RateLimitWait {
	const dated = Date.parse(headerValue(headers, 'date') ?? '');
	const [clock, from] = Number.isNaN(dated) ? [now, "n8n's clock"] : [dated, "the answer's Date"];
	let unusable: string | undefined;
	/** Undefined when not usable; the first reason is kept. */
	const read = (name: string, margin = 0): RateLimitWait | undefined => {
		const text = headerValue(headers, name) || '-';
		const seconds = Number(text);
		// A date, or a RateLimit-Reset past 1e9 (a Unix time), is a time; else seconds, when 0 or more.
		const time = Number.isNaN(seconds) || (margin > 0 && seconds > 1e9);
		const at = Number.isNaN(seconds) ? Date.parse(text) : seconds * 1000;
		const ms = time ? at - clock : at;
		const when = ms > 0 ? `more than ${RETRY.maxWaitMs / 1000} s ahead of` : 'already past by';
		if (ms >= 0 && ms < 1000 && tries > 0)
			unusable ??= `${name} asked for less than a second again`;
		else if (time ? ms > 0 && ms <= RETRY.maxWaitMs : ms >= 0 && ms < Infinity)
			return { ms: ms + margin, source: 'asked' };
		else if (time && !Number.isNaN(ms)) unusable ??= `${name} named a time ${when} ${from}`;
		return undefined;
	};
	const asked = read('Retry-After') ?? read('RateLimit-Reset', RETRY.resetMarginMs);
	// The default for the `tries`-th 429 of a request (0 for the first): 5 s, 10 s, …, at most RETRY.maxWaitMs
	// (past 2^1023 the product is Infinity, still cut to RETRY.maxWaitMs).
	const doubled = RETRY.defaultRateLimitWaitMs * 2 ** tries;
	return asked ?? { ms: Math.min(RETRY.maxWaitMs, doubled), source: 'default', unusable };
}

export type RateLimitWait = { ms: number; source: 'asked' | 'default'; unusable?: string };

function announcedWindow(headers: HeaderMap, now: number) {
	const [remaining, reset, limit] = ['remaining', 'reset', 'limit'].map((name) =>
		Number(headerValue(headers, `ratelimit-${name}`) || NaN),
	);
	if (!(remaining >= 0 && remaining < Infinity && Number.isFinite(reset))) return undefined;
	return {
		remaining,
		resetMs: boundedWait(reset > 1e9 ? reset * 1000 - now : reset * 1000) + RETRY.resetMarginMs,
		limit,
	};
}

export const RATE_ADVICE =
	"The API key's rate limit is used up for longer than the node waits, so nothing more was sent. " +
	"Run fewer executions with this key at once (n8n's concurrency limit, smaller batches), or run it again later; " +
	'only if the CRM plan allows more, raise "Requests per Minute" in the credential.';

const noTurnError = (waitMs: number, capMs: number) =>
	new Error(
		`its turn under the API key's rate limit would come in about ${Math.ceil(waitMs / 1000)} s, and it waits at most ${Math.ceil(capMs / 1000)} s`,
	);

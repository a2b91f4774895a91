/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** A fake clock the pacer's timer runs on, and a CRM rate limit counted per key as the sandbox counts it. */
import type { IDataObject } from 'n8n-workflow';

import { sha256 } from '../../../nodes/CrmInvoicing/shared/hash';
import { pacerOf } from '../../../nodes/CrmInvoicing/shared/transport/connection';
import {
	RateLimitPacer,
	rateLimitWait,
	type PacerTurn,
} from '../../../nodes/CrmInvoicing/shared/transport/rateLimit';

/** The process's pacer of a Base URL and API key, named as connection.ts names it. */
export const pacerFor = (
	baseUrl: string,
	apiKey: string,
	requestsPerMinute?: number,
): RateLimitPacer =>
	pacerOf({
		keyId: sha256(`${baseUrl}\n${apiKey}`, 24),
		requestsPerMinute: requestsPerMinute ?? 60,
	});

/** Lets every pending promise callback run. */
export async function flush(): Promise<void> {
	for (let n = 0; n < 5; n++) await new Promise((resolve) => setImmediate(resolve));
}

export class FakeTime {
	now = 0;

	/** The longest wait any timer was set for. */
	longestTimer = 0;

	private timers: Array<{ at: number; resolve: () => void }> = [];

	/** The pacer's `sleep`: resolves when the fake clock reaches its time; an aborted timer never resolves. */
	readonly sleep = async (ms: number, signal?: AbortSignal): Promise<void> =>
		await new Promise<void>((resolve, reject) => {
			const timer = { at: this.now + Math.max(0, ms), resolve };
			this.longestTimer = Math.max(this.longestTimer, ms);
			this.timers.push(timer);
			signal?.addEventListener('abort', () => {
				this.timers = this.timers.filter((other) => other !== timer);
				reject(new Error('aborted'));
			});
		});

	/** Timers not yet fired (the pacer keeps at most one). */
	get pending(): number {
		return this.timers.length;
	}

	/** Moves the clock to `target`, firing each timer due on the way, in order. */
	async advanceTo(target: number): Promise<void> {
		await flush();
		for (;;) {
			this.timers.sort((a, b) => a.at - b.at);
			const next = this.timers[0];
			if (!next || next.at > target) break;
			this.timers.shift();
			this.now = Math.max(this.now, next.at);
			next.resolve();
			await flush();
		}
		this.now = Math.max(this.now, target);
		await flush();
	}

	/** Fires the earliest timer (moving the clock to it); false when there is none. */
	async fireNext(): Promise<boolean> {
		await flush();
		const next = Math.min(...this.timers.map((timer) => timer.at));
		if (next === Infinity) return false;
		await this.advanceTo(next);
		return true;
	}

	/** Runs until `done` holds or `limitMs` of fake time have passed, in steps of `stepMs`. */
	async runUntil(done: () => boolean, limitMs: number, stepMs = 10): Promise<void> {
		const end = this.now + limitMs;
		while (!done() && this.now < end) await this.advanceTo(this.now + stepMs);
	}
}

export interface SentRequest {
	at: number;
	status: number;
	process: number;
}

/** A CRM's per-key fixed window, from the first request after the last window ended; `announce: false`: no headers. */
export class FixedWindowServer {
	readonly sent: SentRequest[] = [];

	private window: { start: number; count: number } | undefined;

	constructor(
		readonly time: FakeTime,
		readonly limit: number,
		readonly windowMs: number,
		private readonly announce = true,
	) {}

	/** Counts a request of `process` arriving now, and answers it: status and headers. */
	answer(process: number): { status: number; headers: IDataObject } {
		const now = this.time.now;
		if (!this.window || now >= this.window.start + this.windowMs)
			this.window = { start: now, count: 0 };
		this.window.count++;
		const reset = Math.max(1, Math.ceil((this.window.start + this.windowMs - now) / 1000));
		const headers: IDataObject = {
			'ratelimit-limit': String(this.limit),
			'ratelimit-remaining': String(Math.max(0, this.limit - this.window.count)),
			'ratelimit-reset': String(reset),
		};
		const status = this.window.count > this.limit ? 429 : 200;
		this.sent.push({ at: now, status, process });
		if (status === 429) return { status, headers: { ...headers, 'retry-after': String(reset) } };
		return { status, headers: this.announce ? headers : {} };
	}

	/** The most requests accepted (not 429) in any span of the window's length. */
	busiestWindow(): number {
		const times = this.sent.filter((sent) => sent.status !== 429).map((sent) => sent.at);
		let most = 0;
		for (let start = 0; start < times.length; start++) {
			let end = start;
			while (end < times.length && times[end] < times[start] + this.windowMs) end++;
			most = Math.max(most, end - start);
		}
		return most;
	}

	get refused(): number {
		return this.sent.filter((request) => request.status === 429).length;
	}
}

export interface Outcome {
	ok: boolean;
	error?: Error;
	finishedAt?: number;
}

/** One request as the transport makes it; after a 429 it asks again with the same ticket (at most 5 times). */
export async function request(
	server: FixedWindowServer,
	pacer: RateLimitPacer,
	options: { process?: number; latencyMs?: number } = {},
): Promise<Outcome> {
	const time = server.time;
	let turn: PacerTurn | undefined;
	for (let attempt = 0; ; attempt++) {
		try {
			turn = await pacer.take({ ticket: turn?.ticket });
		} catch (error) {
			return { ok: false, error: error as Error };
		}
		const answer = server.answer(options.process ?? 0);
		await time.sleep(options.latencyMs ?? 5);
		// After a 429 the pacer holds the wait the request takes, as the transport tells it (request.ts).
		const waitMs = answer.status === 429 ? rateLimitWait(answer.headers, time.now).ms : undefined;
		pacer.settle(turn, answer.status, answer.headers, waitMs);
		if (answer.status !== 429) return { ok: true, finishedAt: time.now };
		if (attempt >= 5) return { ok: false, error: new Error('429') };
	}
}

/** Sends `count` requests of `process` at once; the list their outcomes join as they finish. */
export function sendAtOnce(
	server: FixedWindowServer,
	pacer: RateLimitPacer,
	count: number,
	process = 0,
): Outcome[] {
	const outcomes: Outcome[] = [];
	for (let n = 0; n < count; n++)
		void request(server, pacer, { process }).then((outcome) => outcomes.push(outcome));
	return outcomes;
}

export function pacerOn(time: FakeTime, requestsPerMinute?: number): RateLimitPacer {
	return new RateLimitPacer(requestsPerMinute, () => time.now, time.sleep);
}

/** A pacer on a fake clock that reads `start`. */
export function pacerAt(
	start = 0,
	requestsPerMinute?: number,
): { time: FakeTime; pacer: RateLimitPacer } {
	const time = new FakeTime();
	time.now = start;
	return { time, pacer: pacerOn(time, requestsPerMinute) };
}

/** A pacer on a fake clock at 0, and a server on that clock that accepts `limit` requests per `windowMs`. */
export function pacerAndServer(
	limit: number,
	windowMs: number,
	announce = true,
): { time: FakeTime; pacer: RateLimitPacer; server: FixedWindowServer } {
	const { time, pacer } = pacerAt();
	return { time, pacer, server: new FixedWindowServer(time, limit, windowMs, announce) };
}

/** Send times of `count` requests made one after the other, each as soon as the pacer lets it go. */
export async function sendTimes(
	time: FakeTime,
	pacer: RateLimitPacer,
	count: number,
	announce: Record<string, string> = {},
): Promise<number[]> {
	const times: number[] = [];
	for (let n = 0; n < count; n++) {
		const { turn, at } = await takeTurn(time, pacer);
		times.push(at);
		pacer.settle(turn, 200, announce);
	}
	return times;
}

/** Takes a turn, moving the fake clock timer by timer until it is given; the time it was given. */
export async function takeTurn(
	time: FakeTime,
	pacer: RateLimitPacer,
): Promise<{ turn: PacerTurn; at: number }> {
	let given: PacerTurn | undefined;
	let failed: unknown;
	pacer.take().then(
		(turn) => (given = turn),
		(error: unknown) => (failed = error ?? new Error('refused')),
	);
	await flush();
	while (!given && !failed)
		if (!(await time.fireNext())) throw new Error('the pacer set no timer and gave no turn');
	if (failed) throw failed as Error;
	return { turn: given as PacerTurn, at: time.now };
}

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** The pacer on a fake clock (pacerSim.ts): the figures are counts and fake times, not timings. */
import { DOCUMENTED_RATE_LIMIT, RETRY } from '../../../nodes/CrmInvoicing/shared/transport/limits';
import type { PacerTurn } from '../../../nodes/CrmInvoicing/shared/transport/rateLimit';
import {
	flush,
	pacerAndServer,
	pacerAt,
	pacerOn,
	request,
	sendAtOnce,
	sendTimes,
	takeTurn,
	type Outcome,
} from './pacerSim';

/** A refusal's figures (noTurnError): when the turn would come, and the most the request waits, in seconds. */
function refusal(error: unknown): { turnS: number; capS: number } | undefined {
	const said = /would come in about (\d+) s, and it waits at most (\d+) s$/.exec(
		String((error as Error)?.message),
	);
	return said ? { turnS: Number(said[1]), capS: Number(said[2]) } : undefined;
}

describe('first in, first out', () => {
	/** The headers of a window of 3 requests that resets in 2 s. */
	const ofThree = (remaining: string) => ({
		'ratelimit-limit': '3',
		'ratelimit-remaining': remaining,
		'ratelimit-reset': '2',
	});

	it('releases queued requests in the order they asked, a retry after a 429 before the ones that came later', async () => {
		const { time, pacer } = pacerAt();
		const released: number[] = [];
		const first = await pacer.take();
		// Five more ask while the first answer is awaited: they queue.
		const queued = [1, 2, 3, 4, 5].map(async (n) => {
			const turn = await pacer.take();
			released.push(n);
			return turn;
		});
		await flush();
		// All five wait (none released), and each is released below, in order.
		expect(released).toEqual([]);

		// The first is refused with 429 (the window is spent for 2 s); it asks again with its ticket.
		pacer.settle(first, 429, { ...ofThree('0'), 'retry-after': '2' }, 2_000);
		let retried: PacerTurn | undefined;
		void pacer.take({ ticket: first.ticket }).then((turn) => {
			retried = turn;
			released.push(0);
		});
		await time.advanceTo(1_999);
		expect(released).toEqual([]);

		// After the reset only the retry goes (the first request of the new window), its answer tells the budget.
		await time.advanceTo(2_100);
		expect(released).toEqual([0]);
		pacer.settle(retried as PacerTurn, 200, ofThree('2'));
		await flush();
		expect(released).toEqual([0, 1, 2]);
		const turns = await Promise.all(queued.slice(0, 2));
		for (const turn of turns) pacer.settle(turn, 200, ofThree('0'));
		await time.advanceTo(4_300);
		expect(released).toEqual([0, 1, 2, 3]);
	});
});

describe('no burst: at most the known budget, also right after a reset and after a 429', () => {
	it('80 concurrent requests at 10 per 2 s: no 429, never more than 10 in any 2 s, about 16 s in all', async () => {
		const { time, pacer, server } = pacerAndServer(10, 2_000);
		const outcomes = sendAtOnce(server, pacer, 80);

		await time.runUntil(() => outcomes.length === 80, 60_000);

		expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([]);
		expect(server.refused).toBe(0);
		expect(server.busiestWindow()).toBe(10);
		expect(server.sent).toHaveLength(80);
		// 8 windows of 2 s: the last starts after 7 resets (each waited out to its upper bound plus a small margin).
		const last = Math.max(...outcomes.map((outcome) => outcome.finishedAt ?? 0));
		expect(last).toBeGreaterThanOrEqual(14_000);
		expect(last).toBeLessThan(16_000);
	});

	it('after a 429 the queued requests do not all go at its reset: one asks first, the rest by the budget it reads', async () => {
		const { time, pacer, server } = pacerAndServer(10, 2_000);
		// Another client spent the window before this process started.
		for (let n = 0; n < 10; n++) server.answer(9);
		const outcomes = sendAtOnce(server, pacer, 30);

		await time.runUntil(() => outcomes.length === 30, 30_000);

		expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
		// One request learnt of the spent window by its 429; nobody else ran into it.
		expect(server.refused).toBe(1);
		expect(server.busiestWindow()).toBe(10);
	});

	it('keeps to the documented 60 per minute without headers, and refuses at once what would wait past the cap', async () => {
		const { time, pacer, server } = pacerAndServer(1_000, 60_000, false);
		const outcomes = sendAtOnce(server, pacer, 300);
		await flush();

		// 120 could not get a turn within RETRY.maxPacingWaitMs: refused before anything else happened, none sent.
		const refusedAtOnce = outcomes.filter((outcome) => !outcome.ok);
		expect(refusedAtOnce).toHaveLength(120);
		expect(refusedAtOnce.every((outcome) => refusal(outcome.error)?.capS === 180)).toBe(true);
		expect(refusal(refusedAtOnce[0].error)?.turnS).toBeGreaterThan(RETRY.maxPacingWaitMs / 1000);

		await time.runUntil(() => outcomes.length === 300, 4 * 60_000, 100);
		expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(180);
		expect(server.sent).toHaveLength(180);
		// Never more than 60 in any minute: 60, 60, 60, and no burst when the cap is reached.
		expect(server.busiestWindow()).toBe(60);
		const last = Math.max(...server.sent.map((sent) => sent.at));
		expect(last).toBeGreaterThanOrEqual(2 * 60_000);
		expect(last).toBeLessThan(RETRY.maxPacingWaitMs);
	});

	it('a request with a time limit shorter than its turn is refused at once, and says how long the turn is', async () => {
		const { time, pacer } = pacerAt();
		const turn = await pacer.take();
		pacer.settle(turn, 200, {
			'ratelimit-limit': '10',
			'ratelimit-remaining': '0',
			'ratelimit-reset': '30',
		});

		const error = await pacer.take({ maxWaitMs: 2_000 }).catch((caught: unknown) => caught);

		expect(refusal(error)?.turnS).toBeGreaterThanOrEqual(30);
		expect(refusal(error)?.capS).toBe(2);
		// Refused at once, it keeps no place: nothing waits on the clock, and the next request's turn is the same.
		expect(time.pending).toBe(0);
		const next = await pacer.take({ maxWaitMs: 2_000 }).catch((caught: unknown) => caught);
		expect(refusal(next)).toEqual(refusal(error));
	});
});

describe('the first answer of a window', () => {
	it('is awaited before the rest of the queue goes: 40 at once meet no 429 even with a high "Requests per Minute"', async () => {
		const { time, server } = pacerAndServer(10, 2_000);
		const fast = pacerOn(time, 600);
		const outcomes = sendAtOnce(server, fast, 40);

		await time.runUntil(() => outcomes.length === 40, 30_000);

		expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
		expect(server.refused).toBe(0);
		expect(Math.max(...outcomes.map((outcome) => outcome.finishedAt ?? 0))).toBeLessThan(8_000);
	});

	it('a slow first answer holds the others at most 2 s, then the documented rate lets them go; one whose wait is shorter is refused, not sent late', async () => {
		const { time, pacer } = pacerAt();
		const first = await pacer.take();
		const limited = pacer.take({ maxWaitMs: 500 }).then(
			() => 'sent',
			(error: unknown) => (refusal(error) ? 'refused' : 'other'),
		);
		let released = 0;
		for (let n = 0; n < 3; n++) void pacer.take().then(() => released++);
		await time.advanceTo(1_600);
		expect(await limited).toBe('refused');
		await time.advanceTo(1_900);
		expect(released).toBe(0);
		await time.advanceTo(2_100);
		expect(released).toBe(3);
		pacer.settle(first, 200, { 'ratelimit-remaining': '9', 'ratelimit-reset': '2' });
	});

	it('a first request that gets no answer hands the role to the next in the queue', async () => {
		const { pacer } = pacerAt();
		const first = await pacer.take();
		let released = 0;
		for (let n = 0; n < 3; n++) void pacer.take().then(() => released++);
		await flush();
		pacer.settle(first);
		await flush();
		expect(released).toBe(1);
	});
});

describe('only the sends that still count are kept: none older than the minute', () => {
	it('20,000 requests 7 ms apart at a high rate each go at once; at 60 a minute, each turn comes a minute after the 60th before it, no later', async () => {
		const { time, pacer } = pacerAt(0, 1_000_000_000);
		let waited = 0;
		for (let n = 0; n < 20_000; n++) {
			const turn = await pacer.take();
			waited = Math.max(waited, turn.waitedMs);
			pacer.settle(turn, 200, {});
			time.now += 7;
		}
		expect(waited).toBe(0);
		expect(time.pending).toBe(0);

		// Whatever was sent before: at 60 a minute, 200 requests in 4 minutes, the sends older than the minute forgotten.
		const slow = pacerOn(time, 60);
		const given: number[] = [];
		for (let n = 0; n < 200; n++) {
			const { turn, at } = await takeTurn(time, slow);
			slow.settle(turn, 200, {});
			given.push(at);
		}
		for (let n = 60; n < 200; n++) expect(given[n] - given[n - 60]).toBeGreaterThanOrEqual(60_000);
		expect(given[199] - given[0]).toBeLessThan(3 * 60_250 + 1_000);
	});
});

describe('processes sharing a key slow down together', () => {
	it('two workers with two executions each, 200 creates at 10 per second: none fails, under 10 % extra requests', async () => {
		const { time, pacer, server } = pacerAndServer(10, 1_000);
		const pacers = [pacer, pacerOn(time)];
		let started = 0;
		let finished = 0;
		const failures: Outcome[] = [];
		const worker = async (process: number): Promise<void> => {
			while (started < 200) {
				started++;
				const outcome = await request(server, pacers[process], { process, latencyMs: 15 });
				finished++;
				if (!outcome.ok) failures.push(outcome);
			}
		};
		for (const process of [0, 1]) for (let n = 0; n < 2; n++) void worker(process);
		await time.runUntil(() => finished === 200, 10 * 60_000);

		expect(finished).toBe(200);
		expect(failures).toEqual([]);
		expect(server.sent.length).toBeLessThanOrEqual(220);
		// Neither starves (the one whose turn comes later in each window would meet 429 after 429): while both are
		// busy, each has at least a third of what the CRM accepted.
		const busy = server.sent.filter((sent) => sent.at < 8_000 && sent.status === 200);
		for (const process of [0, 1])
			expect(busy.filter((sent) => sent.process === process).length).toBeGreaterThan(
				busy.length / 3,
			);
	});

	it('a process left alone gets the whole budget back: after the other stops, 10 per window again, not 1', async () => {
		const { time, pacer, server } = pacerAndServer(10, 1_000);
		const pacers = [pacer, pacerOn(time)];
		// Both processes send, two at a time each, for 6 s; then process 0 stops and process 1 goes on alone.
		let done = 0;
		const worker = async (process: number): Promise<void> => {
			while (process === 1 ? done < 150 : time.now < 6_000) {
				const outcome = await request(server, pacers[process], { process, latencyMs: 20 });
				expect(outcome.ok).toBe(true);
				if (process === 1) done++;
			}
		};
		for (const process of [0, 1]) for (let n = 0; n < 2; n++) void worker(process);
		await time.runUntil(() => done >= 150, 5 * 60_000);

		const lastOfProcess0 = Math.max(
			...server.sent.filter((sent) => sent.process === 0).map((sent) => sent.at),
		);
		expect(lastOfProcess0).toBeLessThan(8_000);
		// Alone from 2 s after that: about 10 a second, as the limit allows (not one a window, the probe, as before).
		const alone = server.sent.filter((sent) => sent.at > lastOfProcess0 + 2_000);
		const seconds = (time.now - (lastOfProcess0 + 2_000)) / 1000;
		expect(alone.length).toBeGreaterThan(50);
		expect(alone.length / seconds).toBeGreaterThan(8);
		expect(server.refused).toBeLessThanOrEqual(5);
	});

	it('reads the budget the other process spent: the second process alone would not know the window is spent', async () => {
		const { time, pacer, server } = pacerAndServer(10, 2_000);
		// One process spends 8 of the window.
		const spent = sendAtOnce(server, pacer, 8);
		await time.runUntil(() => spent.length === 8, 1_000);
		expect(server.sent).toHaveLength(8);
		const outcomes = sendAtOnce(server, pacerOn(time), 10, 1);
		await time.runUntil(() => outcomes.length === 10, 20_000);

		expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
		expect(server.refused).toBe(0);
		expect(server.busiestWindow()).toBeLessThanOrEqual(10);
	});
});

describe("a caller's share of the key (takeShare: the polling triggers' half)", () => {
	it('lets `perMinute` requests of the share go in any 60 s, holds no other caller, and lets the next one go when the oldest leaves the minute', async () => {
		const { time, pacer } = pacerAt(0, 60);
		const taken: number[] = [];
		const take = () => pacer.takeShare(30).then(() => taken.push(time.now));
		for (let n = 0; n < 31; n++) void take();
		await flush();
		expect(taken).toHaveLength(30);
		// Counted apart from the key: a request of another caller of the same pacer is not held by the share.
		expect((await takeTurn(time, pacer)).at).toBe(0);
		await time.advanceTo(59_000);
		expect(taken).toHaveLength(30);
		await time.runUntil(() => taken.length === 31, 5_000);
		expect(taken[30]).toBeGreaterThanOrEqual(60_000);
		expect(taken[30]).toBeLessThanOrEqual(60_000 + 250 + 250);
	});
});

describe('without RateLimit-* headers: the documented 60 a minute, or "Requests per Minute"', () => {
	const WINDOW_MS = DOCUMENTED_RATE_LIMIT.windowSeconds * 1000;

	it('is not applied while the API announces its own window, and is again once answers stop carrying the headers', async () => {
		const { time, pacer } = pacerAt(0);
		const announce = { 'ratelimit-remaining': '1000', 'ratelimit-reset': '60' };
		const announced = await sendTimes(time, pacer, 200, announce);
		const times = await sendTimes(time, pacer, 2);

		expect(announced.every((at) => at === 0)).toBe(true);
		// The first answer without them brings the documented 60 back, the 200 sent counted.
		expect(times[0]).toBe(0);
		expect(times[1]).toBeGreaterThanOrEqual(WINDOW_MS);
	});
});

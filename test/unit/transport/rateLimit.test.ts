import nock from 'nock';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { apiRequest } from '../../../nodes/CrmInvoicing/shared/transport';
import { RETRY } from '../../../nodes/CrmInvoicing/shared/transport/limits';
import type { RateLimitPacer } from '../../../nodes/CrmInvoicing/shared/transport/rateLimit';
import { rateLimitWait } from '../../../nodes/CrmInvoicing/shared/transport/rateLimitWaits';
import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { createExecuteContext } from '../../helpers/harness';
import { FakeTime, pacerFor, pacerOn, takeTurn } from './pacerSim';
import { BASE, errorOf, freshContext, replyLogging, setUpNock } from './support';
import type { SeenRequest } from './support';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn().mockResolvedValue(undefined),
}));

const sleepMock = jest.mocked(sleep);

/** The margin the transport adds to a wait for a window to reset. */
const MARGIN_MS = 50;

/** rateLimitWait's figure alone. */
const rateLimitWaitMs = (headers: Parameters<typeof rateLimitWait>[0], now: number) =>
	rateLimitWait(headers, now).ms;

setUpNock();
beforeEach(() => sleepMock.mockClear());

describe('rateLimitWaitMs', () => {
	const now = Date.parse('2026-03-01T12:00:00Z');

	it('reads Retry-After in seconds', () => {
		expect(rateLimitWaitMs({ 'retry-after': '1' }, now)).toBe(1000);
		expect(rateLimitWaitMs({ 'retry-after': '30' }, now)).toBe(30_000);
		expect(rateLimitWaitMs({ 'retry-after': '0' }, now)).toBe(0);
	});

	it('reads Retry-After as an HTTP date; one already past is no wait at all, so the default applies (clock-skew.test.ts)', () => {
		expect(rateLimitWaitMs({ 'retry-after': 'Sun, 01 Mar 2026 12:00:07 GMT' }, now)).toBe(7000);
		expect(rateLimitWaitMs({ 'retry-after': 'Sun, 01 Mar 2026 11:59:00 GMT' }, now)).toBe(
			RETRY.defaultRateLimitWaitMs,
		);
	});

	it('finds the header whatever its case', () => {
		expect(rateLimitWaitMs({ 'Retry-After': '2' }, now)).toBe(2000);
		expect(rateLimitWaitMs({ 'retry-after': ['3', '9'] }, now)).toBe(3000);
	});

	it('falls back to RateLimit-Reset (seconds until the window resets), with a margin', () => {
		expect(rateLimitWaitMs({ 'ratelimit-reset': '2' }, now)).toBe(2000 + MARGIN_MS);
		expect(rateLimitWaitMs({ 'RateLimit-Reset': '12' }, now)).toBe(12_000 + MARGIN_MS);
	});

	it('reads a RateLimit-Reset that looks like a Unix time as one', () => {
		expect(rateLimitWaitMs({ 'ratelimit-reset': String(now / 1000 + 5) }, now)).toBe(
			5000 + MARGIN_MS,
		);
	});

	it('prefers Retry-After, and ignores one it cannot read', () => {
		expect(rateLimitWaitMs({ 'retry-after': '1', 'ratelimit-reset': '20' }, now)).toBe(1000);
		expect(rateLimitWaitMs({ 'retry-after': 'soon', 'ratelimit-reset': '3' }, now)).toBe(
			3000 + MARGIN_MS,
		);
	});

	it('waits the default when there is nothing to go by', () => {
		expect(rateLimitWaitMs({}, now)).toBe(RETRY.defaultRateLimitWaitMs);
		expect(rateLimitWaitMs(undefined, now)).toBe(RETRY.defaultRateLimitWaitMs);
		expect(rateLimitWaitMs({ 'retry-after': '' }, now)).toBe(RETRY.defaultRateLimitWaitMs);
	});
});

describe('RateLimitPacer', () => {
	function pacerAt(start: number): { time: FakeTime; pacer: RateLimitPacer } {
		const time = new FakeTime();
		time.now = start;
		return { time, pacer: pacerOn(time) };
	}

	/** How long the next request waits for its turn (the clock moves timer by timer). */
	async function waitOf(
		time: FakeTime,
		pacer: RateLimitPacer,
		answer?: Record<string, string>,
	): Promise<number> {
		const before = time.now;
		const { turn, at } = await takeTurn(time, pacer);
		if (answer) pacer.settle(turn, 200, answer);
		return at - before;
	}

	it('does not hold back before it has seen RateLimit headers, or while the window has room', async () => {
		const { time, pacer } = pacerAt(1_000);
		expect(await waitOf(time, pacer, { 'ratelimit-remaining': '3', 'ratelimit-reset': '40' })).toBe(
			0,
		);
		expect(await waitOf(time, pacer, { 'ratelimit-remaining': '2', 'ratelimit-reset': '40' })).toBe(
			0,
		);
	});

	it('waits for the reset once the window is spent', async () => {
		const { time, pacer } = pacerAt(1_000);
		await waitOf(time, pacer, { 'ratelimit-remaining': '0', 'ratelimit-reset': '2' });
		time.now += 1_500;
		expect(await waitOf(time, pacer)).toBe(500 + MARGIN_MS);
	});

	it('counts requests sent, so the last slot of a window is spent once', async () => {
		const { time, pacer } = pacerAt(1_000);
		await waitOf(time, pacer, { 'ratelimit-remaining': '1', 'ratelimit-reset': '10' });
		expect(await waitOf(time, pacer)).toBe(0);
		// The second is sent, not yet answered: the third waits for the reset.
		expect(await waitOf(time, pacer)).toBe(10_000 + MARGIN_MS);
	});

	it('ignores responses without both RateLimit headers', async () => {
		const { time, pacer } = pacerAt(1_000);
		await waitOf(time, pacer, { 'ratelimit-remaining': '0' });
		expect(await waitOf(time, pacer)).toBe(0);
	});

	it('holds every request back after a 429 for the wait it asked for', async () => {
		const { time, pacer } = pacerAt(1_000);
		const { turn } = await takeTurn(time, pacer);
		pacer.settle(turn, 429, { 'retry-after': '3' }, 3_000);
		expect(await waitOf(time, pacer)).toBe(3_000 + MARGIN_MS);
	});

	it('is one pacer per base URL and API key', () => {
		expect(pacerFor('https://a.test', 'k1')).toBe(pacerFor('https://a.test', 'k1'));
		expect(pacerFor('https://a.test', 'k1')).not.toBe(pacerFor('https://a.test', 'k2'));
		expect(pacerFor('https://a.test', 'k1')).not.toBe(pacerFor('https://b.test', 'k1'));
	});
});

describe('429 handling', () => {
	it('429 with Retry-After: 1 → waits 1 s, retries, succeeds', async () => {
		const seen: SeenRequest[] = [];
		const { context } = freshContext();
		replyLogging(
			nock(BASE).get('/api/v1/leads/lead_1'),
			seen,
			429,
			{ error: { code: 'RATE_LIMITED', message: 'Too many requests' } },
			{ 'Retry-After': '1' },
		);
		replyLogging(nock(BASE).get('/api/v1/leads/lead_1'), seen, 200, { id: 'lead_1' });

		const lead = await apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' });

		expect(lead).toEqual({ id: 'lead_1' });
		expect(seen).toHaveLength(2);
		expect(sleepMock).toHaveBeenCalledTimes(1);
		// The pacer holds the 1000 ms the API asked for, plus its reset margin, less the few ms the test took.
		const [waited] = sleepMock.mock.calls[0];
		expect(waited).toBeGreaterThanOrEqual(1000);
		expect(waited).toBeLessThanOrEqual(1000 + MARGIN_MS);
	});

	it('a POST is retried after a 429 too: the API did not process it', async () => {
		const seen: SeenRequest[] = [];
		const { context } = freshContext();
		replyLogging(nock(BASE).post('/api/v1/leads'), seen, 429, '', { 'Retry-After': '2' });
		replyLogging(nock(BASE).post('/api/v1/leads'), seen, 201, { id: 'lead_1' });

		await apiRequest.call(context, { method: 'POST', path: '/leads', body: { name: 'Jane' } });

		expect(seen.map((request) => request.body)).toEqual([{ name: 'Jane' }, { name: 'Jane' }]);
		expect(sleepMock.mock.calls[0][0]).toBeGreaterThanOrEqual(2000);
	});

	it('429 without Retry-After or RateLimit-Reset → waits the default', async () => {
		const { context } = freshContext();
		nock(BASE).get('/api/v1/leads/lead_1').reply(429);
		nock(BASE).get('/api/v1/leads/lead_1').reply(200, { id: 'lead_1' });

		await apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' });

		expect(sleepMock.mock.calls[0][0]).toBeGreaterThanOrEqual(RETRY.defaultRateLimitWaitMs);
		expect(sleepMock.mock.calls[0][0]).toBeLessThanOrEqual(
			RETRY.defaultRateLimitWaitMs + MARGIN_MS,
		);
	});

	it('is bounded: after maxRateLimitRetries it throws the 429', async () => {
		const seen: SeenRequest[] = [];
		const { context } = freshContext();
		replyLogging(
			nock(BASE)
				.get('/api/v1/leads/lead_1')
				.times(RETRY.maxRateLimitRetries + 2),
			seen,
			429,
			{ error: { code: 'RATE_LIMITED', message: 'Too many requests' } },
			{ 'Retry-After': '1' },
		);

		const error = await errorOf(apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' }));

		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.httpCode).toBe('429');
		expect(seen).toHaveLength(RETRY.maxRateLimitRetries + 1);
		expect(sleepMock).toHaveBeenCalledTimes(RETRY.maxRateLimitRetries);
	});

	// Issue 40: `Retry-After: 0.001` on every 429 drew 21 requests in a burst; `0` backed off. Both now back off alike.
	it.each(['0', '0.001'])(
		'429s with Retry-After: %s → 6 requests, spaced 10, 20, 40, 60 s after the second, then the error',
		async (seconds) => {
			const seen: SeenRequest[] = [];
			const { context } = freshContext();
			replyLogging(
				nock(BASE)
					.get('/api/v1/leads/lead_1')
					.times(RETRY.maxRateLimitRetries + 1),
				seen,
				429,
				{ error: { code: 'RATE_LIMITED', message: 'Too many requests' } },
				{ 'Retry-After': seconds },
			);

			const error = await errorOf(
				apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' }),
			);

			expect(seen).toHaveLength(6);
			expect(error.message).toBe(
				'The CRM API answered 429 (rate limit) and gave no usable wait (Retry-After asked for less than a second again), so the node would wait 60 s before the next request; the node waits at most 3 min for a request and had waited 2 min, so it did not wait',
			);
			// The pacer's waits (the sleeps of its fake clock): each at least the back-off, at most its reset margin more.
			const waits = sleepMock.mock.calls.map(([ms]) => ms).filter((ms) => ms >= 1_000);
			expect(waits.map((ms) => Math.floor(ms / 1_000) * 1_000)).toEqual([
				10_000, 20_000, 40_000, 60_000,
			]);
		},
	);

	it('gives up at once when the API asks for a longer wait than the transport allows in total', async () => {
		const seen: SeenRequest[] = [];
		const { context } = freshContext();
		const tooLong = String(RETRY.maxTotalRateLimitWaitMs / 1000 + 1);
		replyLogging(nock(BASE).get('/api/v1/leads/lead_1').times(2), seen, 429, '', {
			'Retry-After': tooLong,
		});

		const error = await errorOf(apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' }));

		expect(error.httpCode).toBe('429');
		expect(seen).toHaveLength(1);
		expect(sleepMock).not.toHaveBeenCalled();
	});
});

describe('pacing from RateLimit-* headers', () => {
	it('RateLimit-Remaining: 0 and RateLimit-Reset: 2 → the next request waits ~2 s before it is sent, no 429', async () => {
		const events: string[] = [];
		sleepMock.mockImplementation(async (ms) => {
			events.push(`sleep ${ms}`);
		});
		const { context } = freshContext();
		nock(BASE)
			.get('/api/v1/leads/lead_1')
			.reply(() => {
				events.push('request 1');
				return [
					200,
					{ id: 'lead_1' },
					{ 'RateLimit-Limit': '60', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '2' },
				];
			});
		nock(BASE)
			.get('/api/v1/leads/lead_2')
			.reply(() => {
				events.push('request 2');
				return [
					200,
					{ id: 'lead_2' },
					{ 'RateLimit-Limit': '60', 'RateLimit-Remaining': '59', 'RateLimit-Reset': '60' },
				];
			});

		try {
			await apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' });
			await apiRequest.call(context, { method: 'GET', path: '/leads/lead_2' });
		} finally {
			sleepMock.mockImplementation(async () => undefined);
		}

		expect(events).toHaveLength(3);
		expect(events[0]).toBe('request 1');
		expect(events[1]).toMatch(/^sleep \d+$/);
		expect(events[2]).toBe('request 2');
		const waited = Number(events[1].split(' ')[1]);
		expect(waited).toBeGreaterThanOrEqual(1900);
		expect(waited).toBeLessThanOrEqual(2000 + MARGIN_MS);
	});

	it('the wait is shared by every execution using the same API key', async () => {
		const apiKey = 'sk_test_shared_window';
		const first = freshContext(apiKey);
		const second = freshContext(apiKey);
		const other = freshContext();
		nock(BASE)
			.get('/api/v1/leads/lead_1')
			.times(3)
			.reply(200, { id: 'lead_1' }, { 'RateLimit-Remaining': '0', 'RateLimit-Reset': '5' });

		await apiRequest.call(first.context, { method: 'GET', path: '/leads/lead_1' });
		expect(sleepMock).not.toHaveBeenCalled();

		await apiRequest.call(other.context, { method: 'GET', path: '/leads/lead_1' });
		expect(sleepMock).not.toHaveBeenCalled();

		await apiRequest.call(second.context, { method: 'GET', path: '/leads/lead_1' });
		expect(sleepMock).toHaveBeenCalledTimes(1);
		expect(sleepMock.mock.calls[0][0]).toBeGreaterThan(4_000);
	});

	it('a window with room left does not slow anything down', async () => {
		const { context } = freshContext();
		nock(BASE)
			.get('/api/v1/leads/lead_1')
			.times(3)
			.reply(200, { id: 'lead_1' }, { 'RateLimit-Remaining': '10', 'RateLimit-Reset': '30' });

		for (let n = 0; n < 3; n++)
			await apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' });

		expect(sleepMock).not.toHaveBeenCalled();
	});
});

describe('no turn within the wait: refused before it is sent', () => {
	it('5 requests at once at 1 request per minute: 3 are sent a minute apart, 2 are refused at once with what to do', async () => {
		const seen: SeenRequest[] = [];
		replyLogging(nock(BASE).get('/api/v1/leads/lead_1').times(5), seen, 200, { id: 'lead_1' });
		const contexts = Array.from(
			{ length: 5 },
			() =>
				createExecuteContext({
					nodeType: new CrmInvoicing(),
					parameters: {},
					credentials: { baseUrl: BASE, apiKey: 'sk_test_one_per_minute', requestsPerMinute: 1 },
				}).context,
		);

		const outcomes = await Promise.allSettled(
			contexts.map(
				async (context) => await apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' }),
			),
		);

		const refused = outcomes
			.filter((outcome) => outcome.status === 'rejected')
			.map((outcome) => (outcome as PromiseRejectedResult).reason);
		expect(seen).toHaveLength(3);
		expect(refused).toHaveLength(2);
		for (const error of refused) {
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toMatch(
				/^GET \/api\/v1\/leads\/lead_1 was not sent: its turn under the API key's rate limit would come in about 1[89]\d s, and it waits at most 180 s$/,
			);
			expect(error.description).toMatch(/Run fewer executions with this key at once/);
			expect(error.description).toMatch(
				/only if the CRM plan allows more, raise "Requests per Minute"/,
			);
		}
		// The pacer's waits (its one timer; sleep is mocked here, the spacing itself is shown in pacer.test.ts): the
		// third request went at least two minutes after the first, and no wait was beyond the cap.
		const waits = sleepMock.mock.calls.map(([ms]) => ms);
		expect(waits.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(2 * 60_000);
		expect(Math.max(...waits)).toBeLessThanOrEqual(RETRY.maxPacingWaitMs);
	});
});

/**
 * Issue 23, point 3: a CRM whose clock is off does not make the node hammer it. A `Retry-After` date is counted from
 * the answer's own `Date` header (clock-free); a date already past, or one too far ahead of n8n's clock with no `Date`
 * to count from, gives the default wait that doubles with each 429 of the request (5, 10, 20, 40, 60 s), within the
 * bounds of RETRY (20 retries, 3 minutes of waiting).
 */
const http = (ms: number): string => new Date(ms).toUTCString();
/** The pacer's waits (the retries wait for their turn there), rounded to seconds. */
const waitsInSeconds = (): number[] =>
	sleepMock.mock.calls.map(([ms]) => Math.round(Number(ms) / 1000));

describe('rateLimitWait: clock skew', () => {
	const now = Date.parse('2026-03-01T12:00:00Z');

	it("counts a Retry-After date from the answer's own Date: a CRM clock 30 s behind asking for 8 s waits 8 s", () => {
		const crmNow = now - 30_000;
		expect(rateLimitWait({ 'retry-after': http(crmNow + 8_000), date: http(crmNow) }, now)).toEqual(
			{ ms: 8_000, source: 'asked' },
		);
		// …and one 30 s ahead asking for 8 s too.
		expect(
			rateLimitWait({ 'retry-after': http(now + 38_000), date: http(now + 30_000) }, now),
		).toEqual({ ms: 8_000, source: 'asked' });
	});

	it("without a Date header, a date already past or over 60 s ahead of n8n's clock is not used: the default, growing", () => {
		expect(rateLimitWait({ 'retry-after': http(now - 22_000) }, now, 0)).toEqual({
			ms: 5_000,
			source: 'default',
			unusable: "Retry-After named a time already past by n8n's clock",
		});
		expect(rateLimitWait({ 'retry-after': http(now + 3_600_000) }, now, 1)).toMatchObject({
			ms: 10_000,
			source: 'default',
		});
		expect(rateLimitWait({ 'retry-after': http(now + 59_000) }, now)).toEqual({
			ms: 59_000,
			source: 'asked',
		});
	});

	it("a date past by the answer's own Date, or over 60 s ahead of it (a clock is off), is not used either: the default, growing", () => {
		expect(rateLimitWait({ 'retry-after': http(now - 1_000), date: http(now) }, now, 2)).toEqual({
			ms: 20_000,
			source: 'default',
			unusable: "Retry-After named a time already past by the answer's Date",
		});
		// A backend clock an hour ahead behind a proxy that stamps its own Date: not an hour's wait, and not a failure.
		expect(
			rateLimitWait({ 'retry-after': http(now + 3_600_000), date: http(now) }, now, 1),
		).toEqual({
			ms: 10_000,
			source: 'default',
			unusable: "Retry-After named a time more than 60 s ahead of the answer's Date",
		});
		expect(rateLimitWait({ 'retry-after': http(now + 60_000), date: http(now) }, now)).toEqual({
			ms: 60_000,
			source: 'asked',
		});
		// Seconds are what the CRM asks for, however many: the caller refuses more than it waits, with an error.
		expect(rateLimitWait({ 'retry-after': '3600' }, now)).toEqual({
			ms: 3_600_000,
			source: 'asked',
		});
	});

	it.each(['0', '0.001', '0.999'])(
		'"wait %s s" is a retry at once; asked again by the retry\'s 429, it is not a wait: the default, growing',
		(seconds) => {
			const once = rateLimitWait({ 'retry-after': seconds }, now, 0);
			expect(once).toEqual({ ms: Number(seconds) * 1000, source: 'asked' });
			expect(rateLimitWait({ 'retry-after': seconds }, now, 1)).toEqual({
				ms: 10_000,
				source: 'default',
				unusable: 'Retry-After asked for less than a second again',
			});
		},
	);

	it('a second or more asked again is a wait; a reset under a second asked again is the default', () => {
		expect(rateLimitWait({ 'retry-after': '1' }, now, 3)).toEqual({ ms: 1_000, source: 'asked' });
		expect(rateLimitWait({ 'ratelimit-reset': '0.5' }, now, 1)).toMatchObject({
			ms: 10_000,
			source: 'default',
		});
		expect(rateLimitWait({ 'ratelimit-reset': '0' }, now, 0)).toEqual({ ms: 50, source: 'asked' });
		expect(rateLimitWait({ 'ratelimit-reset': '0' }, now, 2)).toMatchObject({
			ms: 20_000,
			source: 'default',
		});
	});

	it('reads a Unix-time RateLimit-Reset like a date; seconds stay seconds', () => {
		expect(rateLimitWait({ 'ratelimit-reset': String((now - 60_000) / 1000) }, now)).toMatchObject({
			ms: 5_000,
			source: 'default',
		});
		expect(
			rateLimitWait(
				{ 'ratelimit-reset': String((now + 5_000) / 1000), date: http(now) },
				now + 40_000,
			),
		).toEqual({ ms: 5_050, source: 'asked' });
		expect(rateLimitWait({ 'ratelimit-reset': '0' }, now)).toEqual({ ms: 50, source: 'asked' });
		expect(rateLimitWait({ 'retry-after': '0' }, now)).toEqual({ ms: 0, source: 'asked' });
	});

	it('the default doubles from RETRY.defaultRateLimitWaitMs and stops at RETRY.maxWaitMs', () => {
		const defaultWait = (tries: number) => rateLimitWait({}, now, tries).ms;
		expect([0, 1, 2, 3, 4, 5, 19, 1_000].map(defaultWait)).toEqual([
			5_000, 10_000, 20_000, 40_000, 60_000, 60_000, 60_000, 60_000,
		]);
	});
});

describe('a CRM whose clock is 30 s behind, answering 429 for 8 s', () => {
	/** The CRM: 429 until `busyUntil` (CRM time), with Retry-After = busyUntil as a date; then the lead. */
	function skewedCrm(seen: SeenRequest[], options: { answers: number; withDate: boolean }): void {
		const crmNow = Date.now() - 30_000;
		const headers = {
			'Retry-After': http(crmNow + 8_000),
			...(options.withDate ? { Date: http(crmNow) } : {}),
		};
		replyLogging(
			nock(BASE).get('/api/v1/leads/lead_1').times(options.answers),
			seen,
			429,
			{ error: { code: 'RATE_LIMITED', message: 'Slow down' } },
			headers,
		);
		replyLogging(nock(BASE).get('/api/v1/leads/lead_1'), seen, 200, { id: 'lead_1' });
	}

	it('with its Date header: the node waits the 8 s it asked for and reads the lead in 2 requests', async () => {
		const seen: SeenRequest[] = [];
		skewedCrm(seen, { answers: 1, withDate: true });

		expect(
			await apiRequest.call(freshContext().context, { method: 'GET', path: '/leads/lead_1' }),
		).toEqual({ id: 'lead_1' });

		expect(seen).toHaveLength(2);
		expect(waitsInSeconds()).toEqual([8]);
	});

	it('without a Date header: 5 s, then 10 s (the CRM is still busy after 5 s): the lead in 3 requests, not 21', async () => {
		const seen: SeenRequest[] = [];
		skewedCrm(seen, { answers: 2, withDate: false });

		expect(
			await apiRequest.call(freshContext().context, { method: 'GET', path: '/leads/lead_1' }),
		).toEqual({ id: 'lead_1' });

		expect(seen).toHaveLength(3);
		expect(waitsInSeconds()).toEqual([5, 10]);
	});

	it('a CRM that never stops: 6 requests and 135 s of waiting, then an error that says why, within 3 minutes', async () => {
		const seen: SeenRequest[] = [];
		skewedCrm(seen, { answers: 30, withDate: false });

		const error = await errorOf(
			apiRequest.call(freshContext().context, { method: 'GET', path: '/leads/lead_1' }),
		);

		expect(seen).toHaveLength(6);
		expect(waitsInSeconds()).toEqual([5, 10, 20, 40, 60]);
		expect(waitsInSeconds().reduce((sum, seconds) => sum + seconds, 0) * 1000).toBeLessThanOrEqual(
			RETRY.maxTotalRateLimitWaitMs,
		);
		expect(error.message).toBe(
			"The CRM API answered 429 (rate limit) and gave no usable wait (Retry-After named a time already past by n8n's clock), so the node would wait 60 s before the next request; the node waits at most 3 min for a request and had waited 2 min, so it did not wait",
		);
		expect(error.httpCode).toBe('429');
		nock.cleanAll();
	});
});

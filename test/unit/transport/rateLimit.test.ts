/** What a 429 or a RateLimit-* header makes the transport wait, the pacer's rules on a fake clock, and both through
 * the request function. */
import nock from 'nock';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, credentialOf } from '../../../nodes/CrmInvoicing/shared/transport';
import { RETRY } from '../../../nodes/CrmInvoicing/shared/transport/limits';
import * as rateLimit from '../../../nodes/CrmInvoicing/shared/transport/rateLimit';
import { rateLimitWait } from '../../../nodes/CrmInvoicing/shared/transport/rateLimit';
import { FakeTime, pacerAt, pacerFor, takeTurn } from './pacerSim';
import {
	BASE,
	contextWith,
	errorOf,
	freshContext,
	getLead,
	LEAD_1,
	mockedSleep,
	replyLogging,
	setUpNock,
} from './support';
import type { SeenRequest } from './support';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn().mockResolvedValue(undefined),
}));

/** The margin the transport adds to a wait for a window to reset. */
const MARGIN_MS = 50;
const http = (ms: number): string => new Date(ms).toUTCString();
/** The waits the transport slept (its pacer's timer), rounded to seconds. */
const waitsInSeconds = (): number[] =>
	sleepMock.mock.calls.map(([ms]) => Math.round(Number(ms) / 1000));

/** An answer's RateLimit-* headers. */
const rate = (remaining: string, reset: string) => ({
	'ratelimit-remaining': remaining,
	'ratelimit-reset': reset,
});

setUpNock();
const sleepMock = mockedSleep();

describe('rateLimitWait: what an answer asks to wait', () => {
	const now = Date.parse('2026-03-01T12:00:00Z');
	const crmBehind = now - 30_000;
	const PAST_BY_N8N = "Retry-After named a time already past by n8n's clock";
	const AGAIN = 'Retry-After asked for less than a second again';
	const PAST_BY_DATE = "Retry-After named a time already past by the answer's Date";
	const AHEAD_OF_DATE = "Retry-After named a time more than 60 s ahead of the answer's Date";
	type Expected = { ms: number; source: 'asked' | 'default'; unusable?: string };
	const asked = (ms: number): Expected => ({ ms, source: 'asked' });
	const byDefault = (ms: number, unusable?: string): Expected =>
		unusable ? { ms, source: 'default', unusable } : { ms, source: 'default' };

	const after = (value: string) => ({ 'retry-after': value });
	const reset = (value: string) => ({ 'ratelimit-reset': value });
	const DEFAULT = byDefault(RETRY.defaultRateLimitWaitMs);

	// Rows: the answer's headers, the 429s the request met before, what it waits.
	it.each<[Record<string, string | string[]> | undefined, number, Expected]>([
		[after('30'), 0, asked(30_000)],
		[after('0'), 0, asked(0)], // a retry at once
		[after(http(now + 7_000)), 0, asked(7_000)], // an HTTP date
		[{ 'Retry-After': '2' }, 0, asked(2_000)], // any case
		[{ 'retry-after': ['3', '9'] }, 0, asked(3_000)], // the first of repeated values
		[{ 'RateLimit-Reset': '12' }, 0, asked(12_050)], // with a margin
		[reset('0'), 0, asked(MARGIN_MS)],
		[reset(String(now / 1000 + 5)), 0, asked(5_050)], // a Unix time
		[{ ...after('1'), ...reset('20') }, 0, asked(1_000)], // Retry-After first
		[{ ...after('soon'), ...reset('3') }, 0, asked(3_050)], // an unreadable one is ignored
		[{}, 0, DEFAULT],
		[undefined, 0, DEFAULT],
		[after(''), 0, DEFAULT],
		// A date is counted from the answer's own Date: a CRM clock 30 s behind, or ahead, asking for 8 s.
		[{ ...after(http(crmBehind + 8_000)), date: http(crmBehind) }, 0, asked(8_000)],
		[{ ...after(http(now + 38_000)), date: http(now + 30_000) }, 0, asked(8_000)],
		// Without a Date, a date already past or over 60 s ahead of n8n's clock is not used.
		[after(http(now - 22_000)), 0, byDefault(5_000, PAST_BY_N8N)],
		[after(http(now + 3_600_000)), 1, byDefault(10_000)],
		[after(http(now + 59_000)), 0, asked(59_000)],
		// Nor one past by the answer's Date, or over 60 s ahead of it (a backend clock an hour ahead behind a proxy
		// that stamps its own Date: not an hour's wait, and not a failure).
		[{ ...after(http(now - 1_000)), date: http(now) }, 2, byDefault(20_000, PAST_BY_DATE)],
		[{ ...after(http(now + 3_600_000)), date: http(now) }, 1, byDefault(10_000, AHEAD_OF_DATE)],
		[{ ...after(http(now + 60_000)), date: http(now) }, 0, asked(60_000)],
		// Seconds are what the CRM asks for, however many: the caller refuses more than it waits.
		[after('3600'), 0, asked(3_600_000)],
		// Under a second is a retry at once; asked again by the retry's 429, it is not a wait.
		[after('0.001'), 0, asked(1)],
		[after('0.999'), 0, asked(999)],
		[after('0'), 1, byDefault(10_000, AGAIN)],
		[after('0.001'), 1, byDefault(10_000, AGAIN)],
		[after('0.999'), 1, byDefault(10_000, AGAIN)],
		[after('1'), 3, asked(1_000)],
		[reset('0.5'), 1, byDefault(10_000)],
		[reset('0'), 2, byDefault(20_000)],
		[reset(String((now - 60_000) / 1000)), 0, byDefault(5_000)],
	])('%j after %i 429s → %j', (headers, tries, expected) => {
		const wait = rateLimitWait(headers, now, tries);
		expect(wait).toMatchObject(expected);
		if (expected.source === 'asked' || expected.unusable) expect(wait).toEqual(expected);
	});

	it("reads a Unix-time RateLimit-Reset by the answer's Date, like a date", () => {
		const headers = { 'ratelimit-reset': String((now + 5_000) / 1000), date: http(now) };
		expect(rateLimitWait(headers, now + 40_000)).toEqual(asked(5_050));
	});

	it('the default doubles from RETRY.defaultRateLimitWaitMs and stops at RETRY.maxWaitMs', () => {
		const defaultWait = (tries: number) => rateLimitWait({}, now, tries).ms;
		expect([0, 1, 2, 3, 4, 5, 19, 1_000].map(defaultWait)).toEqual([
			5_000, 10_000, 20_000, 40_000, 60_000, 60_000, 60_000, 60_000,
		]);
	});
});

describe('RateLimitPacer', () => {
	/** How long the next request waits for its turn (the clock moves timer by timer). */
	async function waitOf(
		time: FakeTime,
		pacer: rateLimit.RateLimitPacer,
		answer?: Record<string, string>,
	): Promise<number> {
		const before = time.now;
		const { turn, at } = await takeTurn(time, pacer);
		if (answer) pacer.settle(turn, 200, answer);
		return at - before;
	}

	// Rows: the answers of the requests before (each sent at once; undefined: sent, not yet answered), the time that
	// passes after them, and the wait of the next request.
	it.each<[string, Array<Record<string, string> | undefined>, number, number]>([
		['does not hold back while the window has room', [rate('3', '40'), rate('2', '40')], 0, 0],
		['waits for the reset once the window is spent', [rate('0', '2')], 1_500, 500 + MARGIN_MS],
		// The second is sent, not yet answered: the third waits for the reset.
		['spends the last slot of a window once', [rate('1', '10'), undefined], 0, 10_000 + MARGIN_MS],
		['ignores answers without both RateLimit headers', [{ 'ratelimit-remaining': '0' }], 0, 0],
	])('%s', async (_name, answers, passes, wait) => {
		const { time, pacer } = pacerAt(1_000);
		for (const answer of answers) expect(await waitOf(time, pacer, answer)).toBe(0);
		time.now += passes;
		expect(await waitOf(time, pacer)).toBe(wait);
	});

	it('is one pacer per base URL, API key and Requests per Minute', () => {
		expect(pacerFor('https://a.test', 'k1')).toBe(pacerFor('https://a.test', 'k1', 60));
		expect(pacerFor('https://a.test', 'k1')).not.toBe(pacerFor('https://a.test', 'k2'));
		expect(pacerFor('https://a.test', 'k1')).not.toBe(pacerFor('https://b.test', 'k1'));
		expect(pacerFor('https://a.test', 'k1')).not.toBe(pacerFor('https://a.test', 'k1', 600));
	});
});

describe('a 429 through the transport', () => {
	it.each([
		['GET', { 'Retry-After': '1' }, 1_000],
		['POST', { 'Retry-After': '2' }, 2_000], // the API did not process it: a POST is retried too
	] as const)(
		'%s answered 429 with %p: waits what it asked, retries, succeeds',
		async (method, headers, waitMs) => {
			const seen: SeenRequest[] = [];
			const body = method === 'POST' ? { name: 'Jane' } : undefined;
			replyLogging(nock(BASE).intercept('/api/v1/leads', method), seen, 429, '', headers);
			replyLogging(nock(BASE).intercept('/api/v1/leads', method), seen, 200, { id: 'lead_1' });

			// A still clock: the wait does not depend on how long this machine took between answer and sleep.
			const clock = jest.spyOn(Date, 'now').mockReturnValue(Date.now());
			try {
				const lead = await apiRequest.call(freshContext().context, {
					method,
					path: '/leads',
					body,
				});
				expect(lead).toEqual({ id: 'lead_1' });
			} finally {
				clock.mockRestore();
			}

			expect(seen.map((request) => request.body)).toEqual([body, body]);
			// The pacer holds the wait, plus its reset margin.
			expect(sleepMock.mock.calls).toEqual([[waitMs + MARGIN_MS]]);
		},
	);

	// Issue 40: `Retry-After: 0.001` on every 429 drew 21 requests in a burst. Which other answers give no usable
	// wait, and the wait they get instead: rateLimitWait's table above.
	it('429s with Retry-After: 0.001 forever → 6 requests, backing off 10, 20, 40, 60 s, then an error that says why', async () => {
		const seen: SeenRequest[] = [];
		const body = { error: { code: 'RATE_LIMITED', message: 'Slow down' } };
		replyLogging(nock(BASE).get(LEAD_1).times(30), seen, 429, body, { 'Retry-After': '0.001' });

		const error = await errorOf(getLead());

		expect(seen).toHaveLength(6);
		expect(waitsInSeconds().filter((seconds) => seconds > 0)).toEqual([10, 20, 40, 60]);
		expect(error.message).toBe(
			'The CRM API answered 429 (rate limit) and gave no usable wait (Retry-After asked for less than a second again), so the node would wait 60 s before the next request; the node waits at most 3 min for a request and had waited 2 min, so it did not wait',
		);
		expect(error.httpCode).toBe('429');
		nock.cleanAll();
	});
});

// When a window's headers hold a request back: the RateLimitPacer table above and pacer.test.
describe('pacing from RateLimit-* headers through the transport', () => {
	it('the wait is shared by every execution using the same API key, and no other', async () => {
		const apiKey = 'sk_test_shared_window';
		nock(BASE)
			.get(LEAD_1)
			.times(3)
			.reply(200, { id: 'lead_1' }, { 'RateLimit-Remaining': '0', 'RateLimit-Reset': '5' });

		await getLead(freshContext(apiKey).context);
		await getLead(freshContext().context);
		expect(sleepMock).not.toHaveBeenCalled();

		await getLead(freshContext(apiKey).context);
		expect(sleepMock).toHaveBeenCalledTimes(1);
		expect(sleepMock.mock.calls[0][0]).toBeGreaterThan(4_000);
	});

	it('5 requests at once at 1 request per minute: 3 are sent a minute apart, 2 are refused at once with what to do', async () => {
		const seen: SeenRequest[] = [];
		replyLogging(nock(BASE).get(LEAD_1).times(5), seen, 200, { id: 'lead_1' });
		const credentials = { baseUrl: BASE, apiKey: 'sk_test_one_per_minute', requestsPerMinute: 1 };
		const requests = Array.from({ length: 5 }, () => getLead(contextWith(credentials).context));

		const outcomes = await Promise.allSettled(requests);

		const refused = outcomes.flatMap((outcome) =>
			outcome.status === 'rejected' ? [outcome.reason] : [],
		);
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
		// The pacer's waits (sleep is mocked here, the spacing itself is shown in pacer.test.ts): the third request went
		// at least two minutes after the first, and no wait was beyond the cap.
		const waits = sleepMock.mock.calls.map(([ms]) => ms);
		expect(waits.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(2 * 60_000);
		expect(Math.max(...waits)).toBeLessThanOrEqual(RETRY.maxPacingWaitMs);
	});
});

describe("the credential's Requests per Minute, as credentialOf reads it", () => {
	it.each([
		[{}, 60],
		[{ requestsPerMinute: 600 }, 600],
		[{ requestsPerMinute: '120' }, 120],
		[{ requestsPerMinute: 0 }, 60],
		[{ requestsPerMinute: -5 }, 60],
		[{ requestsPerMinute: 'many' }, 60],
		[{ requestsPerMinute: 90.7 }, 90],
	])('%p → %p', async (data, expected) => {
		const { context } = contextWith({ baseUrl: BASE, apiKey: 'sk_test_rate', ...data });
		expect((await credentialOf(context)).requestsPerMinute).toBe(expected);
	});

	it('reading the credential (credentialOf) opens no pacer: only a request sent does', async () => {
		const Pacer = rateLimit.RateLimitPacer;
		const made = jest
			.spyOn(rateLimit, 'RateLimitPacer')
			.mockImplementation((...args) => new Pacer(...args));
		const { context, apiKey } = freshContext();
		expect((await credentialOf(context)).apiKey).toBe(apiKey);
		expect(made).not.toHaveBeenCalled();
		nock(BASE).get(LEAD_1).reply(200, { id: 'lead_1' });
		await getLead(context);
		expect(made).toHaveBeenCalledTimes(1);
		made.mockRestore();
	});
});

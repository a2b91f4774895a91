/**
 * Issue 23, point 3: a CRM whose clock is off does not make the node hammer it. A `Retry-After` date is counted from
 * the answer's own `Date` header (clock-free); a date already past, or one too far ahead of n8n's clock with no `Date`
 * to count from, gives the default wait that doubles with each 429 of the request (5, 10, 20, 40, 60 s), within the
 * bounds of RETRY (20 retries, 3 minutes of waiting).
 */
import nock from 'nock';
import { sleep } from 'n8n-workflow';

import { apiRequest } from '../../../nodes/CrmInvoicing/transport';
import { RETRY } from '../../../nodes/CrmInvoicing/transport/limits';
import { defaultRateLimitWait, rateLimitWait } from '../../../nodes/CrmInvoicing/transport/rateLimit';
import { BASE, errorOf, freshContext, replyLogging, setUpNock } from './support';
import type { SeenRequest } from './support';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn().mockResolvedValue(undefined),
}));

const sleepMock = jest.mocked(sleep);

setUpNock();
beforeEach(() => sleepMock.mockClear());

const http = (ms: number): string => new Date(ms).toUTCString();
/** The pacer's waits (the retries wait for their turn there), rounded to seconds. */
const waitsInSeconds = (): number[] => sleepMock.mock.calls.map(([ms]) => Math.round(Number(ms) / 1000));

describe('rateLimitWait', () => {
	const now = Date.parse('2026-03-01T12:00:00Z');

	it('counts a Retry-After date from the answer\'s own Date: a CRM clock 30 s behind asking for 8 s waits 8 s', () => {
		const crmNow = now - 30_000;
		expect(rateLimitWait({ 'retry-after': http(crmNow + 8_000), date: http(crmNow) }, now)).toEqual({ ms: 8_000, source: 'asked' });
		// …and one 30 s ahead asking for 8 s too.
		expect(rateLimitWait({ 'retry-after': http(now + 38_000), date: http(now + 30_000) }, now)).toEqual({ ms: 8_000, source: 'asked' });
	});

	it('without a Date header, a date already past or over 60 s ahead of n8n\'s clock is not used: the default, growing', () => {
		expect(rateLimitWait({ 'retry-after': http(now - 22_000) }, now, 0)).toEqual({
			ms: 5_000,
			source: 'default',
			unusable: "Retry-After named a time already past by n8n's clock",
		});
		expect(rateLimitWait({ 'retry-after': http(now + 3_600_000) }, now, 1)).toMatchObject({ ms: 10_000, source: 'default' });
		expect(rateLimitWait({ 'retry-after': http(now + 59_000) }, now)).toEqual({ ms: 59_000, source: 'asked' });
	});

	it('a date past by the answer\'s own Date is not used either; one far ahead of it is asked for (and refused by the caller)', () => {
		expect(rateLimitWait({ 'retry-after': http(now - 1_000), date: http(now) }, now, 2)).toEqual({
			ms: 20_000,
			source: 'default',
			unusable: "Retry-After named a time already past by the answer's own Date",
		});
		expect(rateLimitWait({ 'retry-after': http(now + 3_600_000), date: http(now) }, now)).toEqual({ ms: 3_600_000, source: 'asked' });
	});

	it('reads a Unix-time RateLimit-Reset like a date; seconds stay seconds', () => {
		expect(rateLimitWait({ 'ratelimit-reset': String((now - 60_000) / 1000) }, now)).toMatchObject({ ms: 5_000, source: 'default' });
		expect(rateLimitWait({ 'ratelimit-reset': String((now + 5_000) / 1000), date: http(now) }, now + 40_000)).toEqual({ ms: 5_050, source: 'asked' });
		expect(rateLimitWait({ 'ratelimit-reset': '0' }, now)).toEqual({ ms: 50, source: 'asked' });
		expect(rateLimitWait({ 'retry-after': '0' }, now)).toEqual({ ms: 0, source: 'asked' });
	});

	it('the default doubles from RETRY.defaultRateLimitWaitMs and stops at RETRY.maxWaitMs', () => {
		expect([0, 1, 2, 3, 4, 5, 19, 1_000].map(defaultRateLimitWait)).toEqual([5_000, 10_000, 20_000, 40_000, 60_000, 60_000, 60_000, 60_000]);
	});
});

describe('a CRM whose clock is 30 s behind, answering 429 for 8 s', () => {
	/** The CRM: 429 until `busyUntil` (CRM time), with Retry-After = busyUntil as a date; then the lead. */
	function skewedCrm(seen: SeenRequest[], options: { answers: number; withDate: boolean }): void {
		const crmNow = Date.now() - 30_000;
		const headers = { 'Retry-After': http(crmNow + 8_000), ...(options.withDate ? { Date: http(crmNow) } : {}) };
		replyLogging(nock(BASE).get('/api/v1/leads/lead_1').times(options.answers), seen, 429, { error: { code: 'RATE_LIMITED', message: 'Slow down' } }, headers);
		replyLogging(nock(BASE).get('/api/v1/leads/lead_1'), seen, 200, { id: 'lead_1' });
	}

	it('with its Date header: the node waits the 8 s it asked for and reads the lead in 2 requests', async () => {
		const seen: SeenRequest[] = [];
		skewedCrm(seen, { answers: 1, withDate: true });

		expect(await apiRequest.call(freshContext().context, { method: 'GET', path: '/leads/lead_1' })).toEqual({ id: 'lead_1' });

		expect(seen).toHaveLength(2);
		expect(waitsInSeconds()).toEqual([8]);
	});

	it('without a Date header: 5 s, then 10 s (the CRM is still busy after 5 s): the lead in 3 requests, not 21', async () => {
		const seen: SeenRequest[] = [];
		skewedCrm(seen, { answers: 2, withDate: false });

		expect(await apiRequest.call(freshContext().context, { method: 'GET', path: '/leads/lead_1' })).toEqual({ id: 'lead_1' });

		expect(seen).toHaveLength(3);
		expect(waitsInSeconds()).toEqual([5, 10]);
	});

	it('a CRM that never stops: 6 requests and 135 s of waiting, then an error that says why, within 3 minutes', async () => {
		const seen: SeenRequest[] = [];
		skewedCrm(seen, { answers: 30, withDate: false });

		const error = await errorOf(apiRequest.call(freshContext().context, { method: 'GET', path: '/leads/lead_1' }));

		expect(seen).toHaveLength(6);
		expect(waitsInSeconds()).toEqual([5, 10, 20, 40, 60]);
		expect(waitsInSeconds().reduce((sum, seconds) => sum + seconds, 0) * 1000).toBeLessThanOrEqual(RETRY.maxTotalRateLimitWaitMs);
		expect(error.message).toBe(
			"The CRM API answered 429 (rate limit) again and gave no usable wait (Retry-After named a time already past by n8n's clock), so the node would wait 60 s; the node had already waited 2 min for this request and waits at most 3 min in total",
		);
		expect(error.httpCode).toBe('429');
		nock.cleanAll();
	});
});

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Issue 12: with no RateLimit-* headers on its answers, the API is paced at the documented 60 requests per minute, or
 * the credential's Requests per Minute. (The first 60 at once and 60 in any minute over 200 requests: pacer.test.ts.)
 */
import nock from 'nock';
import { sleep } from 'n8n-workflow';

import { apiRequest } from '../../../nodes/CrmInvoicing/shared/transport';
import { DOCUMENTED_RATE_LIMIT } from '../../../nodes/CrmInvoicing/shared/transport/limits';
import * as rateLimit from '../../../nodes/CrmInvoicing/shared/transport/rateLimit';
import type { RateLimitPacer } from '../../../nodes/CrmInvoicing/shared/transport/rateLimit';
import { credentialOf } from '../../../nodes/CrmInvoicing/shared/transport';
import { createExecuteContext } from '../../helpers/harness';
import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { FakeTime, flush, pacerOn, takeTurn } from './pacerSim';
import { BASE, freshContext, setUpNock } from './support';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn().mockResolvedValue(undefined),
}));

const sleepMock = jest.mocked(sleep);
setUpNock();
beforeEach(() => sleepMock.mockClear());

const WINDOW_MS = DOCUMENTED_RATE_LIMIT.windowSeconds * 1000;

/** Send times of `count` requests made one after the other, each as soon as the pacer lets it go. */
async function sendTimes(
	time: FakeTime,
	pacer: RateLimitPacer,
	count: number,
	announce?: Record<string, string>,
): Promise<number[]> {
	const times: number[] = [];
	for (let n = 0; n < count; n++) {
		const { turn, at } = await takeTurn(time, pacer);
		times.push(at);
		pacer.settle(turn, 200, announce ?? {});
	}
	return times;
}

/** The most requests in any window of WINDOW_MS. */
function busiestWindow(times: number[]): number {
	let most = 0;
	for (let start = 0; start < times.length; start++) {
		let end = start;
		while (end < times.length && times[end] < times[start] + WINDOW_MS) end++;
		most = Math.max(most, end - start);
	}
	return most;
}

function pacerAt(
	start: number,
	requestsPerMinute?: number,
): { time: FakeTime; pacer: RateLimitPacer } {
	const time = new FakeTime();
	time.now = start;
	return { time, pacer: pacerOn(time, requestsPerMinute) };
}

describe('RateLimitPacer without RateLimit-* headers', () => {
	it('concurrent requests queue in order: 120 at once → the first, its answer, 59 more, then 60 a minute later', async () => {
		const { time, pacer } = pacerAt(0);
		const given: number[] = [];
		const turns = Array.from({ length: 120 }, async (_, n) => {
			const turn = await pacer.take();
			given.push(n);
			return { turn, at: time.now };
		});
		await flush();
		expect(given).toEqual([0]);
		pacer.settle((await turns[0]).turn, 200, {});
		await flush();
		expect(given).toHaveLength(60);
		await time.advanceTo(WINDOW_MS - 1);
		expect(given).toHaveLength(60);
		await time.advanceTo(WINDOW_MS + 600);
		expect(given).toEqual(Array.from({ length: 120 }, (_, n) => n));
		const times = await Promise.all(turns.map(async (turn) => (await turn).at));
		expect(busiestWindow(times)).toBe(60);
	});

	it('"Requests per Minute" from the credential replaces the documented 60', async () => {
		const { time, pacer } = pacerAt(0, 600);
		const times = await sendTimes(time, pacer, 700);

		expect(busiestWindow(times)).toBe(600);
	});

	it('does not pace at 60 while the API announces its own window', async () => {
		const { time, pacer } = pacerAt(0);
		const times = await sendTimes(time, pacer, 200, {
			'ratelimit-remaining': '1000',
			'ratelimit-reset': '60',
		});

		expect(times.every((at) => at === 0)).toBe(true);
	});

	it('falls back to the documented rate as soon as answers stop carrying the headers', async () => {
		const { time, pacer } = pacerAt(0);
		await sendTimes(time, pacer, 30, { 'ratelimit-remaining': '1000', 'ratelimit-reset': '60' });
		const times = await sendTimes(time, pacer, 40);

		expect(times[29]).toBe(0);
		expect(times[30]).toBeGreaterThanOrEqual(WINDOW_MS);
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
		const credentials = { baseUrl: BASE, apiKey: 'sk_test_rate', ...data };
		const { context } = createExecuteContext({
			nodeType: new CrmInvoicing(),
			parameters: {},
			credentials,
		});
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
		nock(BASE).get('/api/v1/leads/lead_1').reply(200, { id: 'lead_1' });
		await apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' });
		expect(made).toHaveBeenCalledTimes(1);
		made.mockRestore();
	});
});

describe('through the transport', () => {
	it('the 61st request of a key whose answers carry no RateLimit-* headers waits for the window, before it is sent', async () => {
		const events: string[] = [];
		sleepMock.mockImplementation(async (ms) => {
			events.push(`sleep ${ms}`);
		});
		const { context } = createExecuteContext({
			nodeType: new CrmInvoicing(),
			parameters: {},
			credentials: { baseUrl: BASE, apiKey: 'sk_test_documented_pacing' },
		});
		nock(BASE)
			.get('/api/v1/leads/lead_1')
			.times(61)
			.reply(() => {
				events.push('request');
				return [200, { id: 'lead_1' }];
			});

		try {
			for (let n = 0; n < 61; n++)
				await apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' });
		} finally {
			sleepMock.mockImplementation(async () => undefined);
		}

		expect(events.slice(0, 60)).toEqual(Array(60).fill('request'));
		expect(events[60]).toMatch(/^sleep \d+$/);
		expect(Number(events[60].split(' ')[1])).toBeGreaterThan(WINDOW_MS - 5_000);
		expect(events[61]).toBe('request');
	});
});

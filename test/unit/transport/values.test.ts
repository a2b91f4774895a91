import { NodeApiError } from 'n8n-workflow';

import {
	BoundedMap,
	headerValues,
	httpStatusOf,
	isPlainObject,
} from '../../../nodes/CrmInvoicing/shared';
import {
	type ExpectedAnswer,
	unexpectedAnswerError,
} from '../../../nodes/CrmInvoicing/shared/transport/errors';
import {
	contentTypeOf,
	describeValue,
	headerValue,
} from '../../../nodes/CrmInvoicing/shared/values';
import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { createExecuteContext } from '../../helpers/harness';

const { node } = createExecuteContext({ nodeType: new CrmInvoicing(), parameters: {} });

describe('the shared readers of answers, errors and headers', () => {
	it('reads a header whatever its case, the first of repeated values, and every value', () => {
		const headers = { 'Retry-After': '7', 'webhook-signature': ['v1,a', 'v1,b'], empty: null };
		expect(headerValue(headers, 'retry-after')).toBe('7');
		expect(headerValue(headers, 'RETRY-AFTER')).toBe('7');
		expect(headerValue(headers, 'Webhook-Signature')).toBe('v1,a');
		expect(headerValues(headers, 'webhook-signature')).toEqual(['v1,a', 'v1,b']);
		expect(headerValue(headers, 'empty')).toBeUndefined();
		expect(headerValues(undefined, 'x')).toEqual([]);
	});

	it('names the content type, cut to 100 characters, or says there is none', () => {
		expect(contentTypeOf({ 'content-type': 'text/html; charset=utf-8' })).toBe(
			'text/html; charset=utf-8',
		);
		expect(contentTypeOf({ 'Content-Type': 'x'.repeat(300) })).toHaveLength(100);
		expect(contentTypeOf({})).toBe('no content type');
	});

	it('reads the HTTP status of an error from httpCode or its context, and nothing else', () => {
		const apiError = new NodeApiError(
			node,
			{ message: 'gone', httpCode: '404' },
			{ httpCode: '404' },
		);
		expect(httpStatusOf(apiError)).toBe(404);
		expect(httpStatusOf({ context: { httpCode: '410' } })).toBe(410);
		expect(httpStatusOf(new Error('ECONNREFUSED'))).toBeUndefined();
		expect(httpStatusOf({ httpCode: 'ETIMEDOUT' })).toBeUndefined();
		expect(httpStatusOf(undefined)).toBeUndefined();
	});

	it('describes an answer by its kind and first characters, cut short', () => {
		const page = `<html>${'x'.repeat(500)}`;
		expect(describeValue('', true)).toBe('an empty body');
		expect(describeValue(page, true)).toMatch(/^text starting "<html>x+…"$/);
		expect(describeValue(page, true).length).toBeLessThan(140);
		expect(describeValue({ a: 1, b: 2 }, true)).toBe('an object with the keys a, b');
		expect(describeValue([1, 2], true)).toBe('an array of 2');
		expect(describeValue(7, true)).toBe('the number 7');
	});

	it('tells a JSON object from null, arrays and scalars', () => {
		expect(isPlainObject({})).toBe(true);
		expect(isPlainObject([])).toBe(false);
		expect(isPlainObject(null)).toBe(false);
		expect(isPlainObject('x')).toBe(false);
	});
});

/** `expected` when a 2xx body does not fit it (unexpectedAnswerError gives an error), else undefined. */
const answerMismatch = (body: unknown, status: number, expected: ExpectedAnswer) =>
	unexpectedAnswerError(() => node, {
		request: { method: 'GET', path: '/api/v1/x' },
		status,
		contentType: '',
		body,
		expected,
	}) && expected;

describe('which 2xx bodies fit which expectation (unexpectedAnswerError)', () => {
	it.each([
		['record', { id: 'lead_1' }, 200, undefined],
		['record', { id: 7 }, 200, undefined],
		['record', { id: '' }, 200, 'record'],
		['record', { id: '  ' }, 200, 'record'],
		['record', { id: null }, 200, 'record'],
		['record', { id: Number.NaN }, 200, 'record'],
		['record', { name: 'x' }, 200, 'record'],
		['record', '<html></html>', 200, 'record'],
		['record', '', 200, 'record'],
		['record', [{ id: 'x' }], 200, 'record'],
		['record', { id: { x: 1 } }, 200, 'record'],
		['record', 7, 200, 'record'],
		['record', '', 204, 'record'],
		['empty-or-object', '', 200, undefined],
		['empty-or-object', { ok: true }, 200, undefined],
		['empty-or-object', 'OK', 200, 'empty-or-object'],
		['empty-or-object', 'OK', 204, undefined], // a 204 fits whatever it carries
		['any', '<html>', 200, undefined],
	] as const)('%s with %j (%i) → %p', (expected, body, status, result) => {
		expect(answerMismatch(body, status, expected)).toBe(result);
	});
});

describe('BoundedMap, the one size-capped map', () => {
	it('never holds more than its limit, dropping the least recently set or read', () => {
		const map = new BoundedMap<string, number>(3);
		const held = () =>
			[...Array(1_003).keys()].map((index) => `k${index}`).filter((k) => map.has(k));
		for (let index = 0; index < 1_000; index++) map.set(`k${index}`, index);
		expect(held()).toEqual(['k997', 'k998', 'k999']);
		expect(map.get('k997')).toBe(997);
		map.set('k1000', 1000);
		// k998, now the least recently set or read, went; k999 is next.
		expect(held()).toEqual(['k997', 'k999', 'k1000']);
		expect(map.peek('k999')).toBe(999);
		map.set('k1001', 1001);
		expect(map.has('k999')).toBe(false);
		// The order they go in is the order of their last set or read: k997 (read), then k1000, then k1001.
		expect(held()).toEqual(['k997', 'k1000', 'k1001']);
		map.set('k1002', 1002);
		expect(held()).toEqual(['k1000', 'k1001', 'k1002']);
	});

	it('creates a missing value once with getOrSet, and refuses a limit that is not a positive integer', () => {
		const map = new BoundedMap<string, string[]>(2);
		const made = map.getOrSet('a', () => []);
		made.push('x');
		expect(map.getOrSet('a', () => ['other'])).toEqual(['x']);
		expect(() => new BoundedMap(0)).toThrow(RangeError);
		expect(() => new BoundedMap(1.5)).toThrow(RangeError);
	});
});

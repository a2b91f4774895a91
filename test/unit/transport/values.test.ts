import { NodeApiError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import {
	BoundedMap,
	headerValues,
	httpStatusOf,
	isPlainObject,
} from '../../../nodes/CrmInvoicing/shared';
import { contentTypeOf, headerValue } from '../../../nodes/CrmInvoicing/shared/values';

const node: INode = {
	id: 'n1',
	name: 'CRM Invoicing',
	type: 'n8n-nodes-crm-invoicing.crmInvoicing',
	typeVersion: 2,
	position: [0, 0],
	parameters: {},
};

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

	it('tells a JSON object from null, arrays and scalars', () => {
		expect(isPlainObject({})).toBe(true);
		expect(isPlainObject([])).toBe(false);
		expect(isPlainObject(null)).toBe(false);
		expect(isPlainObject('x')).toBe(false);
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

import { NodeApiError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import {
	contentTypeOf,
	headerValue,
	headerValues,
	httpStatusOf,
	isPlainObject,
} from '../../../nodes/CrmInvoicing/transport';

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
		expect(contentTypeOf({ 'content-type': 'text/html; charset=utf-8' })).toBe('text/html; charset=utf-8');
		expect(contentTypeOf({ 'Content-Type': 'x'.repeat(300) })).toHaveLength(100);
		expect(contentTypeOf({})).toBe('no content type');
	});

	it('reads the HTTP status of an error from httpCode or its context, and nothing else', () => {
		const apiError = new NodeApiError(node, { message: 'gone', httpCode: '404' }, { httpCode: '404' });
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

/** errors.ts helpers of issue 17: redaction of the key, and which 2xx bodies fit which `expect`. */
import type { INode } from 'n8n-workflow';

import {
	type ExpectedAnswer,
	unexpectedAnswerError,
} from '../../../nodes/CrmInvoicing/shared/transport/errors';
import { describeValue } from '../../../nodes/CrmInvoicing/shared/values';
import { redactValue, secretSpellings } from '../../../nodes/CrmInvoicing/shared/transport/redact';

/** A text is redacted as a text. */
const redactSecrets = (text: string, secrets: string[]): string => redactValue(text, secrets);

describe('redactSecrets', () => {
	const key = 'sk_live_a+b/c=d"e';

	it('replaces every occurrence, as is, URL-encoded and JSON-escaped', () => {
		const text = `key ${key}, again ${key}, encoded ${encodeURIComponent(key)}, in JSON ${JSON.stringify(key)}`;
		const redacted = redactSecrets(text, [key]);
		expect(redacted).toBe(
			'key [redacted], again [redacted], encoded [redacted], in JSON "[redacted]"',
		);
	});

	it('leaves a text without the key as it is, and ignores keys shorter than 4 characters', () => {
		expect(redactSecrets('nothing here', [key])).toBe('nothing here');
		expect(redactSecrets('a bad day', secretSpellings('a'))).toBe('a bad day');
	});
});

/** `expected` when a 2xx body does not fit it (unexpectedAnswerError gives an error), else undefined. */
const node = { name: 'CRM Invoicing', type: 'crmInvoicing', typeVersion: 1 } as INode;
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
		['record', { id: 'lead_1' }, undefined],
		['record', { id: 7 }, undefined],
		['record', { id: '' }, 'record'],
		['record', { id: '  ' }, 'record'],
		['record', { id: null }, 'record'],
		['record', { id: Number.NaN }, 'record'],
		['record', { name: 'x' }, 'record'],
		['record', '<html></html>', 'record'],
		['record', '', 'record'],
		['record', [{ id: 'x' }], 'record'],
		['empty-or-object', '', undefined],
		['empty-or-object', { ok: true }, undefined],
		['empty-or-object', 'OK', 'empty-or-object'],
		['any', '<html>', undefined],
	] as const)('%s with %j → %p', (expected, body, result) => {
		expect(answerMismatch(body, 200, expected)).toBe(result);
	});

	it('a 204 fits the empty-or-object expectation whatever it carries', () => {
		expect(answerMismatch('OK', 204, 'empty-or-object')).toBeUndefined();
		expect(answerMismatch('', 204, 'record')).toBe('record');
	});
});

describe('describeValue of an answer', () => {
	const describeAnswer = (body: unknown) => describeValue(body, true);
	it('names the kind and the first characters, cut short', () => {
		expect(describeAnswer('')).toBe('an empty body');
		expect(describeAnswer(`<html>${'x'.repeat(500)}`)).toMatch(/^text starting "<html>x+…"$/);
		expect(describeAnswer(`<html>${'x'.repeat(500)}`).length).toBeLessThan(140);
		expect(describeAnswer({ a: 1, b: 2 })).toBe('an object with the keys a, b');
		expect(describeAnswer([1, 2])).toBe('an array of 2');
		expect(describeAnswer(7)).toBe('the number 7');
	});
});

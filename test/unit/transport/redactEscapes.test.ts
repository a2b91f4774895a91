/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * The API key redacted whatever escapes the API uses. The key holds `/`, `+` and `=`, which encoders write otherwise;
 * every check looks for fragments no escape changes (`R3dact`, `Me9`, `Pl3ase`).
 */
import fc from 'fast-check';
import nock from 'nock';

import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { apiRequestFull } from '../../../nodes/CrmInvoicing/shared/transport';
import { READ } from '../../../nodes/CrmInvoicing/shared/transport/limits';
import {
	mayHoldSecret,
	REDACTED,
	redactValue,
	secretSpellings,
} from '../../../nodes/CrmInvoicing/shared/transport/redact';
import { runNode } from '../../helpers/harness';
import { BASE, errorOf, freshContext, getLead, LEAD_1, setUpNock, shownOf } from './support';

setUpNock();

const KEY = 'sk_live_R3dact/Me9+Pl3ase==';
const FRAGMENTS = ['R3dact', 'Me9', 'Pl3ase'];

/** The key as a JSON encoder may write it: `\/`, `\u002b`, `\u003d` (any case), every character as `\uXXXX`. */
const SPELLINGS: Record<string, string> = {
	plain: KEY,
	'PHP (\\/)': KEY.replace(/\//g, '\\/'),
	'\\u002b and \\u003d': KEY.replace(/\+/g, '\\u002b').replace(/=/g, '\\u003d'),
	'\\u002B and \\u003D, \\/': KEY.replace(/\//g, '\\/')
		.replace(/\+/g, '\\u002B')
		.replace(/=/g, '\\u003D'),
	'every character \\uXXXX': [...KEY]
		.map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
		.join(''),
	'URL-encoded': encodeURIComponent(KEY),
	'URL-encoded, lower-case hex': encodeURIComponent(KEY)
		.toLowerCase()
		.replace(/^sk_live_r3dact/, 'sk_live_R3dact')
		.replace('me9', 'Me9')
		.replace('pl3ase', 'Pl3ase'),
	'HTML references': KEY.replace(/\//g, '&#x2F;').replace(/\+/g, '&#43;').replace(/=/g, '&equals;'),
	'URL-encoded twice': encodeURIComponent(encodeURIComponent(KEY)),
	'HTML references escaped again': KEY.replace(/\//g, '&amp;#x2F;').replace(/=/g, '&amp;equals;'),
	'URL-encoded, then \\uXXXX': encodeURIComponent(KEY).replace(/%/g, '\\u0025'),
};

const shows = (text: string): string[] => FRAGMENTS.filter((fragment) => text.includes(fragment));

describe('redactValue of a text: every spelling of the key in a text', () => {
	it.each(Object.entries(SPELLINGS))('%s', (_name, spelling) => {
		const redacted = redactValue(`The API key ${spelling} is not valid; again: "${spelling}".`, [
			KEY,
		]);
		expect(redacted).toBe(`The API key ${REDACTED} is not valid; again: "${REDACTED}".`);
	});

	it('leaves escapes and texts that are not the key as they are, and ignores keys shorter than 4 characters', () => {
		const text = 'a\\/b \\u002b %2F &amp; sk_live_R3dact/Me9+ (most of the key, not all of it)';
		expect(redactValue(text, [KEY])).toBe(text);
		expect(redactValue('a bad day', secretSpellings('a'))).toBe('a bad day');
	});

	it('finds a key that holds a quote, JSON-escaped', () => {
		const quoted = 'sk_live_a+b/c=d"e';
		expect(redactValue(`in JSON ${JSON.stringify(quoted)}`, [quoted])).toBe(
			`in JSON "${REDACTED}"`,
		);
	});

	it('finds a key that itself holds %, \\ or &, written plainly', () => {
		const odd = 'sk_%41\\u0042&amp;x';
		expect(redactValue(`key ${odd}!`, [odd])).toBe(`key ${REDACTED}!`);
	});

	it('finds the key right after a near miss (overlapping prefixes)', () => {
		const key = 'aab/aab/aac';
		expect(redactValue('aab/aab/aab\\/aab/aac end', [key])).toBe(`aab/aab/${REDACTED} end`);
	});
});

describe('decoding runs to a fixed point, within a bound', () => {
	const encoded = (times: number) =>
		Array.from({ length: times }).reduce<string>((text) => encodeURIComponent(text), KEY);

	it('finds the key URL-encoded 8 times, and withholds a text still decoding after 8 rounds', () => {
		expect(redactValue(`key ${encoded(8)} end`, [KEY])).toBe(`key ${REDACTED} end`);
		expect(redactValue(`key ${encoded(9)} end`, [KEY])).toBe(REDACTED);
	});

	it('redacts the key at every depth of one text, shown as decoded to the deepest', () => {
		const text = `a ${encodeURIComponent(KEY)} b ${encoded(3)} c %2541`;
		expect(redactValue(text, [KEY])).toBe(`a ${REDACTED} b ${REDACTED} c A`);
	});
});

describe('redactValue: every string and key of a parsed answer', () => {
	it('walks a JSON answer after JSON.parse decoded its escapes', () => {
		const raw = `{"items":[{"id":"lead_1","note":"key ${SPELLINGS['PHP (\\/)']}"}],"${SPELLINGS['\\u002b and \\u003d']}":{"deep":["${SPELLINGS['every character \\uXXXX']}"]}}`;
		const parsed = JSON.parse(raw) as unknown;
		expect(shows(JSON.stringify(parsed))).toEqual(FRAGMENTS); // JSON.parse put the key back in clear
		const redacted = redactValue(parsed, [KEY]);
		expect(redacted).toEqual({
			items: [{ id: 'lead_1', note: `key ${REDACTED}` }],
			[REDACTED]: { deep: [REDACTED] },
		});
	});

	it('walks any nesting JSON.parse accepts, without recursion (100,000 levels)', () => {
		const depth = 100_000;
		const parsed = JSON.parse(
			`${'['.repeat(depth)}"${SPELLINGS['PHP (\\/)']}"${']'.repeat(depth)}`,
		) as unknown;
		redactValue(parsed, [KEY]);
		let inner: unknown = parsed;
		for (let level = 0; level < depth; level++) inner = (inner as unknown[])[0];
		expect(inner).toBe(REDACTED);
	});

	it('keeps a key named "__proto__" an own key when it rebuilds an object, redacts its value in place, the prototype untouched', () => {
		const rebuilt = redactValue(JSON.parse(`{"__proto__":{"x":1},"${KEY}":2}`), [KEY]) as object;
		expect(Object.keys(rebuilt)).toEqual(['__proto__', REDACTED]);
		expect(Object.getPrototypeOf(rebuilt)).toBe(Object.prototype);
		const inPlace = redactValue(JSON.parse(`{"__proto__":"key ${KEY}","n":["${KEY}"]}`), [KEY]);
		expect(JSON.stringify(inPlace)).toBe(`{"__proto__":"key ${REDACTED}","n":["${REDACTED}"]}`);
		expect(Object.getPrototypeOf(inPlace)).toBe(Object.prototype);
	});

	it('redacts a text (an answer that is not JSON) as a text', () => {
		expect(redactValue(`<p>${SPELLINGS['HTML references']}</p>`, [KEY])).toBe(`<p>${REDACTED}</p>`);
	});
});

// Each spelling: the redactValue table above; here that the request function and the node's output use it.
describe('in the request function, with the key in the credential', () => {
	const JSON_TYPE = { 'Content-Type': 'application/json' };
	const escapedBody = (spelling: string) =>
		`{"error":{"code":"UNAUTHORIZED","message":"The API key ${spelling} is not valid for this workspace."}}`;

	it('an error body past the read cap (not JSON any more) with the escaped key at its start', async () => {
		const body = `{"message":"bad key ${SPELLINGS['\\u002B and \\u003D, \\/']}","pad":"${'x'.repeat(READ.maxErrorBodyBytes)}"}`;
		nock(BASE).get(LEAD_1).reply(400, body, JSON_TYPE);

		const error = await errorOf(getLead(freshContext(KEY).context));

		expect(error.message).toContain(REDACTED);
		expect(shows(shownOf(error))).toEqual([]);
	});

	it('a 2xx record that holds the key (escaped) is output with the key redacted, the rest as the API sent it', async () => {
		const raw = `{"id":"lead_1","name":"Jane","customFields":{"apiKey":"${SPELLINGS['PHP (\\/)']}","n":[1,2]}}`;
		nock(BASE).get(LEAD_1).reply(200, raw, JSON_TYPE);

		const response = await apiRequestFull.call(freshContext(KEY).context, {
			method: 'GET',
			path: '/leads/lead_1',
			expect: 'record',
		});

		expect(response.body).toEqual({
			id: 'lead_1',
			name: 'Jane',
			customFields: { apiKey: REDACTED, n: [1, 2] },
		});
		expect(response.bodyBytes).toBe(Buffer.byteLength(raw));
	});

	it('Continue On Fail output of Lead → Get shows no spelling of the key', async () => {
		nock(BASE).get(LEAD_1).reply(401, escapedBody(SPELLINGS['\\u002b and \\u003d']), JSON_TYPE);

		const output = await runNode({
			nodeType: new CrmInvoicing(),
			parameters: {
				resource: 'lead',
				operation: 'get',
				leadId: { __rl: true, mode: 'id', value: 'lead_1' },
			},
			credentials: { baseUrl: BASE, apiKey: KEY, requestsPerMinute: 1_000_000 },
			continueOnFail: true,
		});

		const shown = JSON.stringify(output);
		expect(shown).toContain(REDACTED);
		expect(shows(shown)).toEqual([]);
	});
});

describe('a refused redirect: its target redacted after URL parsing', () => {
	const key = 'sk_Live_TabKey_7f3a';
	const withTab = `${key.slice(0, 8)}\t${key.slice(8)}`;

	it.each([
		['a TAB inside the key in the path (URL parsing drops it)', `${BASE}/admin/${withTab}`],
		['the key in another host (URL parsing lower-cases it)', `https://${withTab}.evil.test/x`],
	])('%s: the error never shows the key', async (_name, location) => {
		nock(BASE).get(LEAD_1).reply(302, '', { Location: location });

		const error = await errorOf(getLead(freshContext(key).context));

		expect(error.message).toMatch(/redirect to .*\[redacted\]/);
		expect(shownOf(error).toLowerCase()).not.toContain(key.toLowerCase().slice(8));
	});
});

describe('secretSpellings: the key as it is, and base64 / base64url-encoded at any alignment', () => {
	it('holds the key in lower case too (a host name is lower-cased)', () => {
		expect(secretSpellings('sk_AbC1')).toEqual(expect.arrayContaining(['sk_AbC1', 'sk_abc1']));
	});

	it.each([0, 1, 2])('finds the key encoded after %i other bytes, in both alphabets', (before) => {
		const spellings = secretSpellings(KEY);
		for (const encoding of ['base64', 'base64url'] as const) {
			const encoded = Buffer.from(`${'x'.repeat(before)}${KEY}!`).toString(encoding);
			const redacted = redactValue(`auth ${encoded} end`, spellings);
			expect(redacted).toContain(REDACTED);
			// Around the redaction stand at most the characters that also encode a neighbouring byte.
			expect(
				redacted.replace(`auth `, '').replace(' end', '').replace(REDACTED, '').length,
			).toBeLessThanOrEqual(Math.ceil((before * 8) / 6) + 4);
		}
	});
});

describe('mayHoldSecret: the first look at the raw text never misses what the walk would redact', () => {
	const spellings = secretSpellings(KEY);
	const anyOf = <T>(values: T[]) => fc.constantFrom(...values);
	/** A JSON text holding the key in one of its spellings (or not at all), in a string or an object key. */
	const pages = fc
		.tuple(
			anyOf([...Object.values(SPELLINGS), ...spellings, 'no key here', '&amp; 100% \\ done']),
			fc.boolean(),
			fc.string({ maxLength: 8 }),
			fc.string({ maxLength: 8 }),
		)
		.map(([spelled, asKey, before, after]) => {
			const value = JSON.stringify(`${before}${spelled}${after}`).slice(1, -1);
			return asKey
				? `{"items":[{"${value}":1,"id":"l1"}],"hasMore":false}`
				: `{"items":[{"id":"l1","name":"${value}"}],"hasMore":false}`;
		});

	it('answers "may" for every page the walk changes, and for every text the text scan changes', () => {
		fc.assert(
			fc.property(pages, (text) => {
				const walked = JSON.stringify(redactValue(JSON.parse(text), spellings));
				if (walked !== JSON.stringify(JSON.parse(text)))
					expect(mayHoldSecret(text, spellings)).toBe(true);
				if (redactValue(text, spellings) !== text)
					expect(mayHoldSecret(text, spellings)).toBe(true);
			}),
			{ numRuns: 500 },
		);
	});

	it('rules out a page without the key, also one full of &, % and \\', () => {
		const page = JSON.stringify({ items: [{ id: 'l1', name: 'Smith & Co "100%" \\ / x' }] });
		expect(mayHoldSecret(page, spellings)).toBe(false);
		expect(mayHoldSecret(JSON.stringify({ name: `A ${SPELLINGS['PHP (\\/)']}` }), spellings)).toBe(
			true,
		);
		expect(mayHoldSecret('{"name":"k \\u00252Bx"}', ['k +x'])).toBe(true);
	});
});

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
import { randomBytes } from 'node:crypto';

import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';

import {
	checkDeliveryHeaders,
	checkSignature,
} from '../../../nodes/CrmInvoicing/trigger/signature';
import {
	signedHeaders,
	signWebhook,
	verifyWebhookSignature,
	type VerifyInput,
} from '../../helpers/signing';

// The reference vector of the Standard Webhooks specification.
const REF = {
	secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
	id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
	timestamp: 1614265330,
	body: '{"test": 2432232314}',
	signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const SECRET = 'whsec_' + Buffer.from('unit-test-signing-key-0123456789').toString('base64');
const OTHER_SECRET = 'whsec_' + Buffer.from('another-signing-key-abcdefghijkl').toString('base64');
const NOW = 1_700_000_000;
const BODY =
	'{"event":"lead.created","timestamp":"2024-01-01T00:00:00.000Z","payload":{"id":"lead_1"}}';

function input(
	overrides: Partial<VerifyInput> = {},
	headerOverrides: Record<string, string | undefined> = {},
): VerifyInput {
	const headers: Record<string, string | undefined> = {
		...signedHeaders(SECRET, 'msg_1', NOW, BODY),
		...headerOverrides,
	};
	return { secret: SECRET, headers, rawBody: Buffer.from(BODY), nowSeconds: NOW, ...overrides };
}

const randomSecret = () => 'whsec_' + randomBytes(24).toString('base64');

const v1 = signWebhook({ secret: SECRET, id: 'msg_1', timestamp: NOW, body: BODY });
/** A delivery of BODY with other `headers` (and other fields). */
const withHeaders = (
	headers: VerifyInput['headers'],
	overrides: Partial<VerifyInput> = {},
): VerifyInput => ({ ...input(), headers, ...overrides });
const at = (timestamp: number) => withHeaders(signedHeaders(SECRET, 'm', timestamp, BODY));
const signature = (header: string) => input({}, { 'webhook-signature': header });
const reference = (rawBody: string): VerifyInput => ({
	secret: REF.secret,
	headers: {
		'webhook-id': REF.id,
		'webhook-timestamp': String(REF.timestamp),
		'webhook-signature': REF.signature,
	},
	rawBody: Buffer.from(rawBody),
	nowSeconds: REF.timestamp,
});
const MISMATCH = 'signature does not match';
const NO_V1 = 'no v1 signature in webhook-signature header';
const NO_SECRET = 'signing secret is missing or invalid';

it('signWebhook and verifyWebhookSignature agree with the Standard Webhooks reference vector', () => {
	const { secret, id, timestamp, body } = REF;
	expect(signWebhook({ secret, id, timestamp, body })).toBe(REF.signature);
	expect(signWebhook({ secret, id, timestamp, body: Buffer.from(body) })).toBe(REF.signature);
	expect(() => signWebhook({ secret: 'whsec_', id: 'a', timestamp: 1, body: '' })).toThrow(
		TypeError,
	);
	expect(verifyWebhookSignature(reference(REF.body))).toEqual({
		ok: true,
		id: REF.id,
		timestamp: REF.timestamp,
	});
	expect(verifyWebhookSignature(input())).toEqual({ ok: true, id: 'msg_1', timestamp: NOW });
});

describe('verifyWebhookSignature: true for a valid delivery, else the reason (never naming the secret)', () => {
	const headers = signedHeaders(SECRET, 'msg_1', NOW, BODY);
	const rotated = signedHeaders([OTHER_SECRET, SECRET], 'msg_1', NOW, BODY);
	const reversed = signedHeaders([SECRET, OTHER_SECRET], 'msg_1', NOW, BODY);
	const empty = signedHeaders(SECRET, 'msg_e', NOW, '');
	const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
	const binary = signedHeaders(SECRET, 'msg_b', NOW, bytes);
	const changed = Buffer.from([0x7b, 0xff, 0xfd, 0x7d]);
	const KEY_ONLY = SECRET.slice('whsec_'.length);
	const anyCase = {
		'Webhook-Id': headers['webhook-id'],
		'WEBHOOK-TIMESTAMP': headers['webhook-timestamp'],
		'Webhook-Signature': headers['webhook-signature'],
	};
	const repeated = { 'webhook-id': ['msg_1'], 'webhook-signature': ['v1,AAAA', v1] };
	const stamped = (stamp: string) => input({}, { 'webhook-timestamp': stamp });
	const NON_INTEGER = 'webhook-timestamp is not an integer number of seconds';
	type Row = [string, VerifyInput, true | string];
	const cases: Row[] = [
		// The space is gone: {"test":2432232314}.
		['the reference re-serialised', reference(JSON.stringify(JSON.parse(REF.body))), MISMATCH],
		['header names in any case', withHeaders(anyCase), true],
		['the secret without its whsec_ prefix', input({ secret: KEY_ONLY }), true],
		['a tampered id', input({}, { 'webhook-id': 'msg_2' }), MISMATCH],
		['a tampered timestamp', stamped(String(NOW + 1)), MISMATCH],
		['a bare whsec_ secret', input({ secret: 'whsec_' }), NO_SECRET],
		['no secret', input({ secret: undefined as unknown as string }), NO_SECRET],
		...(['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const).map(
			(name): Row => [`an empty ${name}`, input({}, { [name]: '' }), `missing ${name} header`],
		),
		['a timestamp at -300 s', at(NOW - 300), true],
		['a timestamp at +300 s', at(NOW + 300), true],
		['a timestamp at -301 s', at(NOW - 301), 'webhook-timestamp is too old'],
		['a timestamp at +301 s', at(NOW + 301), 'webhook-timestamp is in the future'],
		...[
			'1700000000.5',
			'1.7e9',
			'-1700000000',
			'0x6553f100',
			'now',
			'17000 00000',
			'+1700000000',
		].map((stamp): Row => [`the non-integer timestamp ${stamp}`, stamped(stamp), NON_INTEGER]),
		['rotation: old and new secrets', withHeaders(rotated), true],
		['rotation, with the old secret', withHeaders(rotated, { secret: OTHER_SECRET }), true],
		['rotation, in the other order', withHeaders(reversed), true],
		['rotation, with a third secret', withHeaders(reversed, { secret: randomSecret() }), MISMATCH],
		['a v1a entry and a v1 entry', signature(`${v1.replace(/^v1,/, 'v1a,')} ${v1}`), true],
		['entries of other versions around a v1 entry', signature(`v2,abc ${v1} v1a,xyz`), true],
		...(
			[
				['garbage', NO_V1],
				[',,,', NO_V1],
				['v1', NO_V1],
				['v1,', MISMATCH],
				['v1,not base64!', MISMATCH],
				['v1,AAAA', MISMATCH],
				['v1,' + Buffer.alloc(32).toString('base64'), MISMATCH],
				['v1,' + Buffer.alloc(33).toString('base64'), MISMATCH],
			] as const
		).map(([header, reason]): Row => [`the malformed header ${header}`, signature(header), reason]),
		['malformed entries around a valid one', signature(`v1,AAAA  garbage\t${v1} v1,`), true],
		['headers given as arrays (repeated headers)', withHeaders({ ...headers, ...repeated }), true],
		['an empty body', withHeaders(empty, { rawBody: Buffer.alloc(0) }), true],
		['a missing raw body, as empty', withHeaders(empty, { rawBody: undefined }), true],
		['another body for an empty one', withHeaders(empty, { rawBody: '{}' }), MISMATCH],
		['a body not valid UTF-8, byte for byte', withHeaders(binary, { rawBody: bytes }), true],
		['one changed byte of a binary body', withHeaders(binary, { rawBody: changed }), MISMATCH],
	];

	it.each(cases)('%s', (_case, given, expected) => {
		const result = verifyWebhookSignature(given);
		if (expected === true) {
			expect(result.ok).toBe(true);
			return;
		}
		expect(result).toEqual({ ok: false, reason: expected });
		for (const secret of [SECRET, OTHER_SECRET])
			expect(JSON.stringify(result)).not.toContain(secret.slice('whsec_'.length));
	});

	it('says whether the CRM is rotating: a matching v1 entry and another well-formed v1 entry that does not match (issue 40)', () => {
		const read = (secrets: string[], extra = '') => {
			const signed = signedHeaders(secrets, 'msg_1', NOW, BODY);
			const header = `${signed['webhook-signature']}${extra}`;
			const checked = checkDeliveryHeaders({ ...signed, 'webhook-signature': header }, NOW);
			if (typeof checked === 'string') throw new Error(checked);
			return checkSignature(SECRET, checked, Buffer.from(BODY));
		};
		expect(read([SECRET])).toEqual({ rotating: false });
		expect(read([OTHER_SECRET, SECRET])).toEqual({ rotating: true });
		expect(read([SECRET, OTHER_SECRET])).toEqual({ rotating: true });
		// The same entry twice, a malformed entry or another version: not a signature by another secret.
		expect(read([SECRET, SECRET])).toEqual({ rotating: false });
		expect(read([SECRET], ' v1,AAAA v1,%%% v2,abc')).toEqual({ rotating: false });
		// No entry matches: a failure, never "rotating".
		expect(read([OTHER_SECRET])).toEqual({ failure: MISMATCH, rotating: false });
	});
});

describe('interoperability with the standardwebhooks library (property tests)', () => {
	const secretArb = fc
		.uint8Array({ minLength: 1, maxLength: 64 })
		.map((bytes) => 'whsec_' + Buffer.from(bytes).toString('base64'));
	const idArb = fc.oneof(
		fc.stringMatching(/^msg_[A-Za-z0-9]{1,40}$/),
		fc
			.string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
			.filter((s) => s.trim() === s && s !== '' && !/[\s]/.test(s)),
	);
	const bodyArb = fc.oneof(
		fc.string({ unit: 'binary', maxLength: 300 }),
		fc.string({ unit: 'grapheme', maxLength: 300 }),
		fc.json(),
	);
	/** An id as Node hands it over: its UTF-8 bytes, one character per byte. */
	const onTheWire = (id: string) => Buffer.from(id, 'utf8').toString('latin1');

	it('what the library signs, ours verifies; rotation with two secrets', () => {
		fc.assert(
			fc.property(
				secretArb,
				secretArb,
				idArb,
				bodyArb,
				fc.integer({ min: -300, max: 300 }),
				(secret, old, id, body, skew) => {
					const now = Math.floor(Date.now() / 1000);
					const timestamp = now + skew;
					const date = new Date(timestamp * 1000);
					const current = new Webhook(secret).sign(id, date, body);
					const previous = new Webhook(old).sign(id, date, body);
					const headers = { 'webhook-id': onTheWire(id), 'webhook-timestamp': String(timestamp) };
					const rawBody = Buffer.from(body, 'utf8');
					const verify = (key: string, signature: string, bytes = rawBody) =>
						verifyWebhookSignature({
							secret: key,
							headers: { ...headers, 'webhook-signature': signature },
							rawBody: bytes,
							nowSeconds: now,
						});
					expect(verify(secret, current)).toEqual({ ok: true, id, timestamp });
					const rotated = `${previous} ${current}`;
					expect(verify(secret, rotated).ok).toBe(true);
					expect(verify(old, rotated).ok).toBe(true);
					// Only the old secret's entry: the new secret does not match (unless the two secrets are the same key).
					expect(verify(secret, previous).ok).toBe(previous === current);
					const tampered = Buffer.concat([rawBody, Buffer.from(' ')]);
					expect(verify(secret, rotated, tampered).ok).toBe(false);
				},
			),
			{ numRuns: 300 },
		);
	});

	it('what ours signs, the library verifies; rotation with two secrets', () => {
		fc.assert(
			fc.property(
				secretArb,
				secretArb,
				idArb,
				bodyArb,
				fc.integer({ min: -290, max: 290 }),
				(secret, old, id, body, skew) => {
					const timestamp = Math.floor(Date.now() / 1000) + skew;
					const headers = signedHeaders([old, secret], id, timestamp, Buffer.from(body, 'utf8'));
					expect(() =>
						new Webhook(secret).verify(body, headers, { jsonParse: false }),
					).not.toThrow();
					expect(() =>
						new Webhook(old).verify(Buffer.from(body, 'utf8'), headers, { jsonParse: false }),
					).not.toThrow();
					expect(signWebhook({ secret, id, timestamp, body })).toBe(
						new Webhook(secret).sign(id, new Date(timestamp * 1000), body),
					);
				},
			),
			{ numRuns: 300 },
		);
	});
});

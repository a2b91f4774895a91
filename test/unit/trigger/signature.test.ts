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

describe('signWebhook', () => {
	it('reproduces the Standard Webhooks reference vector', () => {
		expect(
			signWebhook({ secret: REF.secret, id: REF.id, timestamp: REF.timestamp, body: REF.body }),
		).toBe(REF.signature);
		expect(
			signWebhook({
				secret: REF.secret,
				id: REF.id,
				timestamp: REF.timestamp,
				body: Buffer.from(REF.body),
			}),
		).toBe(REF.signature);
	});

	it('refuses an empty secret', () => {
		expect(() => signWebhook({ secret: 'whsec_', id: 'a', timestamp: 1, body: '' })).toThrow(
			TypeError,
		);
	});
});

describe('verifyWebhookSignature', () => {
	it('accepts the reference vector at its own time', () => {
		expect(
			verifyWebhookSignature({
				secret: REF.secret,
				headers: {
					'webhook-id': REF.id,
					'webhook-timestamp': String(REF.timestamp),
					'webhook-signature': REF.signature,
				},
				rawBody: Buffer.from(REF.body),
				nowSeconds: REF.timestamp,
			}),
		).toEqual({ ok: true, id: REF.id, timestamp: REF.timestamp });
	});

	it('rejects the reference vector with a re-serialised body', () => {
		const reserialised = JSON.stringify(JSON.parse(REF.body)); // {"test":2432232314}: the space is gone
		expect(
			verifyWebhookSignature({
				secret: REF.secret,
				headers: {
					'webhook-id': REF.id,
					'webhook-timestamp': String(REF.timestamp),
					'webhook-signature': REF.signature,
				},
				rawBody: Buffer.from(reserialised),
				nowSeconds: REF.timestamp,
			}),
		).toEqual({ ok: false, reason: 'signature does not match' });
	});

	it('accepts a valid delivery, with header names in any case', () => {
		expect(verifyWebhookSignature(input())).toEqual({ ok: true, id: 'msg_1', timestamp: NOW });
		const headers = signedHeaders(SECRET, 'msg_1', NOW, BODY);
		expect(
			verifyWebhookSignature({
				secret: SECRET,
				headers: {
					'Webhook-Id': headers['webhook-id'],
					'WEBHOOK-TIMESTAMP': headers['webhook-timestamp'],
					'Webhook-Signature': headers['webhook-signature'],
				},
				rawBody: BODY,
				nowSeconds: NOW,
			}).ok,
		).toBe(true);
	});

	it('accepts the secret without its whsec_ prefix', () => {
		expect(verifyWebhookSignature(input({ secret: SECRET.slice('whsec_'.length) })).ok).toBe(true);
	});

	it('rejects a tampered body', () => {
		expect(
			verifyWebhookSignature(input({ rawBody: Buffer.from(BODY.replace('lead_1', 'lead_2')) })),
		).toEqual({
			ok: false,
			reason: 'signature does not match',
		});
	});

	it('rejects a tampered id or timestamp', () => {
		expect(verifyWebhookSignature(input({}, { 'webhook-id': 'msg_2' })).ok).toBe(false);
		expect(verifyWebhookSignature(input({}, { 'webhook-timestamp': String(NOW + 1) })).ok).toBe(
			false,
		);
	});

	it('rejects the wrong secret', () => {
		expect(verifyWebhookSignature(input({ secret: OTHER_SECRET }))).toEqual({
			ok: false,
			reason: 'signature does not match',
		});
	});

	it('rejects a missing or empty secret', () => {
		for (const secret of ['', 'whsec_', undefined as unknown as string]) {
			expect(verifyWebhookSignature(input({ secret }))).toEqual({
				ok: false,
				reason: 'signing secret is missing or invalid',
			});
		}
	});

	it.each([
		['webhook-id', 'missing webhook-id header'],
		['webhook-timestamp', 'missing webhook-timestamp header'],
		['webhook-signature', 'missing webhook-signature header'],
	])('rejects a missing %s header', (header, reason) => {
		expect(verifyWebhookSignature(input({}, { [header]: undefined }))).toEqual({
			ok: false,
			reason,
		});
		expect(verifyWebhookSignature(input({}, { [header]: '' }))).toEqual({ ok: false, reason });
	});

	it('accepts timestamps exactly at the tolerance, rejects one second beyond', () => {
		for (const skew of [-300, 300]) {
			const at = NOW + skew;
			expect(
				verifyWebhookSignature({ ...input(), headers: signedHeaders(SECRET, 'm', at, BODY) }).ok,
			).toBe(true);
		}
		expect(
			verifyWebhookSignature({ ...input(), headers: signedHeaders(SECRET, 'm', NOW - 301, BODY) }),
		).toEqual({
			ok: false,
			reason: 'webhook-timestamp is too old',
		});
		expect(
			verifyWebhookSignature({ ...input(), headers: signedHeaders(SECRET, 'm', NOW + 301, BODY) }),
		).toEqual({
			ok: false,
			reason: 'webhook-timestamp is in the future',
		});
	});

	it('rejects a stale timestamp even when correctly signed', () => {
		const stale = NOW - 3600;
		expect(
			verifyWebhookSignature({ ...input(), headers: signedHeaders(SECRET, 'm', stale, BODY) }),
		).toEqual({
			ok: false,
			reason: 'webhook-timestamp is too old',
		});
	});

	it('rejects a millisecond timestamp, signed as sent, as out of tolerance', () => {
		const millis = NOW * 1000;
		expect(
			verifyWebhookSignature({ ...input(), headers: signedHeaders(SECRET, 'm', millis, BODY) }),
		).toEqual({
			ok: false,
			reason: 'webhook-timestamp is in the future',
		});
	});

	it.each([
		'1700000000.5',
		'1.7e9',
		'-1700000000',
		'0x6553f100',
		'now',
		'17000 00000',
		'+1700000000',
	])('rejects the non-integer timestamp %p', (timestamp) => {
		expect(verifyWebhookSignature(input({}, { 'webhook-timestamp': timestamp }))).toEqual({
			ok: false,
			reason: 'webhook-timestamp is not an integer number of seconds',
		});
	});

	it('accepts rotation: old and new secrets in one header, in either order', () => {
		const headers = signedHeaders([OTHER_SECRET, SECRET], 'msg_1', NOW, BODY);
		expect(verifyWebhookSignature({ ...input(), headers }).ok).toBe(true);
		expect(verifyWebhookSignature({ ...input(), headers, secret: OTHER_SECRET }).ok).toBe(true);
		const reversed = signedHeaders([SECRET, OTHER_SECRET], 'msg_1', NOW, BODY);
		expect(verifyWebhookSignature({ ...input(), headers: reversed }).ok).toBe(true);
		expect(
			verifyWebhookSignature({ ...input(), headers: reversed, secret: randomSecret() }).ok,
		).toBe(false);
	});

	it('says whether the CRM is rotating: a matching v1 entry and another well-formed v1 entry that does not match (issue 40)', () => {
		const read = (secrets: string[], extra = '') => {
			const headers = signedHeaders(secrets, 'msg_1', NOW, BODY);
			const signature = `${headers['webhook-signature']}${extra}`;
			const checked = checkDeliveryHeaders({ ...headers, 'webhook-signature': signature }, NOW);
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
		expect(read([OTHER_SECRET])).toEqual({ failure: 'signature does not match', rotating: false });
	});

	it('ignores entries of other versions: only v1a is no v1 signature', () => {
		const v1 = signWebhook({ secret: SECRET, id: 'msg_1', timestamp: NOW, body: BODY });
		const v1a = v1.replace(/^v1,/, 'v1a,');
		expect(verifyWebhookSignature(input({}, { 'webhook-signature': v1a }))).toEqual({
			ok: false,
			reason: 'no v1 signature in webhook-signature header',
		});
		expect(verifyWebhookSignature(input({}, { 'webhook-signature': `${v1a} ${v1}` })).ok).toBe(
			true,
		);
		expect(
			verifyWebhookSignature(input({}, { 'webhook-signature': `v2,abc ${v1} v1a,xyz` })).ok,
		).toBe(true);
	});

	it.each([
		['garbage', 'no v1 signature in webhook-signature header'],
		[',,,', 'no v1 signature in webhook-signature header'],
		['v1', 'no v1 signature in webhook-signature header'],
		['v1,', 'signature does not match'],
		['v1,not base64!', 'signature does not match'],
		['v1,AAAA', 'signature does not match'],
		['v1,' + Buffer.alloc(32).toString('base64'), 'signature does not match'],
		['v1,' + Buffer.alloc(33).toString('base64'), 'signature does not match'],
	])('rejects the malformed header %p without throwing', (header, reason) => {
		expect(verifyWebhookSignature(input({}, { 'webhook-signature': header }))).toEqual({
			ok: false,
			reason,
		});
	});

	it('skips malformed entries next to a valid one, with any whitespace between', () => {
		const v1 = signWebhook({ secret: SECRET, id: 'msg_1', timestamp: NOW, body: BODY });
		expect(
			verifyWebhookSignature(input({}, { 'webhook-signature': `v1,AAAA  garbage\t${v1} v1,` })).ok,
		).toBe(true);
	});

	it('reads a header given as an array (repeated header)', () => {
		const v1 = signWebhook({ secret: SECRET, id: 'msg_1', timestamp: NOW, body: BODY });
		const result = verifyWebhookSignature({
			...input(),
			headers: {
				'webhook-id': ['msg_1'],
				'webhook-timestamp': String(NOW),
				'webhook-signature': ['v1,AAAA', v1],
			},
		});
		expect(result.ok).toBe(true);
	});

	it('verifies an empty body, and a missing raw body as empty', () => {
		const headers = signedHeaders(SECRET, 'msg_e', NOW, '');
		expect(
			verifyWebhookSignature({ secret: SECRET, headers, rawBody: Buffer.alloc(0), nowSeconds: NOW })
				.ok,
		).toBe(true);
		expect(
			verifyWebhookSignature({ secret: SECRET, headers, rawBody: undefined, nowSeconds: NOW }).ok,
		).toBe(true);
		expect(
			verifyWebhookSignature({ secret: SECRET, headers, rawBody: '{}', nowSeconds: NOW }).ok,
		).toBe(false);
	});

	it('signs raw bytes, not text: a body that is not valid UTF-8 verifies byte for byte', () => {
		const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
		const headers = signedHeaders(SECRET, 'msg_b', NOW, bytes);
		expect(
			verifyWebhookSignature({ secret: SECRET, headers, rawBody: bytes, nowSeconds: NOW }).ok,
		).toBe(true);
		expect(
			verifyWebhookSignature({
				secret: SECRET,
				headers,
				rawBody: Buffer.from([0x7b, 0xff, 0xfd, 0x7d]),
				nowSeconds: NOW,
			}).ok,
		).toBe(false);
	});

	it('never puts the secret into a reason', () => {
		const results = [
			verifyWebhookSignature(input({ secret: OTHER_SECRET })),
			verifyWebhookSignature(input({}, { 'webhook-signature': 'v1,xx' })),
			verifyWebhookSignature(input({}, { 'webhook-timestamp': 'x' })),
		];
		for (const result of results) {
			const text = JSON.stringify(result);
			expect(text).not.toContain(SECRET);
			expect(text).not.toContain(SECRET.slice('whsec_'.length));
			expect(text).not.toContain(OTHER_SECRET.slice('whsec_'.length));
		}
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

					expect(
						verifyWebhookSignature({
							secret,
							headers: { ...headers, 'webhook-signature': current },
							rawBody,
							nowSeconds: now,
						}),
					).toEqual({
						ok: true,
						id,
						timestamp,
					});
					const rotated = { ...headers, 'webhook-signature': `${previous} ${current}` };
					expect(
						verifyWebhookSignature({ secret, headers: rotated, rawBody, nowSeconds: now }).ok,
					).toBe(true);
					expect(
						verifyWebhookSignature({ secret: old, headers: rotated, rawBody, nowSeconds: now }).ok,
					).toBe(true);
					// Only the old secret's entry: the new secret does not match (unless the two secrets are the same key).
					const onlyOld = { ...headers, 'webhook-signature': previous };
					expect(
						verifyWebhookSignature({ secret, headers: onlyOld, rawBody, nowSeconds: now }).ok,
					).toBe(previous === current);
					// One changed byte breaks it.
					const tampered = Buffer.concat([rawBody, Buffer.from(' ')]);
					expect(
						verifyWebhookSignature({ secret, headers: rotated, rawBody: tampered, nowSeconds: now })
							.ok,
					).toBe(false);
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

	it('both reject the same tampering', () => {
		fc.assert(
			fc.property(
				secretArb,
				idArb,
				bodyArb,
				fc.string({ minLength: 1, maxLength: 5 }),
				(secret, id, body, extra) => {
					const timestamp = Math.floor(Date.now() / 1000);
					const headers = signedHeaders(secret, id, timestamp, body);
					const changed = body + extra;
					expect(() =>
						new Webhook(secret).verify(changed, headers, { jsonParse: false }),
					).toThrow();
					const wire = { ...headers, 'webhook-id': onTheWire(id) };
					expect(verifyWebhookSignature({ secret, headers: wire, rawBody: body }).ok).toBe(true);
					expect(
						verifyWebhookSignature({ secret, headers: wire, rawBody: Buffer.from(changed, 'utf8') })
							.ok,
					).toBe(false);
				},
			),
			{ numRuns: 200 },
		);
	});
});

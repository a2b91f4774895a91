import nock from 'nock';

import { useNock } from '../../helpers/nock';
import type { IDataObject, INodeParameters, IWebhookResponseData } from 'n8n-workflow';

import {
	NO_SECRET_REASON,
	RATIONED_REASON,
	ROTATED_REASON,
} from '../../../nodes/CrmInvoicing/trigger/webhook';
import {
	createWebhookContext,
	loggedMessages,
	type WebhookContextParts,
} from '../../helpers/harness';
import { signedHeaders, signWebhook } from '../../helpers/signing';
import {
	API,
	nextMessageId,
	nodeType,
	nowSeconds,
	OLD_SECRET,
	passLookupInterval,
	PRODUCTION_URL,
	SECRET,
	secretParts,
	storedSubscription,
	useMovableClock,
} from './fixtures';

interface Delivered {
	result: IWebhookResponseData;
	parts: WebhookContextParts;
	/** The status the trigger answered itself (undefined when it left the answer to n8n). */
	status?: number;
	body?: unknown;
}

/** Everything any delivery answered or emitted in this file, to check that the secret never shows. */
const everything: unknown[] = [];
const statuses: number[] = [];

async function deliver(options: {
	rawBody: Buffer | string;
	headers?: Record<string, string>;
	parameters?: INodeParameters;
	staticData?: IDataObject;
	/** Parsed body as n8n's body parser hands it over; by default parsed from rawBody. */
	body?: unknown;
}): Promise<Delivered> {
	const rawBody = Buffer.isBuffer(options.rawBody)
		? options.rawBody
		: Buffer.from(options.rawBody, 'utf8');
	const parts = createWebhookContext({
		nodeType,
		parameters: options.parameters ?? { events: ['lead.created', 'deal.stage_changed'] },
		staticData: options.staticData ?? storedSubscription(),
		headers: options.headers ?? {},
		rawBody,
		body: options.body,
		// The output of 0.2 (version 1); Simplify (version 2) has its tests in test/unit/output/triggerSimplify.test.ts.
		typeVersion: 1,
		webhookUrl: PRODUCTION_URL,
	});
	const result = await nodeType.webhook.call(parts.context);
	const answered = parts.response.calls.some((call) => call.method === 'json');
	const delivered: Delivered = { result, parts };
	if (answered) {
		delivered.status = parts.response.statusCode;
		delivered.body = parts.response.sentBody;
		statuses.push(parts.response.statusCode);
	}
	everything.push(result, parts.response.sentBody);
	return delivered;
}

function event(
	name = 'lead.created',
	payload: IDataObject = { id: 'lead_1', name: 'Jane Doe', value: 1200 },
) {
	return JSON.stringify({ event: name, timestamp: '2024-05-01T10:00:00.000Z', payload });
}

/** Signed headers for `body`, as the API sends them. */
function signed(
	body: string | Buffer,
	options: { secrets?: string[]; id?: string; timestamp?: number } = {},
) {
	return signedHeaders(
		options.secrets ?? [SECRET],
		options.id ?? nextMessageId(),
		options.timestamp ?? nowSeconds(),
		body,
	);
}

function expectRefused(delivered: Delivered, status: 400 | 401 | 503, reason: string) {
	expect(delivered.result).toEqual({ noWebhookResponse: true });
	expect(delivered.result.workflowData).toBeUndefined();
	expect(delivered.status).toBe(status);
	expect(delivered.body).toEqual({ error: reason });
}

function expectAcknowledgedOnly(delivered: Delivered) {
	expect(delivered.result.workflowData).toBeUndefined();
	expect(delivered.status).toBe(200);
}

useNock();
useMovableClock();
beforeEach(() => {
	// A signature mismatch asks the CRM (at most once per 30 s per process, for all triggers) whether the stored
	// subscription is still current (webhook.ts); the clock moves past that interval before each test. Here it is,
	// at this node's URL: a mismatch is then a forgery or a rotation the trigger missed (503, and it subscribes anew at
	// most once an hour: rotation.test.ts). The answer is optional, since most deliveries ask nothing;
	// test/unit/trigger/trust.test.ts covers the question itself.
	passLookupInterval();
	nock(API)
		.get(/^\/api\/v1\/webhooks\/[^/]+$/)
		.optionally()
		.times(50)
		.reply(200, (uri) => ({
			id: uri.split('/').pop(),
			url: PRODUCTION_URL,
			events: ['lead.created'],
			status: 'active',
		}));
});
afterEach(() => {
	// Only that question (and a renewal, which the POST unmocked here fails) is ever asked by a delivery without Output Full Record.
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});
afterAll(() => {
	nock.enableNetConnect();
	expect(statuses).not.toContain(410);
	const text = JSON.stringify({ everything, loggedMessages });
	for (const part of [...secretParts(SECRET), ...secretParts(OLD_SECRET)])
		expect(text).not.toContain(part);
});

describe('a verified delivery', () => {
	it('starts one execution with one item: event, timestamp, payload and webhookId', async () => {
		const body = event();
		const headers = signed(body, { id: 'msg_valid_1' });
		const delivered = await deliver({ rawBody: body, headers });
		expect(delivered.result).toEqual({
			noWebhookResponse: true,
			workflowData: [
				[
					{
						json: {
							event: 'lead.created',
							timestamp: '2024-05-01T10:00:00.000Z',
							payload: { id: 'lead_1', name: 'Jane Doe', value: 1200 },
							webhookId: 'msg_valid_1',
						},
					},
				],
			],
		});
		// Answered by the trigger before the execution starts (so that n8n saves the remembered id, see delivery.ts).
		expect(delivered.status).toBe(200);
		expect(delivered.body).toEqual({ received: true });
		// The credential is read once: to check that the stored secret is wrapped under its current API key.
		expect(delivered.parts.credentialsHelper.getDecryptedCalls).toBe(1);
	});

	it('is verified on the raw bytes, not on the parsed body', async () => {
		// Spaces and key order that JSON.stringify would not reproduce.
		const raw =
			'{ "payload" : {"id":"lead_9"},\n  "event": "lead.created", "timestamp": "2024-05-01T10:00:00Z" }';
		const delivered = await deliver({
			rawBody: raw,
			headers: signed(raw),
			// What n8n parsed: irrelevant to the signature, and not what is emitted.
			body: { event: 'lead.created', payload: { id: 'tampered' } },
		});
		expect(delivered.result.workflowData?.[0]?.[0]?.json).toMatchObject({
			event: 'lead.created',
			payload: { id: 'lead_9' },
		});
	});

	it('accepts rotation: signatures with the old and the new secret', async () => {
		const body = event();
		// A rotation seen: the trigger subscribes anew once answered (rotation.test.ts); here the CRM refuses that.
		nock(API)
			.post('/api/v1/webhooks')
			.reply(503, { error: { code: 'UNAVAILABLE', message: 'busy' } });
		const delivered = await deliver({
			rawBody: body,
			headers: signed(body, { secrets: [OLD_SECRET, SECRET] }),
		});
		expect(delivered.result.workflowData).toHaveLength(1);
	});

	it('accepts a timestamp within the tolerance', async () => {
		const body = event();
		for (const skew of [-240, 240]) {
			const delivered = await deliver({
				rawBody: body,
				headers: signed(body, { timestamp: nowSeconds() + skew }),
			});
			expect(delivered.result.workflowData).toHaveLength(1);
		}
	});

	it('of a custom event name is emitted', async () => {
		const body = event('invoice.overdue', { id: 'inv_1' });
		const delivered = await deliver({
			rawBody: body,
			headers: signed(body),
			parameters: {
				events: ['lead.created'],
				options: { customEvents: 'invoice.overdue, client.created' },
			},
		});
		expect(delivered.result.workflowData?.[0]?.[0]?.json.event).toBe('invoice.overdue');
	});

	it('with Payload Only emits just the payload', async () => {
		const body = event('lead.created', { id: 'lead_2', name: 'Ann' });
		const delivered = await deliver({
			rawBody: body,
			headers: signed(body),
			parameters: { events: ['lead.created'], options: { payloadOnly: true } },
		});
		expect(delivered.result.workflowData).toEqual([[{ json: { id: 'lead_2', name: 'Ann' } }]]);
	});

	it('with Payload Only wraps a payload that is not an object', async () => {
		const body = JSON.stringify({ event: 'lead.created', timestamp: 't', payload: [1, 2] });
		const delivered = await deliver({
			rawBody: body,
			headers: signed(body),
			parameters: { events: ['lead.created'], options: { payloadOnly: true } },
		});
		expect(delivered.result.workflowData).toEqual([[{ json: { payload: [1, 2] } }]]);
	});
});

describe('deliveries that fail verification start nothing: 401, or 503 for a mismatch on a current subscription (issue 40)', () => {
	it('tampered body', async () => {
		const body = event();
		const headers = signed(body);
		expectRefused(
			await deliver({ rawBody: body.replace('1200', '9999'), headers }),
			503,
			ROTATED_REASON,
		);
	});

	it('wrong secret', async () => {
		const body = event();
		const wrong = 'whsec_' + Buffer.from('somebody-else-s-key-0123456789').toString('base64');
		expectRefused(
			await deliver({ rawBody: body, headers: signed(body, { secrets: [wrong] }) }),
			503,
			ROTATED_REASON,
		);
	});

	it('stale timestamp', async () => {
		const body = event();
		expectRefused(
			await deliver({ rawBody: body, headers: signed(body, { timestamp: nowSeconds() - 600 }) }),
			401,
			'webhook-timestamp is too old',
		);
	});

	it('future timestamp', async () => {
		const body = event();
		expectRefused(
			await deliver({ rawBody: body, headers: signed(body, { timestamp: nowSeconds() + 600 }) }),
			401,
			'webhook-timestamp is in the future',
		);
	});

	it('millisecond timestamp', async () => {
		const body = event();
		expectRefused(
			await deliver({ rawBody: body, headers: signed(body, { timestamp: Date.now() }) }),
			401,
			'webhook-timestamp is in the future',
		);
	});

	it('non-integer timestamp', async () => {
		const body = event();
		const headers = { ...signed(body), 'webhook-timestamp': `${nowSeconds()}.5` };
		expectRefused(
			await deliver({ rawBody: body, headers }),
			401,
			'webhook-timestamp is not an integer number of seconds',
		);
	});

	it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const)(
		'missing %s header',
		async (name) => {
			const body = event();
			const headers: Record<string, string> = { ...signed(body) };
			delete headers[name];
			expectRefused(await deliver({ rawBody: body, headers }), 401, `missing ${name} header`);
		},
	);

	it('only a v1a entry', async () => {
		const body = event();
		const headers = signed(body);
		headers['webhook-signature'] = headers['webhook-signature'].replace(/^v1,/, 'v1a,');
		expectRefused(
			await deliver({ rawBody: body, headers }),
			401,
			'no v1 signature in webhook-signature header',
		);
	});

	it('malformed signature header', async () => {
		const body = event();
		const headers = { ...signed(body), 'webhook-signature': 'v1,%%%not-base64%%% ,,, v1' };
		expectRefused(await deliver({ rawBody: body, headers }), 503, ROTATED_REASON);
	});

	it('no headers at all', async () => {
		expectRefused(
			await deliver({ rawBody: event(), headers: {} }),
			401,
			'missing webhook-id header',
		);
	});

	it('empty body without a signature', async () => {
		const headers = {
			...signed(''),
			'webhook-signature': 'v1,' + Buffer.alloc(32).toString('base64'),
		};
		expectRefused(await deliver({ rawBody: '', headers }), 503, ROTATED_REASON);
	});

	it('a signature that does not match long after the last subscribing is retried (503), never final (issue 40)', async () => {
		const body = event();
		expectRefused(
			await deliver({ rawBody: body, headers: signed(body, { secrets: [OLD_SECRET] }) }),
			503,
			ROTATED_REASON,
		);
	});
});

describe('deliveries that a retry can bring in are answered 503 (the API retries 5xx, never other 4xx)', () => {
	it('no secret stored yet (the subscription is being created, or this n8n did not create it)', async () => {
		const body = event();
		expect(NO_SECRET_REASON).toMatch(/re-activate the workflow/);
		expectRefused(
			await deliver({ rawBody: body, headers: signed(body), staticData: {} }),
			503,
			NO_SECRET_REASON,
		);
	});

	it("a second mismatch within 30 s of the process's last question to the CRM (for any trigger)", async () => {
		const body = event();
		expectRefused(
			await deliver({ rawBody: body, headers: signed(body, { secrets: [OLD_SECRET] }) }),
			503,
			ROTATED_REASON,
		);
		expectRefused(
			await deliver({ rawBody: body, headers: signed(body, { secrets: [OLD_SECRET] }) }),
			503,
			RATIONED_REASON,
		);
		// A well-signed one still goes through meanwhile.
		expect(
			(await deliver({ rawBody: body, headers: signed(body) })).result.workflowData,
		).toHaveLength(1);
	});
});

describe('every refused delivery is logged as a warning, with the reason, never the secret or the body', () => {
	beforeEach(() => {
		loggedMessages.length = 0;
	});

	it.each([
		['no secret', 503, NO_SECRET_REASON, () => ({ staticData: {} })],
		['a forged signature', 503, ROTATED_REASON, () => ({ secrets: [OLD_SECRET] })],
		[
			'a signed body that is not a delivery',
			400,
			'body is not JSON',
			() => ({ raw: 'SECRET-BODY-TEXT not json' }),
		],
	])('%s', async (_case, status, reason, setup) => {
		const options = setup() as { staticData?: IDataObject; secrets?: string[]; raw?: string };
		const body = options.raw ?? event('lead.created', { id: 'lead_1', name: 'SECRET-BODY-TEXT' });
		const id = `msg_logged_${status}`;
		const delivered = await deliver({
			rawBody: body,
			headers: signed(body, { secrets: options.secrets, id }),
			staticData: options.staticData,
		});
		expect(delivered.status).toBe(status);
		// (A forged signature may also log the renewal it starts, at most once an hour: rotation.test.ts.)
		const warnings = loggedMessages.filter(
			(entry) => entry.level === 'warn' && entry.message.includes('refused a delivery'),
		);
		expect(warnings).toHaveLength(1);
		expect(warnings[0].message).toContain(`refused a delivery with ${status}`);
		expect(warnings[0].message).toContain(reason);
		expect(warnings[0].message).toContain(id);
		const logged = JSON.stringify(loggedMessages);
		expect(logged).not.toContain('SECRET-BODY-TEXT');
		for (const part of [...secretParts(SECRET), ...secretParts(OLD_SECRET)])
			expect(logged).not.toContain(part);
	});

	it('an accepted delivery logs no warning', async () => {
		const body = event();
		await deliver({ rawBody: body, headers: signed(body) });
		expect(loggedMessages.filter((entry) => entry.level === 'warn')).toEqual([]);
	});
});

describe('signature headers as they arrive on the wire', () => {
	it('webhook-signature sent as two header lines (Node joins them with ", " or ","), or as one with spaces, verifies', async () => {
		const body = event();
		const timestamp = nowSeconds();
		for (const separator of [', ', ',', ' ']) {
			const id = nextMessageId();
			const old = signWebhook({ secret: OLD_SECRET, id, timestamp, body });
			const current = signWebhook({ secret: SECRET, id, timestamp, body });
			const headers = {
				'webhook-id': id,
				'webhook-timestamp': String(timestamp),
				'webhook-signature': `${old}${separator}${current}`,
			};
			expect((await deliver({ rawBody: body, headers })).result.workflowData).toHaveLength(1);
		}
	});

	it('a non-ASCII webhook-id is verified from its exact bytes and output as its text', async () => {
		const body = event();
		const id = `msg_ünïcödé_€_${nextMessageId()}`;
		const timestamp = nowSeconds();
		const signature = signWebhook({ secret: SECRET, id, timestamp, body });
		// On the wire: UTF-8 bytes, which Node hands over one character per byte.
		const wireId = Buffer.from(id, 'utf8').toString('latin1');
		const delivered = await deliver({
			rawBody: body,
			headers: {
				'webhook-id': wireId,
				'webhook-timestamp': String(timestamp),
				'webhook-signature': signature,
			},
		});
		expect(delivered.result.workflowData).toHaveLength(1);
		expect((delivered.result.workflowData?.[0][0].json as IDataObject).webhookId).toBe(id);
	});
});

describe('verified deliveries that start nothing', () => {
	it('an event the user did not select is answered 200 and ignored', async () => {
		const body = event('invoice.paid', { id: 'inv_1' });
		const delivered = await deliver({
			rawBody: body,
			headers: signed(body),
			parameters: { events: ['lead.created'] },
		});
		expectAcknowledgedOnly(delivered);
		expect(delivered.body).toEqual({
			received: true,
			ignored: 'event "invoice.paid" is not selected in this trigger',
		});
	});

	it('a retry (same webhook-id) of an accepted delivery is answered 200 and not emitted again', async () => {
		const body = event();
		const id = nextMessageId();
		const staticData = storedSubscription();
		const first = await deliver({ rawBody: body, headers: signed(body, { id }), staticData });
		expect(first.result.workflowData).toHaveLength(1);

		// The retry is signed anew (a later timestamp), with the same webhook-id.
		const retry = await deliver({
			rawBody: body,
			headers: signed(body, { id, timestamp: nowSeconds() + 5 }),
			staticData,
		});
		expectAcknowledgedOnly(retry);
		expect(retry.body).toEqual({ received: true, duplicate: true });

		// Another id goes through.
		const other = await deliver({ rawBody: body, headers: signed(body), staticData });
		expect(other.result.workflowData).toHaveLength(1);
	});

	it('remembers accepted ids in the static data n8n saves (and survives losing the process memory)', async () => {
		const body = event();
		const id = nextMessageId();
		const staticData = storedSubscription({ subscriptionId: 'whk_restart' });
		await deliver({ rawBody: body, headers: signed(body, { id }), staticData });
		expect(staticData.recentDeliveries).toHaveLength(1);
		// What n8n saved and loads again after a restart: a plain copy.
		const reloaded = JSON.parse(JSON.stringify(staticData)) as IDataObject;
		jest.isolateModules(() => {
			// A fresh module memory, as in a new process.
			const { acceptOnce } = jest.requireActual<
				typeof import('../../../nodes/CrmInvoicing/trigger/store')
			>('../../../nodes/CrmInvoicing/trigger/store');
			expect(acceptOnce(reloaded, 'some-process-key', id)).toBe(false);
		});
	});

	it('a rejected delivery is not remembered: a correctly signed retry still goes through', async () => {
		const body = event();
		const id = nextMessageId();
		const staticData = storedSubscription();
		const bad = await deliver({
			rawBody: body,
			headers: { ...signed(body, { id }), 'webhook-signature': 'v1,AAAA' },
			staticData,
		});
		expectRefused(bad, 503, ROTATED_REASON);
		const good = await deliver({ rawBody: body, headers: signed(body, { id }), staticData });
		expect(good.result.workflowData).toHaveLength(1);
	});

	it('an ignored event is not remembered', async () => {
		const body = event('invoice.paid');
		const id = nextMessageId();
		const staticData = storedSubscription();
		await deliver({
			rawBody: body,
			headers: signed(body, { id }),
			staticData,
			parameters: { events: ['lead.created'] },
		});
		expect(staticData.recentDeliveries).toBeUndefined();
	});

	it('a correctly signed empty body is answered 400', async () => {
		expectRefused(await deliver({ rawBody: '', headers: signed('') }), 400, 'empty body');
	});

	it.each([
		['not JSON', 'body is not JSON'],
		['[1,2]', 'body is not a JSON object'],
		['{"payload":{}}', 'body has no event name'],
	])('a correctly signed body %p is answered 400', async (raw, reason) => {
		expectRefused(await deliver({ rawBody: raw, headers: signed(raw) }), 400, reason);
	});
});

describe('the signing secret', () => {
	it('appears in no item, answer or log of any delivery', async () => {
		const body = JSON.stringify({
			event: 'lead.created',
			timestamp: 't',
			payload: { note: 'hello' },
		});
		const delivered = await deliver({ rawBody: body, headers: signed(body) });
		const text = JSON.stringify(delivered.result);
		for (const part of secretParts(SECRET)) expect(text).not.toContain(part);
		// The remaining checks run over every delivery of this file in afterAll.
	});

	it('is used as stored: a signature made with it by the API verifies', async () => {
		const body = event();
		const id = nextMessageId();
		const timestamp = nowSeconds();
		const headers = {
			'webhook-id': id,
			'webhook-timestamp': String(timestamp),
			'webhook-signature': signWebhook({ secret: SECRET, id, timestamp, body }),
		};
		expect((await deliver({ rawBody: body, headers })).result.workflowData).toHaveLength(1);
	});
});

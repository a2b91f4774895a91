/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** Builders and values the webhook trigger's unit tests share: stored states, one delivery, a CRM that keeps subscriptions. */
import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';

import nock from 'nock';
import type { HookContext, WebhookContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeParameters,
	IWebhookResponseData,
} from 'n8n-workflow';

import { CrmInvoicingTrigger } from '../../nodes/CrmInvoicing/CrmInvoicingTrigger.node';
import { ownerTag, unwrapSecret } from '../../nodes/CrmInvoicing/trigger/store';
import { LOOKUP_INTERVAL_MS } from '../../nodes/CrmInvoicing/trigger/webhook';
import {
	createHookContext,
	createWebhookContext,
	loggedMessages,
	TEST_CREDENTIALS,
	type WebhookContextParts,
} from './harness';
import { signedHeaders } from './signing';

export const nodeType = new CrmInvoicingTrigger();

export const API = TEST_CREDENTIALS.baseUrl;
export const PRODUCTION_URL =
	'https://n8n.example.com/webhook/c0ffee00-0000-4000-8000-0000000000aa/webhook';
export const TEST_URL =
	'https://n8n.example.com/webhook-test/c0ffee00-0000-4000-8000-0000000000aa/webhook';

/** A signing secret as the API issues them: whsec_ + base64 of the key's bytes. */
const whsec = (key: string) => `whsec_${Buffer.from(key).toString('base64')}`;
export const SECRET = whsec('the-current-signing-key-for-tests!');
export const OLD_SECRET = whsec('the-previous-signing-key-for-test');
/** The secret of the subscription a renewal creates (renewalAtCrm). */
export const NEW_SECRET = whsec('the-secret-of-the-new-subscription');
/** The part of a secret that is the key: it must not appear anywhere either. */
export const secretParts = (secret: string) => [secret, secret.slice('whsec_'.length)];

export const nowSeconds = () => Math.floor(Date.now() / 1000);

let sequence = 0;
/** A fresh `webhook-id` per call, so deliveries of different tests are never taken for retries of each other. */
export const nextMessageId = () => `msg_test_${process.pid}_${++sequence}`;

/** The harness's n8n instance id, workflow id and node id (test/helpers/harness.ts). */
export const HARNESS_IDS = {
	instanceId: 'test-instance-id',
	workflowId: 'harness-workflow',
	nodeId: 'c0ffee00-0000-4000-8000-000000000001',
};

/** The owner tag of a trigger: by default the harness's node in production. */
export function tagFor(
	mode: 'trigger' | 'manual' = 'trigger',
	ids: Partial<typeof HARNESS_IDS> = {},
): string {
	const { instanceId, workflowId, nodeId } = { ...HARNESS_IDS, ...ids };
	return ownerTag({
		getInstanceId: () => instanceId,
		getWorkflow: () => ({ id: workflowId }),
		getNode: () => ({ id: nodeId, name: 'CRM Invoicing Trigger' }),
		getMode: () => mode,
	});
}

/**
 * A secret wrapped as the trigger stores it (`aes256gcm.v1:<iv>:<ciphertext>:<tag>`, HKDF-SHA256 of the API key
 * bound to the workflow, node and subscription ids), written here from the documented format rather than with the
 * package's own wrapSecret: the package's process never held this secret, as after a restart or in another process.
 */
export function wrapAsStored(
	secret: string,
	subscriptionId: string,
	apiKey = TEST_CREDENTIALS.apiKey,
	ids: Partial<typeof HARNESS_IDS> = {},
): string {
	const { workflowId, nodeId } = { ...HARNESS_IDS, ...ids };
	const info = Buffer.from(
		['aes256gcm.v1', workflowId, nodeId, subscriptionId].join('\u0000'),
		'utf8',
	);
	const key = Buffer.from(
		hkdfSync(
			'sha256',
			Buffer.from(apiKey, 'utf8'),
			Buffer.from('n8n-nodes-crm-invoicing/trigger-secret/v1', 'utf8'),
			info,
			32,
		),
	);
	const iv = randomBytes(12);
	const cipher = createCipheriv('aes-256-gcm', key, iv);
	cipher.setAAD(info);
	const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
	return [
		'aes256gcm.v1',
		iv.toString('base64url'),
		ciphertext.toString('base64url'),
		cipher.getAuthTag().toString('base64url'),
	].join(':');
}

/** The secret a trigger of the harness stored, unwrapped with `apiKey` (by default the harness's credential). */
export function unwrapped(
	staticData: IDataObject,
	apiKey = TEST_CREDENTIALS.apiKey,
): string | undefined {
	const wrapped = staticData.secretWrapped;
	if (typeof wrapped !== 'string') return undefined;
	return unwrapSecret(wrapped, apiKey, {
		workflowId: HARNESS_IDS.workflowId,
		nodeId: HARNESS_IDS.nodeId,
		subscriptionId: String(staticData.subscriptionId),
	});
}

/** What the harness's production trigger stores (0.4) after creating `whk_1` with SECRET. */
export function storedSubscription(overrides: IDataObject = {}): IDataObject {
	const id = String(overrides.subscriptionId ?? 'whk_1');
	return {
		subscriptionId: id,
		subscriptionUrl: PRODUCTION_URL,
		subscriptionEvents: ['deal.stage_changed', 'lead.created'],
		secretWrapped: wrapAsStored(SECRET, id),
		ownerTag: tagFor(),
		...overrides,
	};
}

/** What earlier versions stored after creating `whk_1`: 0.1 (clear secret, no tag), 0.2 (clear secret), 0.3 (wrapped). */
export function earlierSubscription(
	version: '0.1' | '0.2' | '0.3',
	overrides: IDataObject = {},
): IDataObject {
	const id = String(overrides.webhookId ?? 'whk_1');
	return {
		webhookId: id,
		webhookUrl: PRODUCTION_URL,
		webhookEvents: ['deal.stage_changed', 'lead.created'],
		...(version === '0.3'
			? { webhookSecretWrapped: wrapAsStored(SECRET, id) }
			: { webhookSecret: SECRET }),
		...(version === '0.1' ? {} : { webhookOwner: tagFor() }),
		...overrides,
	};
}

/** The stored state without the fields n8n's ObservableObject adds. */
export const plain = (data: IDataObject) => JSON.parse(JSON.stringify(data)) as IDataObject;

/** A mismatch asks the CRM at most once per LOOKUP_INTERVAL_MS (webhook.ts): tests move Date only past it. */
export function useMovableClock(): void {
	beforeAll(() => {
		jest.useFakeTimers({
			advanceTimers: true,
			doNotFake: [
				'nextTick',
				'setImmediate',
				'clearImmediate',
				'setTimeout',
				'clearTimeout',
				'setInterval',
				'clearInterval',
				'queueMicrotask',
				'hrtime',
				'performance',
			],
		});
	});
	afterAll(() => {
		jest.useRealTimers();
	});
}

/** Moves the clock past the lookup interval: the next mismatch may ask the CRM. */
export function passLookupInterval(): void {
	jest.setSystemTime(Date.now() + LOOKUP_INTERVAL_MS + 1);
}

/** Fails every test of the file that sent a request no interceptor answered (to another host, say). */
export function expectNoUnansweredRequests(): void {
	const unanswered: string[] = [];
	const onNoMatch = (request: { method?: string; href?: string; hostname?: string }) =>
		unanswered.push(`${request.method} ${request.href ?? request.hostname}`);
	beforeAll(() => nock.emitter.on('no match', onNoMatch));
	afterAll(() => nock.emitter.removeListener('no match', onNoMatch));
	beforeEach(() => {
		unanswered.length = 0;
	});
	afterEach(() => {
		expect(unanswered).toEqual([]);
	});
}

/** Makes the context another n8n instance's, workflow's or node's than the harness's. */
function moveTo(context: HookContext | WebhookContext, ids: Partial<typeof HARNESS_IDS>): void {
	const { instanceId, workflowId, nodeId } = ids;
	const workflow = context.getWorkflow();
	const node = context.getNode();
	if (instanceId !== undefined) context.getInstanceId = () => instanceId;
	if (workflowId !== undefined) context.getWorkflow = () => ({ ...workflow, id: workflowId });
	if (nodeId !== undefined) context.getNode = () => ({ ...node, id: nodeId });
}

/** The trigger's three hooks in a real HookContext: by default the harness's node in production, on two events. */
export function triggerHooks(
	options: {
		parameters?: INodeParameters;
		staticData?: IDataObject;
		webhookUrl?: string;
		mode?: 'trigger' | 'manual';
		workflowName?: string;
		credentials?: ICredentialDataDecryptedObject;
	} & Partial<typeof HARNESS_IDS> = {},
) {
	const parts = createHookContext({
		nodeType,
		parameters: options.parameters ?? { events: ['lead.created', 'deal.stage_changed'] },
		webhookUrl: options.webhookUrl ?? PRODUCTION_URL,
		staticData: options.staticData,
		mode: options.mode,
		workflowName: options.workflowName ?? 'Leads to Slack',
		...(options.credentials ? { credentials: options.credentials } : {}),
	});
	moveTo(parts.context, options);
	const methods = nodeType.webhookMethods.default;
	return {
		...parts,
		checkExists: async () => await methods.checkExists.call(parts.context),
		create: async () => await methods.create.call(parts.context),
		delete: async () => await methods.delete.call(parts.context),
	};
}

/** The CRM's side of subscribing anew at this node's URL: POST, then DELETE of the old one and the list of leftovers. */
export function renewalAtCrm(oldId = 'whk_1', newId = 'whk_2') {
	return nock(API)
		.post('/api/v1/webhooks')
		.reply(200, { id: newId, secret: NEW_SECRET })
		.delete(`/api/v1/webhooks/${oldId}`)
		.reply(204)
		.get('/api/v1/webhooks')
		.query(true)
		.reply(200, { items: [], hasMore: false });
}

/** An error the CRM API answers (spec §3). */
export const apiError = (code: string, message: string) => ({ error: { code, message } });

/** A delivery's body as the CRM sends it (spec §6). */
export function eventBody(
	event = 'lead.created',
	payload: unknown = { id: 'lead_1', name: 'Jane Doe', value: 1200 },
): string {
	return JSON.stringify({ event, timestamp: '2024-05-01T10:00:00.000Z', payload });
}

export interface DeliveryOptions {
	/** By default eventBody(). */
	rawBody?: string | Buffer;
	/** By default signed with `secrets` (SECRET), `id` (a fresh one) and `timestamp` (now). */
	headers?: Record<string, string>;
	secrets?: string[];
	id?: string;
	timestamp?: number;
	/** The parsed body n8n hands over; by default parsed from rawBody. */
	body?: unknown;
	/** By default storedSubscription(). */
	staticData?: IDataObject;
	parameters?: INodeParameters;
	credentials?: ICredentialDataDecryptedObject | null;
	mode?: 'trigger' | 'manual';
	workflowId?: string;
	/** Another process's node type (freshProcess()). */
	type?: CrmInvoicingTrigger;
	/** A shorter time limit for a renewal the delivery starts than RENEWAL_TIME_LIMIT_MS. */
	renewalLimitMs?: number;
	typeVersion?: number;
}

export interface Delivered {
	result: IWebhookResponseData;
	ran: boolean;
	status: number;
	body: unknown;
	/** The emitted items' json. */
	items: IDataObject[];
	staticData: IDataObject;
	parts: WebhookContextParts;
}

/** The webhook context of one signed delivery to the harness's trigger (production URL unless mode is manual). */
export function prepareDelivery(options: DeliveryOptions = {}): WebhookContextParts {
	const raw = options.rawBody ?? eventBody();
	const rawBody = Buffer.isBuffer(raw) ? raw : Buffer.from(raw, 'utf8');
	const headers =
		options.headers ??
		signedHeaders(
			options.secrets ?? [SECRET],
			options.id ?? nextMessageId(),
			options.timestamp ?? nowSeconds(),
			rawBody,
		);
	const parts = createWebhookContext({
		nodeType: options.type ?? nodeType,
		parameters: options.parameters ?? { events: ['lead.created', 'deal.stage_changed'] },
		staticData: options.staticData ?? storedSubscription(),
		headers,
		rawBody,
		body: options.body,
		webhookUrl: options.mode === 'manual' ? TEST_URL : PRODUCTION_URL,
		mode: options.mode,
		workflowName: 'Leads to Slack',
		typeVersion: options.typeVersion,
		...(options.credentials === undefined ? {} : { credentials: options.credentials }),
	});
	moveTo(parts.context, options);
	return parts;
}

/** Runs one delivery (built by prepareDelivery, or given as `parts` to watch it while it runs). */
export async function deliver(
	options: DeliveryOptions = {},
	parts = prepareDelivery(options),
): Promise<Delivered> {
	const result = await (options.type ?? nodeType).webhook.call(
		parts.context,
		options.renewalLimitMs,
	);
	return {
		result,
		ran: result.workflowData !== undefined,
		status: parts.response.statusCode,
		body: parts.response.sentBody,
		items: (result.workflowData?.[0] ?? []).map((item) => item.json),
		staticData: parts.staticData,
		parts,
	};
}

/** The trigger as a process with empty module memories loads it (after a restart, or another process). */
export function freshProcess(): CrmInvoicingTrigger {
	let fresh: CrmInvoicingTrigger | undefined;
	jest.isolateModules(() => {
		const loaded = jest.requireActual<
			typeof import('../../nodes/CrmInvoicing/CrmInvoicingTrigger.node')
		>('../../nodes/CrmInvoicing/CrmInvoicingTrigger.node');
		fresh = new loaded.CrmInvoicingTrigger();
	});
	return fresh!;
}

/** The secret the fake CRM issues with subscription `id`. */
export const fakeSecret = (id: string) => whsec(`secret-${id}-0123456789`);

export interface FakeCrm {
	store: Map<string, IDataObject>;
	/** Every id a DELETE named, found or not. */
	deleted: string[];
	/** A subscription made at the CRM (by hand, by another trigger, by this one earlier). */
	add: (id: string, name: string, url: string) => void;
}

const notFound = [404, { error: { code: 'NOT_FOUND', message: 'not found' } }] as const;

/** A CRM on nock that keeps subscriptions (ids whk_1, whk_2, …), for whole lifecycles; persists until nock.cleanAll(). */
export function fakeCrm(): FakeCrm {
	const crm: FakeCrm = {
		store: new Map(),
		deleted: [],
		add: (id, name, url) => {
			crm.store.set(id, { id, name, url, events: ['deal.stage_changed', 'lead.created'] });
		},
	};
	let counter = 0;
	const idOf = (uri: string) => uri.split('/').pop()!;
	nock(API)
		.persist()
		.post('/api/v1/webhooks')
		.reply((_uri, body) => {
			const id = `whk_${++counter}`;
			crm.store.set(id, { ...(body as IDataObject), id, status: 'active' });
			return [200, { ...crm.store.get(id), secret: fakeSecret(id) }];
		})
		.get('/api/v1/webhooks')
		.query(true)
		.reply(() => [200, { items: [...crm.store.values()], hasMore: false, nextCursor: null }])
		.get(/^\/api\/v1\/webhooks\/[^/]+$/)
		.reply((uri) => {
			const found = crm.store.get(idOf(uri));
			return found ? [200, found] : [...notFound];
		})
		.delete(/^\/api\/v1\/webhooks\/[^/]+$/)
		.reply((uri) => {
			crm.deleted.push(idOf(uri));
			return crm.store.delete(idOf(uri)) ? [204, ''] : [...notFound];
		});
	return crm;
}

/** What n8n's WebhookService.createWebhookIfNotExists does with the trigger's hooks. */
export async function activate(trigger: {
	checkExists: () => Promise<boolean>;
	create: () => Promise<boolean>;
}): Promise<void> {
	if (!(await trigger.checkExists())) await trigger.create();
}

export const LIST = '/api/v1/webhooks';
export const ONE = (id: string) => `/api/v1/webhooks/${id}`;
/** The stored subscription whk_1 as the CRM shows it: current at the production URL. */
export const AT_CRM = {
	id: 'whk_1',
	url: PRODUCTION_URL,
	events: ['deal.stage_changed', 'lead.created'],
	status: 'active',
};

/** The messages logged at `level` (all by default), one a line. */
export function logged(level?: 'info' | 'warn'): string {
	return loggedMessages
		.filter((entry) => level === undefined || entry.level === level)
		.map((entry) => entry.message)
		.join('\n');
}

export const warnings = () =>
	loggedMessages.filter((entry) => entry.level === 'warn').map((entry) => entry.message);

/** Clears the log before each test; after each, fails the test that left an interceptor unused, and clears them. */
export function expectEveryMockUsed(): void {
	beforeEach(() => {
		loggedMessages.length = 0;
	});
	afterEach(() => {
		nock.abortPendingRequests();
		const pending = nock.pendingMocks();
		nock.cleanAll();
		expect(pending).toEqual([]);
	});
}

/** A delivery that started nothing, answered `status` (with `reason` as its error). */
export function expectNothingRun(delivered: Delivered, status: number, reason?: string): void {
	expect(delivered.ran).toBe(false);
	expect(delivered.status).toBe(status);
	if (reason !== undefined) expect(delivered.body).toEqual({ error: reason });
}

/** Fails each test of the file after which a log line holds any of `texts` (keys, secrets' parts, bodies). */
export function expectNeverLogged(texts: string[]): void {
	afterEach(() => {
		const text = JSON.stringify(loggedMessages);
		for (const part of texts) expect(text).not.toContain(part);
	});
}

/** A CRM on nock that shows any subscription current and answers every renewal (POST whk_new_N), counting both. */
export function renewingCrm(secret = NEW_SECRET): { asked: number; posts: number } {
	const counts = { asked: 0, posts: 0 };
	nock(API)
		.persist()
		.get(/^\/api\/v1\/webhooks\/[^/]+$/)
		.reply(200, (uri) => {
			counts.asked++;
			return { ...AT_CRM, id: uri.split('/').pop() };
		})
		.post(LIST)
		.reply(200, () => ({ id: `whk_new_${++counts.posts}`, secret }))
		.delete(ONE('whk_1'))
		.reply(204)
		.get(LIST)
		.query(true)
		.reply(200, []);
	return counts;
}

/** The subscription whk_0 as 0.4 keeps it retired: at an old URL, its secret OLD_SECRET wrapped under `apiKey`. */
export const retiredWhk0 = (apiKey = TEST_CREDENTIALS.apiKey): IDataObject => ({
	id: 'whk_0',
	url: 'https://old.example.com/webhook/x/webhook',
	secretWrapped: wrapAsStored(OLD_SECRET, 'whk_0', apiKey),
});

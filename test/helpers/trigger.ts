/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** Builders the webhook trigger's unit tests share: one delivery, a CRM that keeps subscriptions, a fresh process. */
import nock from 'nock';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeParameters,
	IWebhookResponseData,
} from 'n8n-workflow';

import { CrmInvoicingTrigger } from '../../nodes/CrmInvoicing/CrmInvoicingTrigger.node';
import {
	API,
	nextMessageId,
	nodeType,
	nowSeconds,
	PRODUCTION_URL,
	SECRET,
	storedSubscription,
	TEST_URL,
} from '../unit/trigger/fixtures';
import { createWebhookContext, type WebhookContextParts } from './harness';
import { signedHeaders } from './signing';

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
	const { workflowId } = options;
	if (workflowId !== undefined) {
		const workflow = parts.context.getWorkflow();
		parts.context.getWorkflow = () => ({ ...workflow, id: workflowId });
	}
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
export const fakeSecret = (id: string) =>
	`whsec_${Buffer.from(`secret-${id}-0123456789`).toString('base64')}`;

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

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** What the end-to-end tests share: the running n8n and sandbox (started by scripts/e2e.ts), and workflow builders. */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { E2eEnv } from '../../scripts/e2e';
import type { RequestLogEntry, SandboxPersonality } from '../sandbox/types';
import { N8nClient, webhookNode } from '../../scripts/lib/n8n';
import { waitForWebhook } from '../../scripts/lib/settle';

export { waitForWebhook } from '../../scripts/lib/settle';

export const PACKAGE = 'n8n-nodes-crm-invoicing';
export const ACTION_NODE_TYPE = `${PACKAGE}.crmInvoicing`;
export const TRIGGER_NODE_TYPE = `${PACKAGE}.crmInvoicingTrigger`;
export const POLLING_TRIGGER_TYPE = `${PACKAGE}.crmInvoicingPollingTrigger`;
export const TRIGGER_NODE_NAME = 'CRM Invoicing Trigger';
export const POLLING_NODE_NAME = 'CRM Invoicing Polling Trigger';
/** The polling trigger's interval in these tests: twelve poll times (n8n refuses less than a minute per poll time). */
export const POLL_MS = 5_000;
export const EVERY_FIVE_SECONDS = {
	item: Array.from({ length: 12 }, (_, index) => ({
		mode: 'custom',
		cronExpression: `${index * 5} * * * * *`,
	})),
};

export function e2eEnv(): E2eEnv {
	const file = process.env.E2E_ENV;
	if (!file)
		throw new Error('E2E_ENV is not set: run the end-to-end tests with `npm run test:e2e`');
	return JSON.parse(readFileSync(file, 'utf8')) as E2eEnv;
}

export function n8nClient(env = e2eEnv()): N8nClient {
	const client = new N8nClient(env.n8nUrl);
	client.apiKey = env.n8nApiKey;
	return client;
}

/** A JSON call to the sandbox at `url`: its parsed answer, or an error with the status. */
async function sandboxCall<T>(
	url: string,
	method: string,
	body: unknown,
	headers = {},
): Promise<T> {
	const response = await fetch(url, {
		method,
		headers: { 'content-type': 'application/json', ...headers },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`sandbox ${method} ${url} → ${response.status}: ${text}`);
	return (text ? JSON.parse(text) : undefined) as T;
}

/** The sandbox's control endpoints (its request log, deliveries, faults, config) and its API (admin key). */
export function sandbox(env = e2eEnv()) {
	const control = async <T = any>(method: string, route: string, body?: unknown): Promise<T> =>
		await sandboxCall<T>(`${env.sandboxUrl}/__sandbox${route}`, method, body);
	return {
		control,
		requests: async () => await control<SandboxRequest[]>('GET', '/requests'),
		/** The logged requests of this method to exactly this path. */
		requestsTo: async (method: string, path: string) =>
			(await control<SandboxRequest[]>('GET', '/requests')).filter(
				(request) => request.method === method && request.path === path,
			),
		clearRequests: async () => await control('DELETE', '/requests'),
		webhooks: async () => await control<any[]>('GET', '/webhooks'),
		deliveries: async () => await control<any[]>('GET', '/deliveries'),
		/** The delivery attempts of this event. */
		deliveriesOf: async (event: string) =>
			(await control<any[]>('GET', '/deliveries')).filter((delivery) => delivery.event === event),
		reset: async () => await control('POST', '/reset'),
		config: async (config: unknown) => await control('POST', '/config', config),
		/** How the sandbox resolves the spec's silences; kept across reset, so set 'standard' back afterwards. */
		personality: async (personality: SandboxPersonality) =>
			await control('POST', '/config', { personality }),
		fault: async (fault: unknown) => await control('POST', '/faults', fault),
		api: async <T = any>(method: string, route: string, body?: unknown): Promise<T> =>
			await sandboxCall<T>(`${env.sandboxUrl}/api/v1${route}`, method, body, {
				'x-api-key': env.sandboxKeys.admin,
			}),
	};
}

export type SandboxRequest = RequestLogEntry;

export type CredentialRole = 'admin' | 'readOnly' | 'badKey';

export interface NodeSpec {
	parameters: Record<string, unknown>;
	credential?: CredentialRole;
	/** Put errors on the item and go on ("Continue on Fail"). */
	continueOnFail?: boolean;
	/** The workflow's settings, e.g. `{ timezone: 'Europe/Berlin' }`. */
	workflowSettings?: Record<string, unknown>;
	/** The CRM node's version (default 1, the version of 0.2's workflows; 2 is what a node added now gets). */
	typeVersion?: number;
}

export interface ActionRun {
	workflowId: string;
	/** The HTTP status of the webhook call that ran the workflow. */
	status: number;
	/** The CRM node's output items' JSON, as the webhook answered them. */
	items: any[];
}

/** Runs the CRM node `spec` once in the real n8n (actionWorkflow, called with `input` as the body). */
export async function runAction(
	spec: NodeSpec,
	input: unknown = {},
	env = e2eEnv(),
): Promise<ActionRun & { execution: any }> {
	const path = `e2e-${randomUUID()}`;
	return await runWorkflow(actionWorkflow(path, spec, env), path, input, env);
}

/** Creates and activates `workflow`, POSTs `input` once to its webhook at `path`, then deletes it. */
export async function runWorkflow(
	workflow: Record<string, unknown>,
	path: string,
	input: unknown = {},
	env = e2eEnv(),
): Promise<ActionRun & { execution: any }> {
	const run = async (workflowId: string) => {
		const { status, items } = await callWebhook(path, input, env);
		const [execution] = await waitForExecutions(workflowId, 1, env);
		return { workflowId, status, items, execution };
	};
	return await withActiveWorkflow(workflow, run, env);
}

/** POSTs `input` to the production webhook at `path` (once it is registered); the answer's status and items. */
export async function callWebhook(
	path: string,
	input: unknown = {},
	env = e2eEnv(),
): Promise<{ status: number; items: any[] }> {
	const url = `${env.webhookUrl ?? env.n8nUrl}/webhook/${path}`;
	await waitForWebhook(url);
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(input),
	});
	return { status: response.status, items: answerItems(await response.text()) };
}

/** The items a "Webhook (answers with the last node's items)" workflow answered with: none when it was not JSON. */
export function answerItems(text: string): any[] {
	try {
		const parsed = JSON.parse(text);
		return Array.isArray(parsed) ? parsed : [parsed];
	} catch {
		return [];
	}
}

/** "Webhook at /webhook/`path` (answers with the last node's items) → CRM Invoicing" with the node `spec`. */
export function actionWorkflow(path: string, spec: NodeSpec, env = e2eEnv()) {
	const node = crmNode({
		name: 'CRM Invoicing',
		type: ACTION_NODE_TYPE,
		parameters: spec.parameters,
		typeVersion: spec.typeVersion,
		credential: env.credentials[spec.credential ?? 'admin'],
	});
	return {
		name: `e2e action ${path}`,
		settings: spec.workflowSettings ?? {},
		nodes: [
			answeringWebhook(path),
			{ ...node, ...(spec.continueOnFail ? { onError: 'continueRegularOutput' } : {}) },
		],
		connections: chain('Webhook', 'CRM Invoicing'),
	};
}

/** The Webhook trigger at /webhook/`path` that answers with the last node's items. */
export const answeringWebhook = (path: string) =>
	webhookNode(path, { responseMode: 'lastNode', responseData: 'allEntries' });

/** A node of this package (the action node by default) with the admin credential or `credential`, at (x, 0). */
export function crmNode(spec: {
	name: string;
	parameters: Record<string, unknown>;
	type?: string;
	typeVersion?: number;
	credential?: { id: string; name: string };
	x?: number;
}) {
	const credential = spec.credential ?? e2eEnv().credentials.admin;
	return {
		id: randomUUID(),
		name: spec.name,
		type: spec.type ?? ACTION_NODE_TYPE,
		typeVersion: spec.typeVersion ?? 1,
		position: [spec.x ?? 0, 0],
		parameters: spec.parameters,
		credentials: { crmInvoicingApi: { id: credential.id, name: credential.name } },
	};
}

/** Connections that run the nodes `names` one after another. */
export function chain(...names: string[]) {
	const links = names
		.slice(0, -1)
		.map((name, index) => [name, { main: [[{ node: names[index + 1], type: 'main', index: 0 }]] }]);
	return Object.fromEntries(links);
}

/** Lead → Get of the lead `id` (an ID or an expression). */
export const getLead = (id: unknown) => ({
	resource: 'lead',
	operation: 'get',
	leadId: { __rl: true, mode: 'id', value: id },
});

/** n8n's credential Test (as the editor runs it) with the sandbox's URL and admin key, or what `data` says. */
export async function testCredential(
	data: Record<string, unknown> = {},
	credential = e2eEnv().credentials.admin,
) {
	const env = e2eEnv();
	return await n8nClient(env).testCredential(credential, 'crmInvoicingApi', {
		baseUrl: env.sandboxUrl,
		apiKey: env.sandboxKeys.admin,
		...data,
	});
}

/** The lead picker ("From List") as the editor asks n8n's endpoint for it, with the admin credential. */
export async function leadPicker(filter?: string, env = e2eEnv()) {
	return await n8nClient(env).listSearch({
		nodeType: ACTION_NODE_TYPE,
		methodName: 'searchLeads',
		parameterPath: 'parameters.leadId',
		parameters: {
			resource: 'lead',
			operation: 'get',
			leadId: { __rl: true, mode: 'list', value: '' },
		},
		credentials: { crmInvoicingApi: env.credentials.admin },
		filter,
	});
}

/** The fields n8n's resource-mapper endpoint serves a node of version 3 with these parameters (the editor's question). */
export async function mapperFields(
	parameters: Record<string, unknown>,
	credential = e2eEnv().credentials.admin,
) {
	return await n8nClient().resourceMapperFields({
		nodeType: ACTION_NODE_TYPE,
		version: 3,
		methodName: parameters.resource === 'deal' ? 'getDealFields' : 'getLeadFields',
		parameterPath: 'parameters.columns',
		parameters,
		credentials: { crmInvoicingApi: credential },
	});
}

/** The resource mapper's value as the editor saves it: mode, values, the schema it was shown, type conversion off. */
export const mapperColumns = (
	schema: unknown[],
	value: Record<string, unknown> | null,
	mappingMode = 'defineBelow',
) => ({
	mappingMode,
	value,
	matchingColumns: [],
	schema,
	attemptToConvertTypes: false,
	convertFieldsToString: false,
});

/** Creates and activates `workflow`, runs `body` with its id, then deactivates and deletes it, also on failure. */
export async function withActiveWorkflow<T>(
	workflow: Record<string, unknown>,
	body: (workflowId: string) => Promise<T>,
	env = e2eEnv(),
): Promise<T> {
	const client = n8nClient(env);
	const created = await client.createWorkflow(workflow);
	try {
		await client.activate(created.id);
		return await body(created.id);
	} finally {
		await client.deactivate(created.id).catch(() => undefined);
		await client.deleteWorkflow(created.id);
	}
}

/** A file's workflows: `create` (and activate), `activeTrigger` (for lead.created, subscribed), `removeAll`. */
export function createdWorkflows(env = e2eEnv()) {
	const client = n8nClient(env);
	const ids: string[] = [];
	const create = async (workflow: Record<string, unknown>, activate = false): Promise<string> => {
		const { id } = await client.createWorkflow(workflow);
		ids.push(id);
		if (activate) await client.activate(id);
		return id;
	};
	const activeTrigger = async (name: string) => {
		const workflow = triggerWorkflow(name, ['lead.created']);
		const id = await create(workflow, true);
		const at = async () =>
			(await sandbox(env).webhooks()).find((s) => s.url === triggerUrl(workflow));
		const subscription = await waitFor(at, 30_000, `the subscription of "${name}"`);
		return { workflow, id, subscription };
	};
	const removeAll = async (): Promise<void> => {
		for (const id of ids.splice(0)) {
			await client.deactivate(id).catch(() => undefined);
			await client.deleteWorkflow(id).catch(() => undefined);
		}
	};
	return { create, activeTrigger, removeAll };
}

/** The error a node raised in an execution (from n8n's run data). */
export function nodeError(
	execution: any,
	nodeName = 'CRM Invoicing',
): { message?: string; description?: string; httpCode?: string } | undefined {
	const runs = execution?.data?.resultData?.runData?.[nodeName];
	return runs?.[0]?.error ?? execution?.data?.resultData?.error;
}

export async function waitFor<T>(
	check: () => Promise<T | undefined | false>,
	timeoutMs = 20_000,
	what = 'condition',
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value) return value;
		if (Date.now() > deadline)
			throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/** Waits until n8n's log (from byte `fromByte`) says `text`: n8n writes it after the node's call has returned. */
export async function expectLogged(
	text: string | RegExp,
	fromByte = 0,
	timeoutMs = 10_000,
): Promise<void> {
	const { logFile } = e2eEnv();
	const says = (log: string) => (typeof text === 'string' ? log.includes(text) : text.test(log));
	await waitFor(
		async () => says(readFileSync(logFile).subarray(fromByte).toString('utf8')),
		timeoutMs,
		`n8n's log to say ${String(text)}`,
	);
}

/** At least `count` finished executions of a workflow (newest first, with their data). */
export async function waitForExecutions(
	workflowId: string,
	count: number,
	env = e2eEnv(),
	timeoutMs = 30_000,
): Promise<any[]> {
	await waitFor(
		async () => (await finishedExecutions(workflowId, env, false)).length >= count,
		timeoutMs,
		`${count} finished execution(s) of workflow ${workflowId}`,
	);
	return await finishedExecutions(workflowId, env);
}

/** The JSON of the items a node put out (first run, first output) in an execution with data. */
export function nodeOutput(execution: any, nodeName: string): any[] {
	const runs = execution?.data?.resultData?.runData?.[nodeName];
	const items: Array<{ json: unknown }> = runs?.[0]?.data?.main?.[0] ?? [];
	return items.map((item) => item.json);
}

/** Probes n8n's /healthz every 100 ms while `body` runs; hands back the statuses (a failed probe counts as 0). */
export async function whileProbing<T>(
	body: () => Promise<T>,
): Promise<{ result: T; health: number[] }> {
	const health: number[] = [];
	let running = true;
	const probe = (async () => {
		while (running) {
			try {
				const response = await fetch(`${e2eEnv().n8nUrl}/healthz`, {
					signal: AbortSignal.timeout(5_000),
				});
				health.push(response.status);
			} catch {
				health.push(0);
			}
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	})();
	try {
		return { result: await body(), health };
	} finally {
		running = false;
		await probe;
	}
}

/** A well-formed `whsec_` secret that is not any subscription's: what a forger signs with. */
export const FORGED_SECRET = `whsec_${Buffer.from('not-the-real-secret-at-all-000000').toString('base64')}`;

/** Sends a delivery signed by the `standardwebhooks` library to a trigger's URL; the same `id` again is a retry. */
export async function sendSignedDelivery(
	url: string,
	secret: string,
	id: string,
	body: { event: string; payload: unknown; timestamp?: string },
): Promise<{ status: number; body: unknown }> {
	const { Webhook } = await import('standardwebhooks');
	const now = new Date();
	const raw = JSON.stringify({
		event: body.event,
		timestamp: body.timestamp ?? now.toISOString(),
		payload: body.payload,
	});
	const signature = new Webhook(secret).sign(id, now, raw);
	const response = await fetch(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'webhook-id': id,
			'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
			'webhook-signature': signature,
		},
		body: raw,
	});
	const text = await response.text();
	try {
		return { status: response.status, body: JSON.parse(text) };
	} catch {
		return { status: response.status, body: text };
	}
}

/**
 * Sends deliveries signed with `secret` (a forger's) until one is answered after a question to the CRM (asked at most
 * once per 30 s, 503 meanwhile: trigger/webhook.ts); says how many were answered without one.
 */
export async function sendUntilAsked(
	url: string,
	secret = FORGED_SECRET,
	timeoutMs = 40_000,
): Promise<{ status: number; body: unknown; unasked: number }> {
	const deadline = Date.now() + timeoutMs;
	for (let unasked = 0; ; unasked++) {
		const answer = await sendSignedDelivery(url, secret, `msg_forged_${randomUUID()}`, {
			event: 'lead.created',
			payload: { id: 'lead_forged', name: 'Mallory' },
		});
		const error = String((answer.body as { error?: unknown } | undefined)?.error);
		const unanswered = error.includes('asked the CRM about a subscription less than 30 s ago');
		if (answer.status !== 503 || !unanswered) return { ...answer, unasked };
		if (Date.now() > deadline)
			throw new Error(
				`Timed out after ${timeoutMs} ms waiting for the trigger to ask the CRM about a mismatch`,
			);
		await new Promise((resolve) => setTimeout(resolve, 2_000));
	}
}

/** The one live subscription at `url` once the trigger has subscribed anew (not `oldId`) and n8n saved it. */
export async function renewedSubscription(
	workflowId: string,
	url: string,
	oldId: string,
	timeoutMs = 90_000,
): Promise<any> {
	const renewed = async () => {
		const live = (await sandbox().webhooks()).filter((s) => s.url === url && s.status === 'active');
		if (live.length !== 1 || live[0].id === oldId) return undefined;
		return (await triggerState(workflowId)).subscriptionId === live[0].id ? live[0] : undefined;
	};
	return await waitFor(renewed, timeoutMs, 'the trigger to subscribe anew');
}

/** "Webhook → Split Out `field` of the body → CRM Invoicing": one POST runs the node once per element. */
export function splitOutActionWorkflow(
	path: string,
	field: string,
	parameters: Record<string, unknown>,
	typeVersion = 1,
) {
	return {
		name: `e2e split out ${path}`,
		settings: {},
		nodes: [
			answeringWebhook(path),
			{
				id: randomUUID(),
				name: 'Split Out',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [200, 0],
				parameters: { fieldToSplitOut: `body.${field}`, include: 'noOtherFields', options: {} },
			},
			crmNode({ name: 'CRM Invoicing', parameters, typeVersion, x: 400 }),
		],
		connections: chain('Webhook', 'Split Out', 'CRM Invoicing'),
	};
}

/** A workflow holding only the CRM Invoicing Trigger (version `typeVersion`) for `events`, admin credential or `credential`. */
export function triggerWorkflow(
	name: string,
	events: string[],
	typeVersion = 1,
	credential = e2eEnv().credentials.admin,
) {
	const parameters = { events, options: {} as Record<string, unknown> };
	const node = crmNode({
		name: TRIGGER_NODE_NAME,
		type: TRIGGER_NODE_TYPE,
		parameters,
		typeVersion,
		credential,
	});
	return { name, nodes: [{ ...node, parameters, webhookId: randomUUID() }], connections: {} };
}

/** The finished executions of a workflow so far (newest first), with their data unless `includeData` is false. */
export async function finishedExecutions(
	workflowId: string,
	env = e2eEnv(),
	includeData = true,
): Promise<any[]> {
	return (await n8nClient(env).executions(workflowId, includeData)).filter(
		(execution) => execution.finished || execution.stoppedAt,
	);
}

/** A workflow holding only the CRM Invoicing Polling Trigger (admin credential), polling every 5 s for `events`. */
export function pollingWorkflow(
	name: string,
	events: string[],
	options: Record<string, unknown> = {},
	credential = e2eEnv().credentials.admin,
) {
	const parameters = { pollTimes: EVERY_FIVE_SECONDS, events, simplify: false, options };
	const type = POLLING_TRIGGER_TYPE;
	return {
		name,
		nodes: [crmNode({ name: POLLING_NODE_NAME, type, parameters, credential })],
		connections: {},
	};
}

/**
 * Waits until the polling trigger has started `count` reads of the lead list since the request log was cleared: a read
 * starts with a request without a cursor (one that outlasts a poll's budget goes on from a cursor at the next poll).
 */
export async function polls(count: number, env = e2eEnv(), timeoutMs = 30_000): Promise<void> {
	const started = async () =>
		(await sandbox(env).requestsTo('GET', '/api/v1/leads')).filter(
			(request) => request.query.cursor === undefined,
		).length;
	await waitFor(async () => (await started()) >= count, timeoutMs, `${count} polls`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every item a trigger node emitted in the workflow's finished executions so far, oldest first. */
export async function emittedItems(
	workflowId: string,
	nodeName: string,
	env = e2eEnv(),
): Promise<any[]> {
	const executions = (await finishedExecutions(workflowId, env)).sort(
		(a, b) => Number(a.id) - Number(b.id),
	);
	return executions.flatMap((execution) => nodeOutput(execution, nodeName));
}

/** Changes a credential's key as a user does (new key at the CRM, credential updated, old key revoked); the new key. */
export async function rotateCredentialKey(
	credential: { id: string; name: string },
	oldKey: string,
	env = e2eEnv(),
): Promise<string> {
	const newKey = `sk_rotated_${randomUUID().replace(/-/g, '')}`;
	await sandbox(env).control('POST', '/keys', { key: newKey });
	await n8nClient(env).updateCredential(credential, 'crmInvoicingApi', {
		baseUrl: env.sandboxUrl,
		apiKey: newKey,
		requestsPerMinute: 600,
		// n8n 1.x keeps its domain restriction in the credential's data (scripts/lib/n8n.ts, createCredential).
		...(env.runtime === 'compat' ? { allowedHttpRequestDomains: 'all' } : {}),
	});
	await sandbox(env).control('DELETE', `/keys/${encodeURIComponent(oldKey)}`);
	return newKey;
}

/** Restarts the e2e n8n through its control (scripts/e2e.ts: `restart-n8n`); returns the package version it loaded. */
export async function restartN8n(
	options: { webhookUrl?: string; publicationService?: boolean; package?: string } = {},
	env = e2eEnv(),
): Promise<string> {
	const response = await fetch(`${env.controlUrl}/restart-n8n`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(options),
	});
	const text = await response.text();
	if (response.status !== 200) throw new Error(`restart-n8n → ${response.status}: ${text}`);
	return (JSON.parse(text) as { version: string }).version;
}

/** Whether the e2e n8n publishes through its publication service now (scripts/e2e.ts: `publication-service`). */
export async function usesPublicationService(env = e2eEnv()): Promise<boolean> {
	const response = await fetch(`${env.controlUrl}/publication-service`);
	if (response.status !== 200) throw new Error(`publication-service → ${response.status}`);
	return ((await response.json()) as { publicationService: boolean }).publicationService;
}

/** A trigger's production URL under `base` (n8n's own URL by default, or another address of it). */
export function triggerUrl(
	workflow: { nodes: Array<{ webhookId?: string }> },
	base = e2eEnv().n8nUrl,
): string {
	return `${base.replace(/\/+$/, '')}/webhook/${workflow.nodes[0].webhookId}/webhook`;
}

/** The trigger's stored state (its node's static data) as n8n's public API returns the workflow. */
export async function triggerState(
	workflowId: string,
	client = n8nClient(),
): Promise<Record<string, any>> {
	const workflow = await client.api('GET', `/workflows/${workflowId}`);
	const data =
		typeof workflow.staticData === 'string'
			? JSON.parse(workflow.staticData)
			: (workflow.staticData ?? {});
	return (data[`node:${TRIGGER_NODE_NAME}`] ?? {}) as Record<string, any>;
}

/** Waits until `count` executions of a workflow finished, then 2 s longer, and checks that no further one came. */
export async function expectExactlyExecutions(
	workflowId: string,
	count: number,
	timeoutMs = 60_000,
	env = e2eEnv(),
): Promise<any[]> {
	await waitForExecutions(workflowId, count, env, timeoutMs);
	await sleep(2_000);
	const executions = await finishedExecutions(workflowId, env);
	expect(executions).toHaveLength(count);
	return executions;
}

export const EXAMPLES = path.join(__dirname, '..', '..', 'examples');

export type ExampleNode = {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: any;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
};

export type Example = {
	name: string;
	nodes: ExampleNode[];
	connections: Record<
		string,
		{ main: Array<Array<{ node: string; type: string; index: number }>> }
	>;
	settings?: Record<string, unknown>;
};

/** A workflow file of examples/, as it is. */
export function loadExample(file: string): Example {
	return JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as Example;
}

export function nodeNamed(example: Example, name: string): ExampleNode {
	const node = example.nodes.find((candidate) => candidate.name === name);
	if (!node) throw new Error(`${example.name} has no node "${name}"`);
	return node;
}

/** What a user does after "Import from File": the admin credential in each CRM node, the Settings node filled in. */
export function configureExample(example: Example, settings: Record<string, unknown>): Example {
	const copy = structuredClone(example);
	const { id, name } = e2eEnv().credentials.admin;
	for (const node of copy.nodes) {
		if (node.credentials?.crmInvoicingApi) node.credentials.crmInvoicingApi = { id, name };
	}
	const assignments: Array<{ name: string; value: unknown }> = nodeNamed(copy, 'Settings')
		.parameters.assignments.assignments;
	for (const [field, value] of Object.entries(settings)) {
		const assignment = assignments.find((candidate) => candidate.name === field);
		if (!assignment) throw new Error(`${example.name}: Settings has no "${field}"`);
		assignment.value = value;
	}
	const { nodes, connections } = copy;
	return { name: `${copy.name} (e2e)`, nodes, connections, settings: copy.settings };
}

/** Replaces the node `name` by a Webhook at `path` of the same name (so, the same connections); returns the old node. */
export function replaceByWebhook(workflow: Example, name: string, path: string): ExampleNode {
	const node = nodeNamed(workflow, name);
	workflow.nodes[workflow.nodes.indexOf(node)] = webhookNode(path, {}, node);
	return node;
}

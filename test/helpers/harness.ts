/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Runs our node code in n8n-core's real execution contexts (Execute, LoadOptions, Hook, Webhook, Poll), as n8n's own
 * NodeTestHarness does: HTTP goes through n8n-core's request helpers to axios, so nock sees real requests.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import {
	ExecuteContext,
	HookContext,
	InstanceSettings,
	LoadOptionsContext,
	PollContext,
	WebhookContext,
} from 'n8n-core';
import { createRunExecutionData, ICredentialsHelper, NodeHelpers, Workflow } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IExecuteData,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRequestOptionsSimplified,
	IRunExecutionData,
	IVersionedNodeType,
	IWebhookData,
	IWebhookDescription,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { CrmInvoicingApi } from '../../credentials/CrmInvoicingApi.credentials';

/**
 * The credential every helper uses unless a test passes its own. `requestsPerMinute`: nock sends no RateLimit-*
 * headers, so the transport would pace at the documented 60 a minute (the pacing's own tests set their own).
 */
export const TEST_CREDENTIALS = {
	baseUrl: 'https://crm.test',
	apiKey: 'sk_test_secret_key',
	requestsPerMinute: 1_000_000,
};

/** The package name n8n prefixes community node types with. */
export const PACKAGE_NAME = 'n8n-nodes-crm-invoicing';

/** Credential types the fake credentials helper knows, by name. */
const CREDENTIAL_TYPES: Record<string, ICredentialType> = {
	crmInvoicingApi: new CrmInvoicingApi(),
};

/** One logged line, as the recording logger keeps it. */
export interface LoggedMessage {
	level: 'error' | 'warn' | 'info' | 'debug';
	message: string;
	metadata?: unknown;
}

/** Everything `context.logger` was asked to log, across the test file. Clear it in a `beforeEach` when you assert on it. */
export const loggedMessages: LoggedMessage[] = [];

function recordingLogger(): Logger {
	const logger: Record<string, unknown> = { scoped: () => logger };
	for (const level of ['error', 'warn', 'info', 'debug'] as const)
		logger[level] = (message: string, metadata?: unknown) =>
			loggedMessages.push({ level, message, metadata });
	return logger as unknown as Logger;
}

/** A stand-in for InstanceSettings (the real one writes `~/.n8n/config`): the contexts read its ids and secret. */
function instanceSettings(): InstanceSettings {
	const settings = Object.create(InstanceSettings.prototype) as Record<string, unknown>;
	Object.assign(settings, {
		n8nFolder: '/tmp/n8n-harness-unused',
		instanceId: 'test-instance-id',
		hmacSignatureSecret: 'test-hmac-signature-secret',
		instanceType: 'main',
		instanceRole: 'leader',
		settings: { encryptionKey: 'test-encryption-key' },
	});
	return settings as unknown as InstanceSettings;
}

let containerReady = false;

function prepareContainer(): void {
	if (containerReady) return;
	Container.set(InstanceSettings, instanceSettings());
	Container.set(Logger, recordingLogger());
	containerReady = true;
}

/** The credentials helper n8n hands the contexts, on fixed decrypted data; `authenticate` is the credential's own. */
export class TestCredentialsHelper extends ICredentialsHelper {
	/** How often the decrypted data was read (that is, `getCredentials` in a context). */
	getDecryptedCalls = 0;

	constructor(private readonly data: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = CREDENTIAL_TYPES[typeName] ?? {};
		if (typeof authenticate !== 'function')
			throw new Error(
				`The harness knows no credential type "${typeName}" with an authenticate function`,
			);
		return await authenticate(credentials, requestOptions as IHttpRequestOptions);
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentials> {
		throw new Error(
			`getCredentials(${nodeCredentials.name}, ${type}) is not supported by the test harness`,
		);
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		this.getDecryptedCalls++;
		const data = this.data[type];
		if (!data) throw new Error(`No test credentials of type "${type}"`);
		// A copy, as n8n decrypts afresh each time: nothing a node changes in it sticks.
		return structuredClone(data);
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return CREDENTIAL_TYPES[type]?.properties ?? [];
	}
}

/** A node type under test, as the harness registers it with the workflow. */
export type AnyNodeType = INodeType | IVersionedNodeType;

/** The version n8n gives a new node of this type: the default version, else the newest. */
function latestVersion(nodeType: AnyNodeType): number {
	if ('nodeVersions' in nodeType) return nodeType.currentVersion;
	const { version, defaultVersion } = nodeType.description;
	return defaultVersion ?? (Array.isArray(version) ? Math.max(...version) : version);
}

function nodeTypesFor(type: string, nodeType: AnyNodeType): INodeTypes {
	return {
		getByName: (name: string) => {
			if (name !== type) throw new Error(`Unknown node type "${name}"`);
			return nodeType;
		},
		getByNameAndVersion: (name: string, version?: number) => {
			if (name !== type) throw new Error(`Unknown node type "${name}"`);
			return NodeHelpers.getVersionedNodeType(nodeType, version);
		},
		getKnownTypes: () => ({}),
	};
}

/** What every helper takes. */
export interface HarnessOptions {
	nodeType: AnyNodeType;
	/** The node's parameters as saved in a workflow: expressions (`={{ … }}`) and resource locators are resolved by n8n. */
	parameters: INodeParameters;
	/** Decrypted data of every credential the node declares: TEST_CREDENTIALS by default; `null` for none. */
	credentials?: ICredentialDataDecryptedObject | null;
	typeVersion?: number;
	/** The execution's id; 'harness-execution' unless given (Create or Update remembers emails per execution). */
	executionId?: string;
}

/** What a helper built: the real n8n objects, for assertions and spies. */
export interface HarnessParts {
	workflow: Workflow;
	node: INode;
	additionalData: IWorkflowExecuteAdditionalData;
	credentialsHelper: TestCredentialsHelper;
}

const NODE_ID = 'c0ffee00-0000-4000-8000-000000000001';
const WEBHOOK_ID = 'c0ffee00-0000-4000-8000-0000000000aa';
const WORKFLOW_ID = 'harness-workflow';
const BASE_URL = 'http://localhost:5678';

/** What n8n passes the contexts as `additionalData`: its URLs, the credentials helper, the execution's id. */
function additionalDataFor(
	credentialsHelper: TestCredentialsHelper,
	executionId = 'harness-execution',
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper,
		executionId,
		userId: 'harness-user',
		restApiUrl: `${BASE_URL}/rest`,
		instanceBaseUrl: BASE_URL,
		formWaitingBaseUrl: `${BASE_URL}/form-waiting`,
		webhookBaseUrl: `${BASE_URL}/webhook`,
		webhookWaitingBaseUrl: `${BASE_URL}/webhook-waiting`,
		webhookTestBaseUrl: `${BASE_URL}/webhook-test`,
		variables: {},
		currentNodeParameters: undefined,
		getRunExecutionData: async () => undefined,
		logAiEvent: () => {},
	} as unknown as IWorkflowExecuteAdditionalData;
}

function buildParts(
	options: Omit<TriggerOptions, 'mode'> & {
		continueOnFail?: boolean;
		/** An active workflow: its trigger runs in production ('trigger' mode). */
		active?: boolean;
	},
): HarnessParts {
	prepareContainer();
	const { nodeType } = options;
	const type = `${PACKAGE_NAME}.${nodeType.description.name}`;
	const typeVersion = options.typeVersion ?? latestVersion(nodeType);

	const credentialData =
		options.credentials === undefined ? { ...TEST_CREDENTIALS } : options.credentials;
	const resolved = NodeHelpers.getVersionedNodeType(nodeType, typeVersion).description;
	const credentialTypes = (resolved.credentials ?? []).map((credential) => credential.name);

	const node: INode = {
		id: NODE_ID,
		// The name n8n gives a node dropped onto the canvas, e.g. "CRM Invoicing" or "CRM Invoicing Trigger".
		name: resolved.defaults.name ?? resolved.displayName,
		type,
		typeVersion,
		position: [0, 0],
		parameters: structuredClone(options.parameters),
	};
	if (resolved.webhooks?.length) node.webhookId = WEBHOOK_ID;
	if (credentialData) {
		node.credentials = {};
		for (const name of credentialTypes)
			node.credentials[name] = { id: `${name}-id`, name: `${name} account` };
	}
	if (options.continueOnFail) node.onError = 'continueRegularOutput';

	const credentialsHelper = new TestCredentialsHelper(
		Object.fromEntries(credentialData ? credentialTypes.map((name) => [name, credentialData]) : []),
	);

	// The Workflow constructor fills in the parameters' defaults, as when n8n loads a saved workflow.
	const staticData: IDataObject = {};
	if (options.staticData) staticData[`node:${node.name}`] = options.staticData;
	const workflow = new Workflow({
		id: WORKFLOW_ID,
		name: options.workflowName ?? 'Harness workflow',
		nodes: [node],
		connections: {},
		active: options.active ?? false,
		nodeTypes: nodeTypesFor(type, nodeType),
		staticData,
		settings: { executionOrder: 'v1' },
	});

	const additionalData = additionalDataFor(credentialsHelper, options.executionId);
	return { workflow, node: workflow.getNode(node.name)!, additionalData, credentialsHelper };
}

export interface ExecuteOptions extends HarnessOptions {
	/** Input items; one empty item by default, as after a manual trigger. */
	items?: INodeExecutionData[];
	continueOnFail?: boolean;
}

export interface ExecuteContextParts extends HarnessParts {
	context: ExecuteContext;
}

/** A real ExecuteContext for the node, to call `execute` or transport functions with. */
export function createExecuteContext(options: ExecuteOptions): ExecuteContextParts {
	const parts = buildParts(options);
	const items = options.items ?? [{ json: {} }];
	const inputData = { main: [items] };
	const executeData: IExecuteData = { node: parts.node, data: inputData, source: null };
	const runExecutionData: IRunExecutionData = createRunExecutionData({
		executionData: { nodeExecutionStack: [executeData] },
	});
	const context = new ExecuteContext(
		parts.workflow,
		parts.node,
		parts.additionalData,
		'manual',
		runExecutionData,
		0,
		items,
		inputData,
		executeData,
		[],
	);
	return { ...parts, context };
}

/** Runs the node's `execute` in a real ExecuteContext; resolves with its output, rejects with its error. */
export async function runNode(options: ExecuteOptions): Promise<INodeExecutionData[][]> {
	const { context } = createExecuteContext(options);
	const nodeType = NodeHelpers.getVersionedNodeType(
		options.nodeType,
		context.getNode().typeVersion,
	);
	if (!nodeType.execute) throw new Error('The node type has no execute method');
	const output = await nodeType.execute.call(context);
	return (output ?? []) as INodeExecutionData[][];
}

/** A real LoadOptionsContext, as n8n builds for a list search or loadOptions method of the node. */
export function createLoadOptionsContext(options: HarnessOptions) {
	const parts = buildParts(options);
	parts.additionalData.currentNodeParameters = parts.node.parameters;
	const context = new LoadOptionsContext(parts.workflow, parts.node, parts.additionalData, '');
	return { ...parts, context };
}

/** What the trigger contexts (hook, webhook, poll) take besides HarnessOptions. */
interface TriggerOptions extends HarnessOptions {
	/** The node's static data at the start; the object the trigger changes is returned as `staticData`. */
	staticData?: IDataObject;
	/** 'trigger' for an active workflow (the default), 'manual' for a test event ("Listen", "Fetch Test Event"). */
	mode?: 'trigger' | 'manual';
	workflowName?: string;
}

/** A trigger context's parts: the node's static data, `workflow.getStaticData('node', node)`, besides HarnessParts. */
interface TriggerParts extends HarnessParts {
	staticData: IDataObject;
}

/** The parts of a trigger in `mode`: an active workflow's (production) unless manual. */
function triggerParts(options: TriggerOptions): TriggerParts & { mode: 'trigger' | 'manual' } {
	const mode = options.mode ?? 'trigger';
	const parts = buildParts({ ...options, active: mode === 'trigger' });
	return { ...parts, mode, staticData: parts.workflow.getStaticData('node', parts.node) };
}

export interface HookOptions extends TriggerOptions {
	/** What `getNodeWebhookUrl()` returns for every webhook the node describes. */
	webhookUrl: string;
}

/** The node's (first) webhook, and the IWebhookData n8n registers for it. */
function webhookFor(
	parts: HarnessParts,
	nodeType: AnyNodeType,
	mode: 'trigger' | 'manual',
): IWebhookData {
	const description = NodeHelpers.getVersionedNodeType(
		nodeType,
		parts.node.typeVersion,
	).description;
	const webhookDescription: IWebhookDescription = description.webhooks?.[0] ?? {
		name: 'default',
		httpMethod: 'POST',
		path: 'webhook',
	};
	return {
		httpMethod: webhookDescription.httpMethod,
		node: parts.node.name,
		path: `${WEBHOOK_ID}/${String(webhookDescription.path)}`,
		webhookDescription,
		workflowId: parts.workflow.id,
		workflowExecuteAdditionalData: parts.additionalData,
		webhookId: WEBHOOK_ID,
		isTest: mode === 'manual',
	} as IWebhookData;
}

/** A real HookContext, as n8n builds to run a trigger's `webhookMethods`. */
export function createHookContext(options: HookOptions) {
	const { mode, ...parts } = triggerParts(options);
	const webhookData = webhookFor(parts, options.nodeType, mode);
	const context = new HookContext(
		parts.workflow,
		parts.node,
		parts.additionalData,
		mode,
		'activate',
		webhookData,
	);
	// n8n builds the URL from its own base URL and the webhook ID; the test chooses it instead.
	const { webhookUrl } = options;
	context.getNodeWebhookUrl = () => webhookUrl;
	return { ...parts, context };
}

/** The part of an express Response the trigger uses (`status(…).json(…)`), keeping what it answered last. */
class RecordedResponse {
	statusCode = 200;
	sentBody: unknown;

	status(code: number): this {
		this.statusCode = code;
		return this;
	}

	json(body?: unknown): this {
		this.sentBody = body;
		return this;
	}
}

/** The parts of an express Request a trigger reads. */
export interface TestRequest {
	method: string;
	headers: Record<string, string>;
	rawBody: Buffer;
	body: unknown;
	query: Record<string, string>;
	params: Record<string, string>;
}

export interface WebhookOptions extends TriggerOptions {
	/** Request headers; names are lower-cased as node's http server does. */
	headers: Record<string, string>;
	rawBody: Buffer;
	/** The parsed body; by default `rawBody` parsed as JSON (or `{}` when it is not JSON), as n8n's body parser does. */
	body?: unknown;
	/** What `getNodeWebhookUrl()` returns; by default the URL n8n would build for the node. */
	webhookUrl?: string;
}

export interface WebhookContextParts extends TriggerParts {
	context: WebhookContext;
	request: TestRequest;
	response: RecordedResponse;
}

function parsedBody(rawBody: Buffer): unknown {
	try {
		return JSON.parse(rawBody.toString('utf8'));
	} catch {
		return {};
	}
}

/** A real WebhookContext for one incoming delivery, with a request object and a recording response object. */
export function createWebhookContext(options: WebhookOptions): WebhookContextParts {
	const { mode, ...parts } = triggerParts(options);
	const webhookData = webhookFor(parts, options.nodeType, mode);
	const request: TestRequest = {
		method: webhookData.httpMethod,
		headers: Object.fromEntries(
			Object.entries(options.headers).map(([name, value]) => [name.toLowerCase(), value]),
		),
		rawBody: options.rawBody,
		body: options.body === undefined ? parsedBody(options.rawBody) : options.body,
		query: {},
		params: {},
	};
	const response = new RecordedResponse();
	Object.assign(parts.additionalData, { httpRequest: request, httpResponse: response });
	const context = new WebhookContext(
		parts.workflow,
		parts.node,
		parts.additionalData,
		mode,
		webhookData,
		[],
		null,
	);
	const { webhookUrl } = options;
	if (webhookUrl !== undefined) context.getNodeWebhookUrl = () => webhookUrl;
	return { ...parts, context, request, response };
}

export interface PollOptions extends TriggerOptions {
	/** What `getPollBudgetMs()` answers; n8n-core's default (5 minutes) when not given. */
	pollBudgetMs?: number;
}

/** A real PollContext, as n8n builds for each poll of a polling trigger (or for "Fetch Test Event"). */
export function createPollContext(options: PollOptions) {
	const { mode, ...parts } = triggerParts(options);
	const budget = options.pollBudgetMs;
	// n8n-core's defaults for the rest: what poll() returns is what n8n would emit.
	const context = new PollContext(
		parts.workflow,
		parts.node,
		parts.additionalData,
		mode,
		'activate',
		undefined,
		undefined,
		undefined,
		undefined,
		undefined,
		budget === undefined ? undefined : () => budget,
	);
	return { ...parts, context };
}

/** Runs a promise that must reject, and hands back its error. */
export async function errorOf(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
	try {
		await promise;
	} catch (error) {
		return error as Error & Record<string, unknown>;
	}
	throw new Error('Expected the call to fail, but it succeeded');
}

/** Whether the static data is marked changed (any set or delete marks it): n8n saves it only then. */
export function staticDataChanged(workflow: Workflow): boolean {
	return workflow.staticData.__dataChanged === true;
}

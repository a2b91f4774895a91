/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** The sandbox CRM (README.md): `startSandbox`, the HTTP server, keys, rate limit, faults and the control routes. */
import * as http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';

import {
	ApiError,
	errorBody,
	handleApi,
	isObject,
	notFound,
	oneOf,
	parseObjectBody,
	validationError,
} from './api';
import {
	ADMIN_USER_INTERNAL_ID,
	createStore,
	generateLeads,
	READ_ONLY_USER_INTERNAL_ID,
	type Store,
} from './store';
import { activityStep, parseActivity } from './activity';
import type {
	CaughtRequest,
	DeliveryLogEntry,
	Fault,
	StreamRecord,
	JsonObject,
	KeyRole,
	ListOrder,
	RateLimitConfig,
	RequestLogEntry,
	SandboxConfig,
	SandboxOptions,
	SandboxPersonality,
	WebhookSubscription,
} from './types';
import { LIST_ORDERS, PERSONALITIES } from './types';
import { DeliveryEngine, generateSecret } from './webhooks';
import { type ActiveFault, applyFault, check, isPositiveInteger, parseFault } from './edgeFaults';
import { type Answer, writeAnswer } from './jsonText';
import { importLeads } from './leadImports';

export * from './types';

export const DEFAULT_ADMIN_KEY = 'sk_sandbox_admin_0123456789abcdef';
export const DEFAULT_READ_ONLY_KEY = 'sk_sandbox_readonly_0123456789abcdef';
export const DEFAULT_RATE_LIMIT: RateLimitConfig = { limit: 60, windowMs: 60_000 };
const ROTATION_WINDOW_MS = 24 * 3_600_000;

/**
 * Defaults: port 0 (a free one) on 127.0.0.1, 60 requests per 60000 ms per key (false: unlimited), timeScale 1 (of
 * the retry delays of spec §8), deliveryTimeoutMs 20000 (a delivery attempt's), seedLeads 0 (on top of the 3 seeded
 * ones), 'standard', 'oldest', activity off.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxServer> {
	const sandbox = new SandboxServer(options);
	await sandbox.listen(options.port ?? 0, options.host ?? '127.0.0.1');
	return sandbox;
}

function describeWindow(windowMs: number): string {
	const units: Array<[number, string]> = [
		[3_600_000, 'hour'],
		[60_000, 'minute'],
		[1_000, 'second'],
	];
	for (const [ms, unit] of units) {
		if (windowMs === ms) return unit;
		if (windowMs % ms === 0) return `${windowMs / ms} ${unit}s`;
	}
	return `${windowMs} ms`;
}

/** Header values as text (lower-case names); `redactKey` replaces the key's value. */
function headersOf(req: http.IncomingMessage, redactKey = false): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(req.headers)) {
		if (value === undefined) continue;
		if (redactKey && name === 'x-api-key') headers[name] = '<redacted>';
		else headers[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return headers;
}

function urlOf(server: http.Server): string {
	const address = server.address() as AddressInfo;
	const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
	return `http://${host}:${address.port}`;
}

/** A request's body as text (undefined when empty). */
function readBody(req: http.IncomingMessage): Promise<string | undefined> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () =>
			resolve(chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined),
		);
		req.on('error', reject);
	});
}

function parseRateLimit(value: unknown): RateLimitConfig | false {
	if (value === false) return false;
	if (isObject(value)) {
		const { limit, windowMs, spentByOthers } = value;
		if (isPositiveInteger(limit) && isPositiveInteger(windowMs)) {
			if (spentByOthers === undefined || spentByOthers === 0) return { limit, windowMs };
			if (isPositiveInteger(spentByOthers) && spentByOthers <= limit)
				return { limit, windowMs, spentByOthers };
		}
	}
	throw validationError(
		'rateLimit must be false or { limit, windowMs, spentByOthers? } with positive integers (spentByOthers at most limit)',
	);
}

function parseDeliverOnCreate(value: unknown): SandboxConfig['deliverOnCreate'] {
	if (value === false) return false;
	if (isObject(value) && typeof value.event === 'string' && value.event !== '')
		return { event: value.event, payload: value.payload };
	throw validationError('deliverOnCreate must be false or { event, payload }');
}

/** The catcher's answer to whatever reaches it. */
const CAUGHT_ANSWER = {
	id: 'caught_by_other_host',
	name: 'An answer from another host',
	items: [],
	hasMore: false,
};

export class SandboxServer {
	/** Before /api/v1, e.g. http://127.0.0.1:5680 */
	url = '';
	readonly keys = { admin: DEFAULT_ADMIN_KEY, readOnly: DEFAULT_READ_ONLY_KEY };
	/** Every /api request (and every page outside it). */
	readonly requests: RequestLogEntry[] = [];
	/** Every webhook delivery attempt. */
	readonly deliveries: DeliveryLogEntry[] = [];
	/** What endless and trickling faults sent (also GET /__sandbox/streams). */
	readonly streams: StreamRecord[] = [];
	/** What reached the second listener since it started (or since DELETE /__sandbox/catcher). */
	readonly caught: CaughtRequest[] = [];
	readonly config: SandboxConfig;

	private store: Store;
	private readonly server: http.Server;
	private readonly engine: DeliveryEngine;
	private readonly seedLeadCount: number;
	/** The key switch (README): the keys that are valid, and the user each acts for. */
	private keyRoles = this.seededKeys();
	/** Per key: when its rate-limit window started and the requests counted in it. */
	private readonly windows = new Map<string, { start: number; count: number }>();
	private faults: ActiveFault[] = [];
	private readonly faultTimers = new Set<NodeJS.Timeout>();
	private requestSeq = 0;
	private closed = false;
	/** The second listener (another origin), started on demand. */
	private catcher: http.Server | undefined;
	private catcherUrl = '';
	private activityTimer: NodeJS.Timeout | undefined;
	private activityTick = 0;
	/** The subscriptions rotated by the rotation switch's "both", until its "new" ends it. */
	private rotating: string[] | undefined;

	constructor(options: SandboxOptions) {
		this.config = {
			rateLimit:
				options.rateLimit === undefined
					? { ...DEFAULT_RATE_LIMIT }
					: parseRateLimit(options.rateLimit),
			timeScale: options.timeScale ?? 1,
			personality: oneOf(options.personality ?? 'standard', 'personality', PERSONALITIES),
			deliverOnCreate: false,
			patchCustomFields: 'replace',
			listOrder: oneOf(options.listOrder ?? 'oldest', 'listOrder', LIST_ORDERS),
			activity: false,
			onePerUrl: false,
			normalUrls: false,
			leadListDelayMs: 0,
		};
		this.seedLeadCount = options.seedLeads ?? 0;
		this.store = this.freshStore();
		this.engine = new DeliveryEngine({
			getSubscription: (id) => this.store.webhooks.get(id),
			timeScale: () => this.config.timeScale,
			deliveryTimeoutMs: options.deliveryTimeoutMs ?? 20_000,
			log: (entry) => this.deliveries.push(entry),
		});
		if (options.activity) this.setActivity(parseActivity(options.activity));
		this.server = http.createServer((req, res) => {
			this.handle(req, res).catch((err: Error) => {
				if (!res.headersSent)
					writeAnswer(res, { status: 500, body: errorBody('INTERNAL_ERROR', err.message) });
				else res.destroy();
			});
		});
		// Idle connections are kept a minute, far past a client's own keep-alive (Node's fetch: 4 s), so that a client
		// never sends on a connection the server is closing ("other side closed", seen on a machine at load 16).
		this.server.keepAliveTimeout = 60_000;
	}

	/** The stores (replaced on reset; read them through this getter). */
	get state(): Store {
		return this.store;
	}

	listen(port: number, host: string): Promise<void> {
		return new Promise((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(port, host, () => {
				this.server.off('error', reject);
				this.url = urlOf(this.server);
				resolve();
			});
		});
	}

	clearRequests(): void {
		this.requests.length = 0;
	}

	/** Back to the seed state: data, logs, faults, rate-limit windows, pending deliveries, keys. Config is kept. */
	reset(): void {
		this.engine.cancelAll();
		this.store = this.freshStore();
		this.requests.length = 0;
		this.deliveries.length = 0;
		this.windows.clear();
		this.streams.length = 0;
		this.clearFaults();
		this.keyRoles = this.seededKeys();
		this.rotating = undefined;
	}

	setRateLimit(rateLimit: RateLimitConfig | false): void {
		this.config.rateLimit = parseRateLimit(rateLimit);
		this.windows.clear();
	}

	setPersonality(personality: SandboxPersonality): void {
		this.config.personality = oneOf(personality, 'personality', PERSONALITIES);
	}

	setListOrder(order: ListOrder): void {
		this.config.listOrder = oneOf(order, 'listOrder', LIST_ORDERS);
	}

	/** The activity switch (README); false turns it off. */
	setActivity(activity: SandboxConfig['activity']): void {
		if (this.activityTimer) clearInterval(this.activityTimer);
		this.activityTimer = undefined;
		this.config.activity = activity;
		if (!activity || this.closed) return;
		this.activityTimer = setInterval(() => {
			this.activityStep();
		}, activity.everyMs);
		this.activityTimer.unref();
	}

	/** Appends n generated leads; returns the total number of leads. */
	seedLeads(n: number): number {
		if (!Number.isInteger(n) || n < 0) throw new Error('n must be a non-negative integer');
		generateLeads(this.store, n);
		return this.store.leads.size;
	}

	addFault(fault: Fault): Fault {
		const parsed = parseFault(fault);
		if (parsed.redirectTo === 'catcher' && !this.catcherUrl) {
			throw validationError('Start the second listener first: POST /__sandbox/catcher');
		}
		this.faults.push({ ...parsed, remaining: parsed.count });
		return parsed;
	}

	clearFaults(): void {
		this.faults = [];
		for (const timer of this.faultTimers) clearTimeout(timer);
		this.faultTimers.clear();
	}

	/** Delivers an event to every active subscription that selected it; returns the webhook-ids queued. */
	emit(event: string, payload: unknown): string[] {
		if (this.closed) return [];
		const subscriptions = this.store.webhooks
			.values()
			.filter(
				(subscription) => subscription.status === 'active' && subscription.events.includes(event),
			);
		return this.engine.enqueue(subscriptions, event, payload);
	}

	/** Delivery attempts pending or in flight (also GET /__sandbox/health). */
	get pendingDeliveries(): number {
		return this.engine.pending;
	}

	/** Starts the second listener (once) on the sandbox's host and another port, so another origin; its URL. */
	private async startCatcher(): Promise<string> {
		this.caught.length = 0;
		if (this.catcher) return this.catcherUrl;
		const catcher = http.createServer(async (req, res) => {
			const body = (await readBody(req)) ?? '';
			this.caught.push({
				method: req.method ?? 'GET',
				path: req.url ?? '/',
				headers: headersOf(req, true),
				apiKeyReceived: req.headers['x-api-key'] !== undefined,
				body,
				at: new Date().toISOString(),
			});
			const headers = { 'content-type': 'application/json' };
			writeAnswer(res, { status: 200, headers, body: CAUGHT_ANSWER });
		});
		this.catcher = catcher;
		const host = (this.server.address() as AddressInfo).address;
		await new Promise<void>((resolve, reject) => {
			catcher.once('error', reject);
			catcher.listen(0, host, () => resolve());
		});
		this.catcherUrl = urlOf(catcher);
		return this.catcherUrl;
	}

	close(): Promise<void> {
		if (this.closed) return Promise.resolve();
		this.closed = true;
		this.setActivity(false);
		this.engine.cancelAll();
		this.clearFaults();
		if (this.catcher) {
			this.catcher.close();
			this.catcher.closeAllConnections();
		}
		return new Promise((resolve) => {
			this.server.close(() => resolve());
			this.server.closeAllConnections();
		});
	}

	private activityStep(): void {
		activityStep(this.store, this.activityTick++, (event, payload) => this.emit(event, payload));
	}

	private seededKeys(): Map<string, KeyRole> {
		return new Map<string, KeyRole>([
			[DEFAULT_ADMIN_KEY, 'admin'],
			[DEFAULT_READ_ONLY_KEY, 'readOnly'],
		]);
	}

	private freshStore(): Store {
		const store = createStore();
		if (this.seedLeadCount > 0) generateLeads(store, this.seedLeadCount);
		return store;
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
		const path = url.pathname;
		if (path === '/__sandbox' || path.startsWith('/__sandbox/'))
			return this.handleControl(req, res, url);
		if (path === '/api' || path.startsWith('/api/')) return this.handleApiRequest(req, res, url);
		// Pages of the host outside the API (e.g. /admin/export-all) are logged too, so a test can see what reached them.
		this.log(req, url, undefined, new Date().toISOString())(404);
		return writeAnswer(res, {
			status: 404,
			body: errorBody('NOT_FOUND', `Route ${req.method} ${path} was not found`),
		});
	}

	/** Logs the request (RequestLogEntry) once its status is known. */
	private log(req: http.IncomingMessage, url: URL, body: unknown, at: string) {
		const method = (req.method ?? 'GET').toUpperCase();
		const query = Object.fromEntries(url.searchParams);
		const headers = headersOf(req);
		return (status: number): void => {
			const seq = ++this.requestSeq;
			this.requests.push({ seq, method, path: url.pathname, query, headers, body, status, at });
		};
	}

	private async handleApiRequest(
		req: http.IncomingMessage,
		res: http.ServerResponse,
		url: URL,
	): Promise<void> {
		const at = new Date().toISOString();
		const method = (req.method ?? 'GET').toUpperCase();
		const rawBody = await readBody(req);
		const log = this.log(req, url, parsedOrText(rawBody), at);
		const send = (answer: Answer): void => {
			log(answer.status);
			writeAnswer(res, answer);
		};
		const fault = this.takeFault(method, url.pathname);
		if (fault) {
			const scene = { req, res, url, log, catcherUrl: this.catcherUrl, streams: this.streams };
			return applyFault(fault, { ...scene, timers: this.faultTimers });
		}
		const key = headersOf(req)['x-api-key'];
		const role = key ? this.keyRoles.get(key) : undefined;
		if (role === undefined) {
			const message = key
				? 'The API key in the x-api-key header is not valid.'
				: 'An API key is required in the x-api-key header.';
			return send({ status: 401, body: errorBody('UNAUTHORIZED', message) });
		}
		const limit = this.rateLimit(key);
		if (limit.refusal) return send(limit.refusal);
		// The alternate personality announces the limit only on 429 answers.
		const headers = this.config.personality === 'alternate' ? {} : limit.headers;
		if (method === 'GET' && url.pathname === '/api/v1/leads' && this.config.leadListDelayMs > 0)
			await sleep(this.config.leadListDelayMs);
		const answer = this.answerApi(method, url, rawBody, role);
		send({ ...answer, headers });
		if (method === 'POST' && url.pathname === '/api/v1/webhooks' && answer.status === 200)
			this.deliverOnCreate(answer.body);
	}

	/** Counts the request in its key's window; the RateLimit-* headers, and the 429 when it is over the limit. */
	private rateLimit(key: string): { headers: Record<string, string>; refusal?: Answer } {
		const rateLimit = this.config.rateLimit;
		if (!rateLimit) return { headers: {} };
		const now = Date.now();
		let window = this.windows.get(key);
		if (!window || now >= window.start + rateLimit.windowMs) {
			// The burst switch: another client of this key spent part of the new window first.
			window = { start: now, count: rateLimit.spentByOthers ?? 0 };
			this.windows.set(key, window);
		}
		window.count++;
		const resetSeconds = Math.max(1, Math.ceil((window.start + rateLimit.windowMs - now) / 1000));
		const headers = {
			'ratelimit-limit': String(rateLimit.limit),
			'ratelimit-remaining': String(Math.max(0, rateLimit.limit - window.count)),
			'ratelimit-reset': String(resetSeconds),
		};
		if (window.count <= rateLimit.limit) return { headers };
		const { limit, windowMs } = rateLimit;
		const message = `Rate limit exceeded: ${limit} requests per ${describeWindow(windowMs)} per API key.`;
		const refusal = {
			status: 429,
			headers: { ...headers, 'retry-after': String(resetSeconds) },
			body: errorBody('RATE_LIMITED', message),
		};
		return { headers, refusal };
	}

	/** The routes' answer (api.ts); a 4xx in the error shape of the personality (401 and 429 keep the spec's). */
	private answerApi(method: string, url: URL, rawBody: string | undefined, role: KeyRole): Answer {
		const host = {
			store: this.store,
			emit: (event: string, payload: unknown) => this.emit(event, payload),
		};
		try {
			return handleApi(host, {
				...this.config,
				method,
				path: url.pathname,
				query: Object.fromEntries(url.searchParams),
				rawBody,
				userInternalId: role === 'admin' ? ADMIN_USER_INTERNAL_ID : READ_ONLY_USER_INTERNAL_ID,
				readOnly: role !== 'admin',
			});
		} catch (err) {
			if (!(err instanceof ApiError)) {
				const message = err instanceof Error ? err.message : String(err);
				return { status: 500, body: errorBody('INTERNAL_ERROR', message) };
			}
			const alternate = this.config.personality === 'alternate';
			if (alternate && err.status === 400) return { status: 400, text: err.message };
			if (alternate && err.status === 404) return { status: 404, body: { message: err.message } };
			return { status: err.status, body: errorBody(err.code, err.message) };
		}
	}

	/** The `deliverOnCreate` switch: one delivery to a subscription just created, queued after its answer was written. */
	private deliverOnCreate(created: unknown): void {
		const setting = this.config.deliverOnCreate;
		if (!setting || !isObject(created)) return;
		const subscription = this.store.webhooks.get(String(created.id ?? ''));
		if (!subscription) return;
		this.engine.enqueue([subscription], setting.event, setting.payload);
	}

	private takeFault(method: string, path: string): ActiveFault | undefined {
		const fault = this.faults.find(
			(candidate) =>
				(!candidate.method || candidate.method.toUpperCase() === method) &&
				(!candidate.pathPrefix || path.startsWith(candidate.pathPrefix)),
		);
		if (!fault) return undefined;
		fault.remaining--;
		if (fault.remaining <= 0) this.faults = this.faults.filter((candidate) => candidate !== fault);
		return fault;
	}

	private async handleControl(
		req: http.IncomingMessage,
		res: http.ServerResponse,
		url: URL,
	): Promise<void> {
		const method = (req.method ?? 'GET').toUpperCase();
		const path = url.pathname.replace(/\/+$/, '');
		try {
			const body = parseObjectBody(await readBody(req));
			const route = `${method} ${path.slice('/__sandbox'.length) || '/'}`;
			const revoked = /^DELETE \/keys\/([^/]+)$/.exec(route);
			if (revoked) this.keyRoles.delete(decodeURIComponent(revoked[1]));
			const control = revoked ? () => ({ status: 204 }) : this.controlRoutes()[route];
			if (!control) throw notFound(`Route ${method} ${path} was not found`);
			writeAnswer(res, await control(body));
		} catch (err) {
			if (err instanceof ApiError)
				writeAnswer(res, { status: err.status, body: errorBody(err.code, err.message) });
			else throw err;
		}
	}

	/** The control routes (README) by `METHOD /path` under /__sandbox, but DELETE /keys/{key}. */
	private controlRoutes(): Record<string, (body: JsonObject) => Answer | Promise<Answer>> {
		const ok = (body: unknown): Answer => ({ status: 200, body });
		const after = (act: () => void, answer: Answer = { status: 204 }): Answer => {
			act();
			return answer;
		};
		return {
			'GET /health': () => ok(this.health()),
			'GET /requests': () => ok(this.requests),
			'DELETE /requests': () => after(() => this.clearRequests()),
			'GET /webhooks': () => ok(this.store.webhooks.values()),
			'GET /deliveries': () => ok(this.deliveries),
			'POST /reset': () => after(() => this.reset(), ok({ status: 'ok' })),
			'POST /config': (body) => ok(this.configure(body)),
			'POST /seed': (body) => ok(this.seed(body)),
			'POST /import': (body) => ok(importLeads(this.store, body)),
			'GET /streams': () => ok(this.streams),
			'GET /faults': () => ok(this.faults),
			'POST /faults': (body) => ({ status: 201, body: this.addFault(body as unknown as Fault) }),
			'DELETE /faults': () => after(() => this.clearFaults()),
			'POST /catcher': async () => ok({ url: await this.startCatcher() }),
			'GET /catcher': () => ok({ url: this.catcherUrl || null, caught: this.caught }),
			'DELETE /catcher': () => after(() => this.caught.splice(0)),
			'POST /keys': (body) => ({ status: 201, body: this.addKey(body.key) }),
			'POST /emit': (body) => ok(this.emitted(body)),
		};
	}

	private health() {
		const { leads, deals, invoices, webhooks } = this.store;
		return {
			status: 'ok',
			url: this.url,
			counts: {
				leads: leads.size,
				deals: deals.size,
				invoices: invoices.size,
				webhooks: webhooks.size,
				requests: this.requests.length,
				deliveries: this.deliveries.length,
			},
			pendingDeliveries: this.engine.pending,
		};
	}

	/** POST /__sandbox/config: each switch the body names, in this order; the config (and what a rotation rotated). */
	private configure(body: JsonObject): JsonObject {
		if (body.rateLimit !== undefined) this.setRateLimit(parseRateLimit(body.rateLimit));
		if (body.timeScale !== undefined) {
			const timeScale = body.timeScale;
			check(typeof timeScale === 'number' && timeScale >= 0, 'timeScale must be a number >= 0');
			this.config.timeScale = timeScale as number;
		}
		if (body.personality !== undefined) this.setPersonality(body.personality as SandboxPersonality);
		if (body.deliverOnCreate !== undefined)
			this.config.deliverOnCreate = parseDeliverOnCreate(body.deliverOnCreate);
		if (body.listOrder !== undefined) this.setListOrder(body.listOrder as ListOrder);
		if (body.patchCustomFields !== undefined) {
			const modes = ['replace', 'merge'] as const;
			this.config.patchCustomFields = oneOf(body.patchCustomFields, 'patchCustomFields', modes);
		}
		if (body.activity !== undefined) this.setActivity(parseActivity(body.activity));
		if (body.onePerUrl !== undefined) {
			const modes = [false, 'answer', 'conflict'] as const;
			this.config.onePerUrl = oneOf(body.onePerUrl, 'onePerUrl', modes);
		}
		if (body.normalUrls !== undefined) this.config.normalUrls = body.normalUrls === true;
		if (body.leadListDelayMs !== undefined) {
			const delay = body.leadListDelayMs;
			check(typeof delay === 'number' && delay >= 0, 'leadListDelayMs must be a number >= 0');
			this.config.leadListDelayMs = delay as number;
		}
		if (body.rotation === undefined) return { ...this.config };
		const phase = oneOf(body.rotation, 'rotation', ['both', 'new'] as const);
		return { ...this.config, rotated: this.rotateAll(phase) };
	}

	/**
	 * The rotation switch (spec §6.4, README) for every subscription at once: "both" gives each a new secret, the old
	 * one signing too; "new" ends that, or rotates with no overlap. The ids it rotated or ended.
	 */
	private rotateAll(phase: 'both' | 'new'): string[] {
		const existing = this.store.webhooks.values();
		const ids = existing.map((subscription) => subscription.id);
		if (phase === 'both') {
			this.rotating = ids;
			for (const subscription of existing) rotate(subscription);
			return ids;
		}
		const ended = this.rotating ?? ids;
		if (this.rotating === undefined) for (const subscription of existing) rotate(subscription);
		for (const id of ended) {
			const subscription = this.store.webhooks.get(id);
			if (subscription) subscription.previousSecretExpiresAt = new Date(0).toISOString();
		}
		this.rotating = undefined;
		return ended;
	}

	/** POST /__sandbox/seed: `leads` generated leads more. */
	private seed(body: JsonObject) {
		const leads = (body.leads ?? 0) as number;
		const valid = Number.isInteger(leads) && leads >= 0 && leads <= 1_000_000;
		check(valid, 'leads must be an integer between 0 and 1000000');
		return { added: leads, total: this.seedLeads(leads) };
	}

	/** The key switch: another key of the workspace, acting for the admin user. */
	private addKey(key: unknown) {
		const printable = typeof key === 'string' && /^[\x21-\x7e]{8,200}$/.test(key);
		check(printable, 'key must be 8 to 200 printable characters without spaces');
		this.keyRoles.set(key as string, 'admin');
		return { key, role: 'admin' };
	}

	private emitted(body: JsonObject) {
		const event = body.event;
		check(typeof event === 'string' && event !== '', 'event is required');
		return { event, webhookIds: this.emit(event as string, body.payload ?? {}) };
	}
}

/** A new secret for the subscription; the old one signs too for a day. */
function rotate(subscription: WebhookSubscription): void {
	subscription.previousSecret = subscription.secret;
	subscription.previousSecretExpiresAt = new Date(Date.now() + ROTATION_WINDOW_MS).toISOString();
	subscription.secret = generateSecret();
}

/** A request body as the request log keeps it: parsed JSON, else the text. */
function parsedOrText(rawBody: string | undefined): unknown {
	if (rawBody === undefined) return undefined;
	try {
		return JSON.parse(rawBody);
	} catch {
		return rawBody;
	}
}

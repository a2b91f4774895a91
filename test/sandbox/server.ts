/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * In-memory sandbox of the CRM and invoicing API (/work/shared/spec/crm-api.md, v1 and v2),
 * with control endpoints under /__sandbox/ for tests and scripts in other processes.
 *
 *   const sandbox = await startSandbox({ rateLimit: false });
 *   await fetch(`${sandbox.url}/api/v1/leads`, { headers: { 'x-api-key': sandbox.keys.admin } });
 *   await sandbox.close();
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import {
	ApiError,
	type ErrorCode,
	errorBody,
	found,
	handleApi,
	isObject,
	notFound,
	parseObjectBody,
	publicSubscription,
	validationError,
} from './api';
import {
	ADMIN_USER_INTERNAL_ID,
	createStore,
	generateLeads,
	READ_ONLY_USER_INTERNAL_ID,
	type Store,
} from './store';
import { activityStep, parseActivity, parseListOrder } from './activity';
import type {
	CaughtRequest,
	DeliverOnCreate,
	DeliveryLogEntry,
	Fault,
	StreamRecord,
	Invoice,
	JsonObject,
	KeyRole,
	ListOrder,
	RateLimitConfig,
	RequestLogEntry,
	Sandbox,
	SandboxConfig,
	SandboxOptions,
	SandboxPersonality,
	SandboxState,
	WebhookSubscription,
} from './types';
import { PERSONALITIES } from './types';
import { DeliveryEngine, generateSecret } from './webhooks';
import { cyclePage, echoBody, parseEdgeFault, skewedHeaders } from './edgeFaults';
import { jsonText } from './jsonText';
import { importLeads } from './leadImports';

export * from './types';

export const DEFAULT_ADMIN_KEY = 'sk_sandbox_admin_0123456789abcdef';
export const DEFAULT_READ_ONLY_KEY = 'sk_sandbox_readonly_0123456789abcdef';
export const DEFAULT_RATE_LIMIT: RateLimitConfig = { limit: 60, windowMs: 60_000 };
export const DEFAULT_ROTATION_WINDOW_MS = 24 * 3_600_000;
const MAX_BODY_BYTES = 5 * 1024 * 1024;
const BODY_TOO_LARGE = `The request body is larger than ${MAX_BODY_BYTES} bytes`;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const sandbox = new SandboxServer(options);
	await sandbox.listen(options.port ?? 0, options.host ?? '127.0.0.1');
	return sandbox;
}

interface RateWindow {
	start: number;
	count: number;
}

interface ActiveFault extends Fault {
	remaining: number;
	/** With `forMs`: when the fault stops answering (set at its first match). */
	until?: number;
	/** With `cycle`: the pages it answered. */
	served?: number;
}

type Json = { status: number; body?: unknown; headers?: Record<string, string>; text?: string };

class BodyTooLarge extends Error {}

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

function codeForStatus(status: number): ErrorCode {
	if (status === 400 || status === 422) return 'VALIDATION_ERROR';
	if (status === 401) return 'UNAUTHORIZED';
	if (status === 403) return 'FORBIDDEN';
	if (status === 404) return 'NOT_FOUND';
	if (status === 429) return 'RATE_LIMITED';
	return 'INTERNAL_ERROR';
}

function htmlErrorPage(status: number): string {
	const title = `${status} ${http.STATUS_CODES[status] ?? 'Error'}`;
	return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

function isPositiveInteger(value: unknown): value is number {
	return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

/** A control request's value must pass: else a 400 with the message. */
function check(ok: boolean, message: string): void {
	if (!ok) throw validationError(message);
}

/** One of the allowed values; else a 400 with the message. */
function choice<T>(value: unknown, allowed: readonly T[], message: string): T {
	check(allowed.includes(value as T), message);
	return value as T;
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

function parsePersonality(value: unknown): SandboxPersonality {
	return choice(value, PERSONALITIES, `personality must be one of ${PERSONALITIES.join(', ')}`);
}

function parseFault(value: unknown): Fault {
	if (!isObject(value)) throw validationError('The fault must be a JSON object');
	const raw = value;
	const { status, method, pathPrefix, delayMs, headers, htmlBytes, redirectTo } = raw;
	check(
		typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599,
		'status must be an HTTP status between 100 and 599',
	);
	const count = raw.count ?? 1;
	check(isPositiveInteger(count), 'count must be a positive integer');
	check(method === undefined || typeof method === 'string', 'method must be a string');
	check(pathPrefix === undefined || typeof pathPrefix === 'string', 'pathPrefix must be a string');
	check(
		delayMs === undefined || (typeof delayMs === 'number' && !(delayMs < 0)),
		'delayMs must be a number of milliseconds',
	);
	check(
		headers === undefined ||
			(isObject(headers) && Object.values(headers).every((v) => typeof v === 'string')),
		'headers must be an object of strings',
	);
	check(
		htmlBytes === undefined || (isPositiveInteger(htmlBytes) && htmlBytes <= 20 * 1024 * 1024),
		'htmlBytes must be a positive integer up to 20 MB',
	);
	check(
		redirectTo === undefined || typeof redirectTo === 'string',
		'redirectTo must be "catcher" or a URL',
	);
	let trickle: Fault['trickle'];
	if (raw.trickle !== undefined) {
		const value = raw.trickle as { intervalMs?: unknown; bytes?: unknown };
		check(
			isObject(value) &&
				isPositiveInteger(value.intervalMs) &&
				(value.bytes === undefined || isPositiveInteger(value.bytes)),
			'trickle must be { intervalMs, bytes? } with positive integers',
		);
		trickle = { intervalMs: value.intervalMs as number, bytes: value.bytes as number | undefined };
	}
	check(
		raw.endlessBytes === undefined || isPositiveInteger(raw.endlessBytes),
		'endlessBytes must be a positive integer',
	);
	return {
		hang: raw.hang === true,
		trickle,
		endless: raw.endless === true,
		endlessBytes: raw.endlessBytes as number | undefined,
		...parseEdgeFault(raw),
		htmlBytes: raw.htmlBytes as number | undefined,
		body: raw.body,
		redirectTo: raw.redirectTo as string | undefined,
		method: raw.method as string | undefined,
		pathPrefix: raw.pathPrefix as string | undefined,
		status: status as number,
		count: count as number,
		html: raw.html === true,
		delayMs: raw.delayMs as number | undefined,
		closeConnection: raw.closeConnection === true,
		headers: raw.headers as Record<string, string> | undefined,
	};
}

/** The `ignoreLimit` switch: false, or the page size every list answers with. */
function parseIgnoreLimit(value: unknown): number | false {
	if (value === false) return false;
	if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 1_000_000)
		return value;
	throw validationError('ignoreLimit must be false or an integer between 1 and 1000000');
}

function parseDeliverOnCreate(value: unknown): DeliverOnCreate | false {
	if (value === false || value === null) return false;
	if (value === true) return {};
	if (!isObject(value))
		throw validationError('deliverOnCreate must be false, true or { event?, payload? }');
	const { event, payload } = value;
	check(
		event === undefined || (typeof event === 'string' && event !== ''),
		'deliverOnCreate.event must be an event name',
	);
	return { event: event as string | undefined, payload };
}

class SandboxServer implements Sandbox {
	url = '';
	port = 0;
	readonly keys: { admin: string; readOnly: string };
	/** The key switch (README): keys added, with the user they act for, and keys revoked; cleared by reset. */
	private readonly addedKeys = new Map<string, KeyRole>();
	private readonly revokedKeys = new Set<string>();
	readonly requests: RequestLogEntry[] = [];
	readonly deliveries: DeliveryLogEntry[] = [];
	readonly config: SandboxConfig;

	private store: Store;
	private readonly server: http.Server;
	private readonly engine: DeliveryEngine;
	private readonly seedLeadCount: number;
	private readonly windows = new Map<string, RateWindow>();
	private faults: ActiveFault[] = [];
	private readonly faultTimers = new Set<NodeJS.Timeout>();
	readonly streams: StreamRecord[] = [];
	private requestSeq = 0;
	private closed = false;
	/** The second listener (another origin), started on demand. */
	private catcher: http.Server | undefined;
	private catcherUrl = '';
	readonly caught: CaughtRequest[] = [];

	constructor(options: SandboxOptions) {
		this.keys = {
			admin: options.apiKeys?.admin ?? DEFAULT_ADMIN_KEY,
			readOnly: options.apiKeys?.readOnly ?? DEFAULT_READ_ONLY_KEY,
		};
		this.config = {
			rateLimit:
				options.rateLimit === undefined
					? { ...DEFAULT_RATE_LIMIT }
					: parseRateLimit(options.rateLimit),
			timeScale: options.timeScale ?? 1,
			deliveryTimeoutMs: options.deliveryTimeoutMs ?? 20_000,
			personality: parsePersonality(options.personality ?? 'standard'),
			deliverOnCreate: false,
			ignoreLimit: false,
			patchCustomFields: 'replace',
			listOrder: parseListOrder(options.listOrder ?? 'oldest'),
			activity: false,
			onePerUrl: false,
			normalUrls: false,
		};
		this.seedLeadCount = options.seedLeads ?? 0;
		this.store = this.freshStore();
		this.engine = new DeliveryEngine({
			getSubscription: (id) => this.store.webhooks.get(id),
			disableSubscription: (id) => {
				const subscription = this.store.webhooks.get(id);
				if (subscription) subscription.status = 'disabled';
			},
			timeScale: () => this.config.timeScale,
			deliveryTimeoutMs: () => this.config.deliveryTimeoutMs,
			log: (entry) => this.deliveries.push(entry),
		});
		if (options.activity) this.setActivity(parseActivity(options.activity));
		this.server = http.createServer((req, res) => {
			this.handle(req, res).catch((err: Error) => {
				if (!res.headersSent)
					this.writeJson(res, { status: 500, body: errorBody('INTERNAL_ERROR', err.message) });
				else res.destroy();
			});
		});
	}

	/** The activity switch (README). */
	private activityTimer: NodeJS.Timeout | undefined;
	private activityTick = 0;

	private activityStep() {
		return activityStep(this.store, this.activityTick++, (event, payload) =>
			this.emit(event, payload),
		);
	}

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

	get state(): SandboxState {
		return this.store;
	}

	listen(port: number, host: string): Promise<void> {
		return new Promise((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(port, host, () => {
				this.server.off('error', reject);
				this.port = (this.server.address() as AddressInfo).port;
				this.url = urlOf(this.server);
				resolve();
			});
		});
	}

	clearRequests(): void {
		this.requests.length = 0;
	}

	reset(): void {
		this.engine.cancelAll();
		this.store = this.freshStore();
		this.requests.length = 0;
		this.deliveries.length = 0;
		this.windows.clear();
		this.streams.length = 0;
		this.clearFaults();
		this.addedKeys.clear();
		this.revokedKeys.clear();
		this.rotating = undefined;
	}

	/** Which user a key acts for; none for a revoked or unknown key. */
	roleOfKey(key: string): KeyRole | undefined {
		if (this.revokedKeys.has(key)) return undefined;
		if (key === this.keys.admin) return 'admin';
		if (key === this.keys.readOnly) return 'readOnly';
		return this.addedKeys.get(key);
	}

	addKey(key: string, role: KeyRole = 'admin'): void {
		this.revokedKeys.delete(key);
		this.addedKeys.set(key, role);
	}

	revokeKey(key: string): void {
		this.revokedKeys.add(key);
	}

	setRateLimit(rateLimit: RateLimitConfig | number | false): void {
		const { windowMs } = this.config.rateLimit || DEFAULT_RATE_LIMIT;
		this.config.rateLimit = parseRateLimit(
			typeof rateLimit === 'number' ? { limit: rateLimit, windowMs } : rateLimit,
		);
		this.windows.clear();
	}

	setTimeScale(timeScale: number): void {
		check(typeof timeScale === 'number' && timeScale >= 0, 'timeScale must be a number >= 0');
		this.config.timeScale = timeScale;
	}

	setPersonality(personality: SandboxPersonality): void {
		this.config.personality = parsePersonality(personality);
	}

	setListOrder(order: ListOrder): void {
		this.config.listOrder = parseListOrder(order);
	}

	seedLeads(n: number, mention?: string): number {
		if (!Number.isInteger(n) || n < 0) throw new Error('n must be a non-negative integer');
		generateLeads(this.store, n, mention);
		return this.store.leads.size;
	}

	addFault(fault: Fault): void {
		this.pushFault(fault);
	}

	clearFaults(): void {
		this.faults = [];
		for (const timer of this.faultTimers) clearTimeout(timer);
		this.faultTimers.clear();
	}

	emit(event: string, payload: unknown): string[] {
		if (this.closed) return [];
		const subscriptions = this.store.webhooks
			.values()
			.filter(
				(subscription) => subscription.status === 'active' && subscription.events.includes(event),
			);
		return this.engine.enqueue(subscriptions, event, payload);
	}

	payInvoice(id: string): Invoice {
		const invoice = found(this.store.invoices, 'Invoice', id);
		if (invoice.status === 'PAID') throw validationError(`Invoice ${id} is already paid`);
		invoice.status = 'PAID';
		invoice.paidTotal = invoice.total;
		invoice.pendingTotal = 0;
		invoice.paidAt = new Date().toISOString();
		this.emit('invoice.paid', invoice);
		return invoice;
	}

	rotateWebhookSecret(id: string, windowMs = DEFAULT_ROTATION_WINDOW_MS): WebhookSubscription {
		const subscription = found(this.store.webhooks, 'Webhook', id);
		subscription.previousSecret = subscription.secret;
		subscription.previousSecretExpiresAt = new Date(Date.now() + windowMs).toISOString();
		subscription.secret = generateSecret();
		return subscription;
	}

	/** The subscriptions rotated by `setRotation('both')`, until `setRotation('new')` ends it. */
	private rotating: string[] | undefined;

	/** The rotation switch (spec §6.4, README): returns the ids it rotated or ended. */
	setRotation(phase: 'both' | 'new'): string[] {
		const existing = this.store.webhooks.values().map((subscription) => subscription.id);
		if (phase === 'both') {
			this.rotating = existing;
			for (const id of existing) this.rotateWebhookSecret(id);
			return existing;
		}
		const ended = this.rotating ?? existing;
		if (this.rotating === undefined) for (const id of ended) this.rotateWebhookSecret(id);
		for (const id of ended) {
			const subscription = this.store.webhooks.get(id);
			if (subscription) subscription.previousSecretExpiresAt = new Date(0).toISOString();
		}
		this.rotating = undefined;
		return ended;
	}

	deliveriesSettled(timeoutMs = 10_000): Promise<void> {
		return this.engine.settled(timeoutMs);
	}

	/** Starts the second listener (once) on the sandbox's host and a free port. */
	async startCatcher(): Promise<string> {
		if (this.catcher) return this.catcherUrl;
		const catcher = http.createServer((req, res) => {
			const chunks: Buffer[] = [];
			let size = 0;
			req.on('data', (chunk: Buffer) => {
				size += chunk.length;
				if (size <= MAX_BODY_BYTES) chunks.push(chunk);
			});
			req.on('end', () => {
				this.caught.push({
					method: req.method ?? 'GET',
					path: req.url ?? '/',
					headers: headersOf(req, true),
					apiKeyReceived: req.headers['x-api-key'] !== undefined,
					body: Buffer.concat(chunks).toString('utf8'),
					at: new Date().toISOString(),
				});
				const text = JSON.stringify({
					id: 'caught_by_other_host',
					name: 'An answer from another host',
					items: [],
					hasMore: false,
				});
				res.writeHead(200, {
					'content-type': 'application/json',
					'content-length': String(Buffer.byteLength(text)),
				});
				res.end(text);
			});
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

	private pushFault(value: unknown): Fault {
		const fault = parseFault(value);
		if (fault.redirectTo === 'catcher' && !this.catcherUrl) {
			throw validationError('Start the second listener first: POST /__sandbox/catcher');
		}
		this.faults.push({ ...fault, remaining: fault.count });
		return fault;
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
		if (path === '/' && req.method === 'GET') {
			return this.writeJson(res, {
				status: 200,
				body: {
					name: 'CRM sandbox',
					api: { v1: `${this.url}/api/v1`, v2: `${this.url}/api/v2` },
					control: `${this.url}/__sandbox/health`,
				},
			});
		}
		// Pages of the host outside the API (e.g. /admin/export-all) are logged too, so a test can see what reached them.
		this.log(req, url, undefined, new Date().toISOString())(404);
		return this.writeJson(res, {
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

	private readBody(req: http.IncomingMessage): Promise<string | undefined> {
		return new Promise((resolve, reject) => {
			const chunks: Buffer[] = [];
			let size = 0;
			req.on('data', (chunk: Buffer) => {
				size += chunk.length;
				if (size > MAX_BODY_BYTES) {
					reject(new BodyTooLarge());
					req.resume();
					return;
				}
				chunks.push(chunk);
			});
			req.on('end', () => resolve(size === 0 ? undefined : Buffer.concat(chunks).toString('utf8')));
			req.on('error', reject);
		});
	}

	private writeJson(res: http.ServerResponse, response: Json): void {
		// A fault's own Content-Type is kept (a proxy's, or one that echoes the key); else the body's.
		const headers: Record<string, string> = { ...response.headers };
		let text = response.text;
		if (text !== undefined) headers['content-type'] ??= 'text/plain; charset=utf-8';
		else if (response.status !== 204 && response.body !== undefined) {
			text = jsonText(response.body);
			headers['content-type'] ??= 'application/json; charset=utf-8';
		}
		if (text !== undefined) headers['content-length'] = String(Buffer.byteLength(text));
		res.writeHead(response.status, headers);
		res.end(text);
	}

	private async handleApiRequest(
		req: http.IncomingMessage,
		res: http.ServerResponse,
		url: URL,
	): Promise<void> {
		const at = new Date().toISOString();
		const method = (req.method ?? 'GET').toUpperCase();
		const query = Object.fromEntries(url.searchParams);
		let rawBody: string | undefined;
		let tooLarge = false;
		try {
			rawBody = await this.readBody(req);
		} catch (err) {
			if (!(err instanceof BodyTooLarge)) throw err;
			tooLarge = true;
		}
		let loggedBody: unknown = rawBody;
		if (rawBody !== undefined) {
			try {
				loggedBody = JSON.parse(rawBody);
			} catch {
				loggedBody = rawBody;
			}
		}
		const log = this.log(req, url, loggedBody, at);
		const send = (response: Json): void => {
			log(response.status);
			this.writeJson(res, response);
		};

		const fault = this.takeFault(method, url.pathname);
		if (fault) return this.applyFault(fault, req, res, log, url);
		if (tooLarge) return send({ status: 413, body: errorBody('VALIDATION_ERROR', BODY_TOO_LARGE) });

		const key = headersOf(req)['x-api-key'];
		const role = key ? this.roleOfKey(key) : undefined;
		if (role === undefined) {
			const message = key
				? 'The API key in the x-api-key header is not valid.'
				: 'An API key is required in the x-api-key header.';
			return send({ status: 401, body: errorBody('UNAUTHORIZED', message) });
		}

		const personality = this.config.personality;
		const rateHeaders: Record<string, string> = {};
		const rateLimit = this.config.rateLimit;
		if (rateLimit) {
			const now = Date.now();
			let window = this.windows.get(key);
			if (!window || now >= window.start + rateLimit.windowMs) {
				// The burst switch: another client of this key spent part of the new window first.
				window = { start: now, count: rateLimit.spentByOthers ?? 0 };
				this.windows.set(key, window);
			}
			window.count++;
			const resetSeconds = Math.max(1, Math.ceil((window.start + rateLimit.windowMs - now) / 1000));
			rateHeaders['ratelimit-limit'] = String(rateLimit.limit);
			rateHeaders['ratelimit-remaining'] = String(Math.max(0, rateLimit.limit - window.count));
			rateHeaders['ratelimit-reset'] = String(resetSeconds);
			if (window.count > rateLimit.limit) {
				return send({
					status: 429,
					headers: { ...rateHeaders, 'retry-after': String(resetSeconds) },
					body: errorBody(
						'RATE_LIMITED',
						`Rate limit exceeded: ${rateLimit.limit} requests per ${describeWindow(rateLimit.windowMs)} per API key.`,
					),
				});
			}
		}

		// The alternate personality announces the limit only on 429 answers.
		const answerHeaders = personality === 'alternate' ? {} : rateHeaders;
		try {
			const response = handleApi(
				{ store: this.store, emit: (event, payload) => this.emit(event, payload) },
				{
					method,
					path: url.pathname,
					query,
					rawBody,
					userInternalId: role === 'admin' ? ADMIN_USER_INTERNAL_ID : READ_ONLY_USER_INTERNAL_ID,
					readOnly: role !== 'admin',
					personality,
					ignoreLimit: this.config.ignoreLimit,
					listOrder: this.config.listOrder,
					patchCustomFields: this.config.patchCustomFields,
					onePerUrl: this.config.onePerUrl,
					normalUrls: this.config.normalUrls,
				},
			);
			send({ status: response.status, body: response.body, headers: answerHeaders });
			if (method === 'POST' && url.pathname === '/api/v1/webhooks' && response.status === 200)
				this.deliverOnCreate(response.body);
		} catch (err) {
			if (err instanceof ApiError) send(this.apiErrorResponse(err, answerHeaders));
			else
				send({
					status: 500,
					body: errorBody('INTERNAL_ERROR', err instanceof Error ? err.message : String(err)),
					headers: answerHeaders,
				});
		}
	}

	/** The `deliverOnCreate` switch: one delivery to a subscription just created, queued after its answer was written. */
	private deliverOnCreate(created: unknown): void {
		const setting = this.config.deliverOnCreate;
		if (!setting || !created || typeof created !== 'object') return;
		const subscription = this.store.webhooks.get(String((created as { id?: unknown }).id ?? ''));
		if (!subscription) return;
		this.engine.enqueue(
			[subscription],
			setting.event ?? subscription.events[0],
			setting.payload ?? { id: 'lead_on_create', name: 'Delivered while subscribing' },
		);
	}

	/** A 4xx from the routes, in the error-body shape of the current personality (401 and 429 keep the spec's shape). */
	private apiErrorResponse(err: ApiError, headers: Record<string, string>): Json {
		if (this.config.personality === 'alternate') {
			if (err.status === 400) return { status: 400, headers, text: err.message };
			if (err.status === 404) return { status: 404, headers, body: { message: err.message } };
		}
		return { status: err.status, headers, body: errorBody(err.code, err.message) };
	}

	private takeFault(method: string, path: string): ActiveFault | undefined {
		const fault = this.faults.find(
			(candidate) =>
				(!candidate.method || candidate.method.toUpperCase() === method) &&
				(!candidate.pathPrefix || path.startsWith(candidate.pathPrefix)),
		);
		if (!fault) return undefined;
		if (fault.forMs !== undefined) {
			fault.until ??= Date.now() + fault.forMs;
			if (Date.now() < fault.until) return fault;
			this.faults = this.faults.filter((candidate) => candidate !== fault);
			return this.takeFault(method, path);
		}
		fault.remaining--;
		if (fault.remaining <= 0) this.faults = this.faults.filter((candidate) => candidate !== fault);
		return fault;
	}

	private applyFault(
		fault: ActiveFault,
		req: http.IncomingMessage,
		res: http.ServerResponse,
		log: (status: number) => void,
		url: URL,
	): void {
		const act = (): void => {
			if (fault.hang) {
				log(0);
				return;
			}
			if (fault.trickle || fault.endless) return this.streamFault(fault, res, log, url);
			if (fault.echoKey) {
				log(fault.status);
				const key = String(req.headers['x-api-key'] ?? '');
				const text = echoBody(fault.status, key, fault.echoKey === 'escaped', url.pathname);
				const headers = { ...fault.headers, 'content-type': 'application/json; charset=utf-8' };
				return this.writeJson(res, { status: fault.status, headers, text });
			}
			if (fault.closeConnection) {
				log(0);
				req.socket.destroy();
				return;
			}
			log(fault.status);
			const headers: Record<string, string> = {
				...fault.headers,
				...skewedHeaders(fault, Date.now(), fault.until),
			};
			if (fault.skewedClock?.sendDate === false) res.sendDate = false;
			if (fault.location !== undefined) headers.location = fault.location;
			if (fault.redirectTo !== undefined) {
				const target =
					fault.redirectTo === 'catcher' ? this.catcherUrl : fault.redirectTo.replace(/\/+$/, '');
				headers.location = `${target}${url.pathname}${url.search}`;
			}
			if (fault.cycle) {
				fault.served = (fault.served ?? 0) + 1;
				this.writeJson(res, { status: fault.status, headers, body: cyclePage(fault.served) });
			} else if (fault.body !== undefined) {
				this.writeJson(res, { status: fault.status, headers, body: fault.body });
			} else if (fault.redirectTo !== undefined || fault.location !== undefined) {
				res.writeHead(fault.status, { ...headers, 'content-length': '0' });
				res.end();
			} else if (fault.html) {
				let html = htmlErrorPage(fault.status);
				if (fault.htmlBytes && fault.htmlBytes > html.length) {
					const pad = '<div class="x">&lt;</div>\n';
					html = html.replace(
						'<hr>',
						`${pad.repeat(Math.ceil((fault.htmlBytes - html.length) / pad.length))}<hr>`,
					);
				}
				const htmlHeaders = { ...headers, 'content-type': 'text/html' };
				this.writeJson(res, { status: fault.status, headers: htmlHeaders, text: html });
			} else {
				const message =
					`Sandbox fault: ${fault.status} ${http.STATUS_CODES[fault.status] ?? ''}`.trim();
				this.writeJson(res, {
					status: fault.status,
					headers,
					body: fault.status === 204 ? undefined : errorBody(codeForStatus(fault.status), message),
				});
			}
		};
		if (!fault.delayMs) return act();
		const timer = setTimeout(() => {
			this.faultTimers.delete(timer);
			act();
		}, fault.delayMs);
		timer.unref();
		this.faultTimers.add(timer);
	}

	/** A trickling or endless body (see Fault.trickle / Fault.endless). Stops when the client closes, and at close(). */
	private streamFault(
		fault: ActiveFault,
		res: http.ServerResponse,
		log: (status: number) => void,
		url: URL,
	): void {
		log(fault.status);
		const record: StreamRecord = {
			path: url.pathname,
			kind: fault.endless ? 'endless' : 'trickle',
			bytes: 0,
			closedByClient: false,
			done: false,
		};
		this.streams.push(record);
		res.on('close', () => {
			if (!record.done) record.closedByClient = true;
		});
		res.writeHead(fault.status, {
			...fault.headers,
			'content-type': 'application/json; charset=utf-8',
		});
		if (fault.trickle) {
			const body = JSON.stringify(fault.body ?? { id: 'lead_trickle', name: 'Trickle' });
			const text =
				' '.repeat(Math.max(0, (fault.trickle.bytes ?? 1000) - Buffer.byteLength(body))) + body;
			let index = 0;
			const timer = setInterval(() => {
				if (res.destroyed || index >= text.length) {
					clearInterval(timer);
					this.faultTimers.delete(timer);
					if (!res.destroyed) {
						record.done = true;
						res.end();
					}
					return;
				}
				res.write(text[index++]);
				record.bytes++;
			}, fault.trickle.intervalMs);
			timer.unref();
			this.faultTimers.add(timer);
			return;
		}
		const limit = fault.endlessBytes ?? 8 * 1024 ** 3;
		const chunk = Buffer.from('{"id":"x"},'.repeat(6_000));
		res.write('[');
		record.bytes = 1;
		const pump = (): void => {
			while (!res.destroyed && record.bytes < limit) {
				const ok = res.write(chunk);
				record.bytes += chunk.length;
				if (!ok) {
					res.once('drain', pump);
					return;
				}
			}
			if (!res.destroyed) {
				record.done = true;
				res.end('{"id":"x"}]');
			}
		};
		pump();
	}

	private async handleControl(
		req: http.IncomingMessage,
		res: http.ServerResponse,
		url: URL,
	): Promise<void> {
		const method = (req.method ?? 'GET').toUpperCase();
		const path = url.pathname.replace(/\/+$/, '');
		try {
			const body = parseObjectBody(await this.readBody(req));
			if (method === 'POST' && path === '/__sandbox/catcher') {
				const catcherUrl = await this.startCatcher();
				this.caught.length = 0;
				return this.writeJson(res, { status: 200, body: { url: catcherUrl } });
			}
			this.writeJson(res, this.control(method, path, url.searchParams, body));
		} catch (err) {
			if (err instanceof ApiError)
				this.writeJson(res, { status: err.status, body: errorBody(err.code, err.message) });
			else if (err instanceof BodyTooLarge)
				this.writeJson(res, { status: 413, body: errorBody('VALIDATION_ERROR', BODY_TOO_LARGE) });
			else throw err;
		}
	}

	private control(method: string, path: string, params: URLSearchParams, body: JsonObject): Json {
		const route = `${method} ${path.slice('/__sandbox'.length) || '/'}`;
		let match: RegExpExecArray | null;
		switch (route) {
			case 'GET /health':
				return {
					status: 200,
					body: {
						status: 'ok',
						url: this.url,
						counts: {
							leads: this.store.leads.size,
							deals: this.store.deals.size,
							invoices: this.store.invoices.size,
							webhooks: this.store.webhooks.size,
							requests: this.requests.length,
							deliveries: this.deliveries.length,
						},
						pendingDeliveries: this.engine.pending,
					},
				};
			case 'GET /requests': {
				const since = Number(params.get('since') ?? 0);
				if (!Number.isFinite(since)) throw validationError('since must be a number');
				return { status: 200, body: this.requests.filter((entry) => entry.seq > since) };
			}
			case 'DELETE /requests':
				this.clearRequests();
				return { status: 204 };
			case 'GET /webhooks':
				return { status: 200, body: this.store.webhooks.values() };
			case 'GET /deliveries':
				return { status: 200, body: this.deliveries };
			case 'DELETE /deliveries':
				this.deliveries.length = 0;
				return { status: 204 };
			case 'POST /reset':
				this.reset();
				return { status: 200, body: { status: 'ok' } };
			case 'GET /config':
				return { status: 200, body: this.config };
			case 'POST /config':
				if (body.rateLimit !== undefined) this.setRateLimit(parseRateLimit(body.rateLimit));
				if (body.timeScale !== undefined) this.setTimeScale(body.timeScale as number);
				if (body.personality !== undefined)
					this.setPersonality(body.personality as SandboxPersonality);
				if (body.deliverOnCreate !== undefined)
					this.config.deliverOnCreate = parseDeliverOnCreate(body.deliverOnCreate);
				if (body.ignoreLimit !== undefined)
					this.config.ignoreLimit = parseIgnoreLimit(body.ignoreLimit);
				if (body.listOrder !== undefined) this.setListOrder(body.listOrder as ListOrder);
				if (body.patchCustomFields !== undefined) {
					const modes = ['replace', 'merge'] as const;
					const message = 'patchCustomFields must be "replace" or "merge"';
					this.config.patchCustomFields = choice(body.patchCustomFields, modes, message);
				}
				if (body.activity !== undefined) this.setActivity(parseActivity(body.activity));
				if (body.onePerUrl !== undefined) {
					const modes = [false, 'answer', 'conflict'] as const;
					const message = 'onePerUrl must be false, "answer" or "conflict"';
					this.config.onePerUrl = choice(body.onePerUrl, modes, message);
				}
				if (body.normalUrls !== undefined) this.config.normalUrls = body.normalUrls === true;
				if (body.deliveryTimeoutMs !== undefined) {
					const timeout = body.deliveryTimeoutMs;
					check(isPositiveInteger(timeout), 'deliveryTimeoutMs must be a positive integer');
					this.config.deliveryTimeoutMs = timeout as number;
				}
				if (body.rotation !== undefined) {
					const phases = ['both', 'new'] as const;
					const phase = choice(body.rotation, phases, 'rotation must be "both" or "new"');
					return { status: 200, body: { ...this.config, rotated: this.setRotation(phase) } };
				}
				return { status: 200, body: this.config };
			case 'POST /seed': {
				const leads = body.leads ?? 0;
				const mention = body.mention ?? undefined;
				check(
					typeof leads === 'number' && Number.isInteger(leads) && leads >= 0 && leads <= 1_000_000,
					'leads must be an integer between 0 and 1000000',
				);
				check(
					mention === undefined ||
						(typeof mention === 'string' && mention !== '' && mention.length <= 200),
					'mention must be a text of 1 to 200 characters',
				);
				const total = this.seedLeads(leads as number, mention as string | undefined);
				return { status: 200, body: { added: leads, total } };
			}
			case 'POST /import': {
				const added = importLeads(this.store, body);
				if (typeof added === 'string') throw validationError(added);
				return { status: 200, body: added };
			}
			case 'GET /streams':
				return { status: 200, body: this.streams };
			case 'GET /faults':
				return { status: 200, body: this.faults };
			case 'POST /faults':
				return { status: 201, body: this.pushFault(body) };
			case 'GET /catcher':
				return { status: 200, body: { url: this.catcherUrl || null, caught: this.caught } };
			case 'DELETE /catcher':
				this.caught.length = 0;
				return { status: 204 };
			case 'DELETE /faults':
				this.clearFaults();
				return { status: 204 };
			case 'POST /activity':
				// One step of the activity switch now, for tests and demos.
				return { status: 200, body: this.activityStep() };
			case 'POST /emit': {
				const event = body.event;
				check(typeof event === 'string' && event !== '', 'event is required');
				const webhookIds = this.emit(event as string, body.payload ?? {});
				return { status: 200, body: { event, webhookIds } };
			}
		}
		if (route === 'POST /keys') {
			const key = body.key;
			check(
				typeof key === 'string' && /^[\x21-\x7e]{8,200}$/.test(key),
				'key must be 8 to 200 printable characters without spaces',
			);
			const roles = ['admin', 'readOnly'] as const;
			const role = choice(body.role ?? 'admin', roles, 'role must be "admin" or "readOnly"');
			this.addKey(key as string, role);
			return { status: 201, body: { key, role } };
		}
		if (method === 'DELETE' && (match = /^\/__sandbox\/keys\/([^/]+)$/.exec(path))) {
			this.revokeKey(decodeURIComponent(match[1]));
			return { status: 204 };
		}
		if (method === 'POST' && (match = /^\/__sandbox\/invoices\/([^/]+)\/pay$/.exec(path))) {
			return { status: 200, body: this.payInvoice(decodeURIComponent(match[1])) };
		}
		if (method === 'POST' && (match = /^\/__sandbox\/webhooks\/([^/]+)\/rotate$/.exec(path))) {
			const windowMs = body.windowMs ?? DEFAULT_ROTATION_WINDOW_MS;
			check(isPositiveInteger(windowMs), 'windowMs must be a positive integer');
			const subscription = this.rotateWebhookSecret(
				decodeURIComponent(match[1]),
				windowMs as number,
			);
			return {
				status: 200,
				body: {
					...publicSubscription(subscription),
					secret: subscription.secret,
					previousSecretExpiresAt: subscription.previousSecretExpiresAt,
				},
			};
		}
		throw notFound(`Route ${method} ${path} was not found`);
	}
}

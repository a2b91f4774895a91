/** The sandbox's types: its records are what the API returns; its switches and faults are README.md's. */

export type JsonObject = Record<string, unknown>;

export interface RateLimitConfig {
	limit: number;
	windowMs: number;
	/** Requests of the key another client spends at the start of every window (README). 0 by default. */
	spentByOthers?: number;
}

/** How the sandbox resolves the points the spec leaves open ("not shown"): README. */
export type SandboxPersonality = 'standard' | 'alternate';

export const PERSONALITIES: readonly SandboxPersonality[] = ['standard', 'alternate'];

/** The order of GET /leads (README, polling trigger). */
export type ListOrder = 'oldest' | 'newest' | 'newestCreated';
export const LIST_ORDERS: readonly ListOrder[] = ['oldest', 'newest', 'newestCreated'];

/** The options of startSandbox (its defaults: server.ts). */
export interface SandboxOptions
	extends Partial<
		Pick<SandboxConfig, 'rateLimit' | 'timeScale' | 'personality' | 'listOrder' | 'activity'>
	> {
	port?: number;
	host?: string;
	deliveryTimeoutMs?: number;
	seedLeads?: number;
}

export interface RequestLogEntry {
	/** Never restarts (not even after clearRequests or reset). */
	seq: number;
	method: string;
	/** Without the query string. */
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	/** Parsed JSON, else the raw text; undefined when there was none. */
	body: unknown;
	/** 0 when a fault never answered. */
	status: number;
	at: string;
}

export type DeliveryStatus = number | 'timeout' | 'error';

/** What happened to the delivery after this attempt. */
export type DeliveryOutcome =
	| 'delivered'
	| 'retrying'
	| 'failed'
	| 'disabled'
	| 'permanently_failed';

export interface DeliveryLogEntry {
	subscriptionId: string;
	/** The same on every attempt of one delivery. */
	webhookId: string;
	event: string;
	attempt: number;
	url: string;
	status: DeliveryStatus;
	at: string;
	outcome: DeliveryOutcome;
	error?: string;
}

/**
 * A fault of `POST /__sandbox/faults`: answers `count` requests instead of the API, those of `method` (any case) and
 * `pathPrefix` when given. Each field: README.
 */
export interface Fault {
	method?: string;
	pathPrefix?: string;
	status: number;
	count: number;
	html?: boolean;
	delayMs?: number;
	headers?: Record<string, string>;
	htmlBytes?: number;
	body?: unknown;
	redirectTo?: 'catcher';
	hang?: boolean;
	trickle?: { intervalMs: number; bytes?: number };
	endless?: boolean;
	endlessBytes?: number;
	echoKey?: boolean | 'escaped';
	location?: string;
}

/** What an endless or trickling fault sent before it stopped (GET /__sandbox/streams). */
export interface StreamRecord {
	path: string;
	kind: 'endless' | 'trickle';
	bytes: number;
	closedByClient: boolean;
	done: boolean;
}

/** What reached the second listener ("catcher"): never the key's value, only whether it came along. */
export interface CaughtRequest {
	method: string;
	path: string;
	/** The x-api-key value replaced by "<redacted>". */
	headers: Record<string, string>;
	apiKeyReceived: boolean;
	body: string;
	at: string;
}

export interface Lead {
	id: string;
	number: string;
	name: string;
	archived: boolean;
	createdAt: string;
	title: string | null;
	email: string | null;
	mobile: string | null;
	secondaryMobile: string | null;
	website: unknown;
	value: number | null;
	sourceId: string | null;
	stageId: string | null;
	customFields: JsonObject | null;
	/** Other keys, as the client sent them. */
	[extra: string]: unknown;
}

/** A deal as POST /deals answers it (api.ts builds it). */
export type Deal = JsonObject & { id: string };

/** An invoice as POST /invoices answers it (api.ts builds it). */
export type Invoice = JsonObject & { id: string };

/** A client as GET /clients/{id} answers it (store.ts seeds them). */
export type Client = JsonObject & { id: string; name: string };

export interface Product {
	id: string;
	name: string;
	price: number;
	type: string;
	isActive: boolean;
	description: string | null;
	sku: string | null;
}

export interface User {
	id: string;
	firstName: string;
	lastName: string;
	email: string;
	role: string;
	jobTitle: string;
	active: boolean;
	createdAt: string;
}

export interface Contact {
	id: string;
	number: string;
	firstName: string;
	lastName: string;
	email: string;
	createdAt: string;
}

export interface WebhookSubscription {
	id: string;
	name: string;
	url: string;
	events: string[];
	status: 'active' | 'disabled';
	/** whsec_ + base64(24 random bytes). Returned by the API only at creation. */
	secret: string;
	createdAt: string;
	/** During a rotation: the previous secret, which signs too until the ISO date. */
	previousSecret?: string;
	previousSecretExpiresAt?: string;
}

/** The switches of `POST /__sandbox/config` (README); reset keeps them. */
export interface SandboxConfig {
	rateLimit: RateLimitConfig | false;
	timeScale: number;
	personality: SandboxPersonality;
	/** One delivery to each new subscription, queued right after POST /webhooks answered. */
	deliverOnCreate: { event: string; payload: unknown } | false;
	listOrder: ListOrder;
	/** What PATCH /leads and /deals do with `customFields`. */
	patchCustomFields: 'replace' | 'merge';
	/** The activity switch (README). Off (false) by default. */
	activity: { everyMs: number } | false;
	/** One subscription per URL: POST /webhooks answers that one without its secret, or 409. */
	onePerUrl: 'answer' | 'conflict' | false;
	/** URLs stored as `new URL(url).href`. */
	normalUrls: boolean;
	/** GET /api/v1/leads answers this long after it arrived (a slow CRM for the polling trigger's budget). */
	leadListDelayMs: number;
}

/** Which seeded user an API key acts for. */
export type KeyRole = 'admin' | 'readOnly';

export type { SandboxServer as Sandbox } from './server';

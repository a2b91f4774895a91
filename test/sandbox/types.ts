/**
 * Public types of the sandbox CRM server (see server.ts for startSandbox).
 *
 * The record interfaces describe exactly what the API returns, so that tests reading
 * `sandbox.state` see the same objects a client would see.
 */

export type JsonObject = Record<string, unknown>;

export interface RateLimitConfig {
	limit: number;
	windowMs: number;
	/**
	 * The `burst` switch: requests of the same key that another client (another n8n process, another integration)
	 * spends at the start of every window, in one burst, before this client's first request is counted. 0 by default.
	 */
	spentByOthers?: number;
}

/**
 * How the sandbox resolves the points the spec leaves open ("not shown").
 * - 'standard': the package's reading (today's behaviour).
 * - 'alternate': the other plausible reading, to test the node against a stricter server:
 *   POST /webhooks accepts only lead.created (400 for other names); PATCH /leads/{id} ignores keys the POST /leads
 *   body does not list (archived, customFields, any other key) and answers 204 with no body; GET /webhooks answers a
 *   bare array of every subscription; only 429 answers carry RateLimit-* headers (with Retry-After); 400 answers have
 *   a plain-text body and 404 answers a `{ message }` body; the users search parameter is ignored.
 */
export type SandboxPersonality = 'standard' | 'alternate';

export const PERSONALITIES: readonly SandboxPersonality[] = ['standard', 'alternate'];

/**
 * The order in which GET /leads lists leads (the spec does not show it): oldest first (default) or newest first, both
 * by creation in the CRM; or `newestCreated`, newest first by the leads' `createdAt`, where a lead imported with an old
 * `createdAt` (POST /__sandbox/import) sits among the leads of its date, not at the head.
 */
export type ListOrder = 'oldest' | 'newest' | 'newestCreated';
export const LIST_ORDERS: readonly ListOrder[] = ['oldest', 'newest', 'newestCreated'];

/**
 * The activity switch: every `everyMs` the sandbox creates a lead, changes a lead's fields and archives a lead (one
 * action per tick, in turn), so that a polling trigger has something to report. Off (false) by default.
 */
export interface ActivityConfig {
	everyMs: number;
}

export interface SandboxOptions {
	/** TCP port; 0 picks a free one. Default 0. */
	port?: number;
	/** Listen address. Default '127.0.0.1'. */
	host?: string;
	/** Fixed window per API key. Default 60 per 60000 ms; false = unlimited (no RateLimit-* headers). */
	rateLimit?: RateLimitConfig | false;
	/** Multiplier for the webhook retry delays of spec §8. Default 1. */
	timeScale?: number;
	/** How long one delivery attempt may take before it counts as 'timeout'. Default 20000. */
	deliveryTimeoutMs?: number;
	/** Extra generated leads on top of the 3 seeded ones. Default 0. */
	seedLeads?: number;
	apiKeys?: { admin?: string; readOnly?: string };
	/** How the spec's silences are resolved. Default 'standard'. */
	personality?: SandboxPersonality;
	/** The order of GET /leads. Default 'oldest'. */
	listOrder?: ListOrder;
	/** Creates, changes and archives leads at an interval. Default off. */
	activity?: ActivityConfig | false;
}

export interface RequestLogEntry {
	/** Increases by one per logged request and never restarts (not even after clearRequests or reset). */
	seq: number;
	method: string;
	/** Path without the query string. */
	path: string;
	query: Record<string, string>;
	/** Lower-case header names. */
	headers: Record<string, string>;
	/** Parsed JSON, the raw string when it is not JSON, or undefined when there was no body. */
	body: unknown;
	/** HTTP status sent; 0 when a fault closed the connection without a response. */
	status: number;
	/** When the request arrived (ISO). */
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
	/** The webhook-id header: the same on every attempt of one delivery. */
	webhookId: string;
	event: string;
	/** 1-based attempt number. */
	attempt: number;
	url: string;
	status: DeliveryStatus;
	/** When the attempt was made (ISO). */
	at: string;
	outcome: DeliveryOutcome;
	/** Error text for 'error' attempts. */
	error?: string;
}

export interface Fault {
	/** Only requests with this method (case-insensitive); any method when absent. */
	method?: string;
	/** Only requests whose path starts with this, e.g. '/api/v1/leads'; any /api path when absent. */
	pathPrefix?: string;
	/** Status to answer with. */
	status: number;
	/** How many matching requests get the fault. */
	count: number;
	/** Answer with an HTML page (like a proxy error page) instead of the JSON error body. */
	html?: boolean;
	/** Wait this long before answering (or closing). */
	delayMs?: number;
	/** Destroy the socket instead of answering. */
	closeConnection?: boolean;
	/** Extra response headers, e.g. { 'retry-after': '1' }. */
	headers?: Record<string, string>;
	/** With `html`: pad the page to about this many bytes (a proxy's huge error page). */
	htmlBytes?: number;
	/** Answer with this JSON body instead of the error body (e.g. a list page whose cursor repeats). */
	body?: unknown;
	/**
	 * With a 3xx status: a Location on another origin. `'catcher'` is the sandbox's second listener (see
	 * `/__sandbox/catcher`), which records what reaches it; the original path and query are kept.
	 */
	redirectTo?: string;
	/** Accept the request and never answer (until the client gives up or the sandbox closes). */
	hang?: boolean;
	/**
	 * Send the status and headers at once, then the body one byte every `intervalMs` (a trickling server). The body
	 * is `body` (default a lead), led by spaces up to `bytes` in all (default 1,000), so it stays valid JSON.
	 */
	trickle?: { intervalMs: number; bytes?: number };
	/**
	 * An endless JSON body with this status: `[` then `{"id":"x"},` for ever, as fast as the client reads, until the
	 * client closes the connection or `endlessBytes` (default 8 GB) were sent. The bytes sent are logged in
	 * `streamedBytes` (GET /__sandbox/streams).
	 */
	endless?: boolean;
	endlessBytes?: number;
	/**
	 * Echo the x-api-key it got (a server that leaks the key back): `true` plainly in a 401's message (the status is
	 * the fault's), `"escaped"` JSON-escaped as `\/`, `\u002b`, `\u003d`; with a 2xx status in a lead record's `title`
	 * and `customFields.apiKey` (edgeFaults.ts).
	 */
	echoKey?: boolean | 'escaped';
	/** With a 3xx status: the Location exactly as given (`/admin/export-all`, a URL); see edgeFaults.ts. */
	location?: string;
	/** The fault answers every matching request for this long after the first (instead of `count` requests). */
	forMs?: number;
	/** `Date` and a `Retry-After` date written by a clock `skewMs` off (negative: behind); no `Date` with `sendDate: false`. */
	skewedClock?: { skewMs: number; sendDate?: boolean };
	/** A list that cycles: each answer a v1 page of one of two leads in turn, under a fresh next cursor (cyclePage). */
	cycle?: boolean;
}

/** What an endless or trickling fault sent before it stopped (GET /__sandbox/streams). */
export interface StreamRecord {
	path: string;
	kind: 'endless' | 'trickle';
	bytes: number;
	/** Whether the client closed the connection before the body ended. */
	closedByClient: boolean;
	done: boolean;
}

/** What reached the second listener ("catcher"): never the key's value, only whether it came along. */
export interface CaughtRequest {
	method: string;
	path: string;
	/** Headers as received, with the x-api-key value replaced by "<redacted>". */
	headers: Record<string, string>;
	apiKeyReceived: boolean;
	/** The body as text ('' when none). */
	body: string;
	at: string;
}

export type SandboxEvent =
	| 'lead.created'
	| 'lead.updated'
	| 'deal.created'
	| 'deal.updated'
	| 'deal.stage_changed'
	| 'invoice.created'
	| 'invoice.paid';

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
	/** Additional properties sent by the client are stored and returned as-is. */
	[extra: string]: unknown;
}

export type DealStatus = 'ACTIVE' | 'WON' | 'LOST';
export type Priority = 'LOW' | 'MEDIUM' | 'HIGH';

export interface Deal {
	id: string;
	number: string;
	title: string;
	createdAt: string;
	price: number | null;
	status: DealStatus;
	priority: Priority | null;
	expectedCloseDate: string | null;
	clientId: string | null;
	pipelineId: string | null;
	stageId: string | null;
	sourceId: string | null;
	leadId: string | null;
	customFields?: JsonObject;
	[extra: string]: unknown;
}

export interface InvoiceLineItem {
	name: string;
	quantity: number;
	price: number;
	/** Tax rate in percent. */
	tax: number;
	discount: number;
	discountType: 'fixed' | 'percentage';
	buyPrice: number;
	viewType: 'LINE_ITEM';
	amount: number;
	taxAmount: number;
	discountAmount: number;
	description: string;
	/** Internal numeric product id, or null. */
	productId: number | null;
}

export type InvoiceStatus = 'DRAFT' | 'SENT' | 'PAID';

export interface Invoice {
	id: string;
	number: string;
	date: string;
	dueDate: string;
	status: InvoiceStatus;
	currency: string;
	isInclusiveTax: boolean;
	subTotal: number;
	taxTotal: number;
	discountTotal: number;
	total: number;
	pendingTotal: number;
	paidTotal: number;
	lineItems: InvoiceLineItem[];
	createdAt: string;
	clientId: string | null;
	contactId: string | null;
	subject: string | null;
	notes: string | null;
	/** Internal numeric user id of the sales person. */
	salesPersonId: number | null;
	templateId: string;
	tags: number[];
	customFields?: JsonObject;
	[extra: string]: unknown;
}

export interface Client {
	id: string;
	number: string;
	name: string;
	type: 'company' | 'contact';
	createdAt: string;
	firstName: string | null;
	lastName: string | null;
	email: string | null;
	phone: string | null;
	website: string | null;
	stageId: string | null;
	customFields?: JsonObject;
}

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

export type WebhookStatus = 'active' | 'disabled';

export interface WebhookSubscription {
	id: string;
	name: string;
	url: string;
	events: string[];
	status: WebhookStatus;
	/** whsec_ + base64(24 random bytes). Returned by the API only at creation. */
	secret: string;
	createdAt: string;
	/** During a rotation window: the previous secret, whose signature is also sent. */
	previousSecret?: string;
	/** End of the rotation window (ISO). */
	previousSecretExpiresAt?: string;
}

export interface TaxRate {
	id: string;
	name: string;
	/** Percent. */
	rate: number;
}

export interface NamedRef {
	id: string;
	/** Internal numeric id (lead stage payloads carry it as stageId). */
	internalId: number;
	name: string;
}

export interface Pipeline {
	id: string;
	name: string;
	stages: NamedRef[];
}

/** Read access to a store: the values in creation order plus lookup by public id. */
export interface ReadonlyCollection<T> {
	readonly size: number;
	get(id: string): T | undefined;
	has(id: string): boolean;
	values(): T[];
}

export interface SandboxState {
	leads: ReadonlyCollection<Lead>;
	deals: ReadonlyCollection<Deal>;
	invoices: ReadonlyCollection<Invoice>;
	clients: ReadonlyCollection<Client>;
	products: ReadonlyCollection<Product>;
	users: ReadonlyCollection<User>;
	contacts: ReadonlyCollection<Contact>;
	webhooks: ReadonlyCollection<WebhookSubscription>;
	taxRates: ReadonlyMap<string, TaxRate>;
	pipelines: ReadonlyMap<string, Pipeline>;
	leadStages: ReadonlyMap<string, NamedRef>;
	sources: ReadonlyMap<string, NamedRef>;
	/** Internal numeric ids (used in responses where the spec gives numbers). */
	userInternalIds: ReadonlyMap<string, number>;
	productInternalIds: ReadonlyMap<string, number>;
	/** Lead id → internal numeric id of the owning user. */
	leadOwners: ReadonlyMap<string, number>;
}

export interface SandboxConfig {
	rateLimit: RateLimitConfig | false;
	timeScale: number;
	deliveryTimeoutMs: number;
	personality: SandboxPersonality;
	/**
	 * A delivery sent while the subscription is being created: when set, every successful POST /webhooks queues one
	 * delivery to the new subscription right after its answer is written (before the client can have stored the
	 * secret). `event` defaults to the subscription's first event. Off (false) by default.
	 */
	deliverOnCreate: DeliverOnCreate | false;
	/**
	 * A server that ignores the page size: when a number, every list (GET /leads, /users, /webhooks, v2 /contacts)
	 * answers pages of this many records whatever `limit`/`pageSize` asks (1 to 1,000,000). Off (false) by default;
	 * kept across reset(), like the personality, so tests that set it set it back.
	 */
	ignoreLimit: number | false;
	/** The order of GET /leads; kept across reset. */
	listOrder: ListOrder;
	/**
	 * What PATCH /leads/{id} and PATCH /deals/{id} do with `customFields`, which the spec does not show: `replace` (the
	 * default) stores the object sent as the whole of the record's custom fields, `merge` sets only the keys sent.
	 * Kept across reset.
	 */
	patchCustomFields: PatchCustomFields;
	/** Creates, changes and archives leads at an interval; kept across reset. */
	activity: ActivityConfig | false;
	/**
	 * A CRM that keeps one webhook subscription per URL (the spec does not say): a POST /webhooks for a URL that has one
	 * answers that one without its secret (`answer`) or 409 (`conflict`). Off (false) by default; kept across reset.
	 */
	onePerUrl: 'answer' | 'conflict' | false;
	/** Subscriptions' URLs stored in normal form (lower-case scheme and host, no default port); kept across reset. */
	normalUrls: boolean;
}

export interface DeliverOnCreate {
	event?: string;
	payload?: unknown;
}

/** Which seeded user an API key acts for. */
export type KeyRole = 'admin' | 'readOnly';

export interface Sandbox {
	/** Base URL before /api/v1, e.g. http://127.0.0.1:5680 */
	url: string;
	port: number;
	keys: { admin: string; readOnly: string };
	/** Live log of every /api request. */
	readonly requests: RequestLogEntry[];
	/** What endless and trickling faults sent, for tests and bench/ (also GET /__sandbox/streams). */
	readonly streams: StreamRecord[];
	/** Live log of every webhook delivery attempt. */
	readonly deliveries: DeliveryLogEntry[];
	/** Current stores (replaced on reset; read it through this getter). */
	readonly state: SandboxState;
	readonly config: Readonly<SandboxConfig>;
	clearRequests(): void;
	/**
	 * Back to the seed state: data, logs, subscriptions, faults, rate-limit windows, pending deliveries, added and
	 * revoked keys. Config is kept.
	 */
	reset(): void;
	/**
	 * The key switch, for key rotations: another key of the workspace acting for the admin (default) or the read-only
	 * user; also `POST /__sandbox/keys {"key": "sk_…", "role": "admin"}`.
	 */
	addKey(key: string, role?: KeyRole): void;
	/** The key switch: from now on the key gets 401; also `DELETE /__sandbox/keys/{key}`. */
	revokeKey(key: string): void;
	/** A number keeps the current window length (60000 ms when unlimited before). */
	setRateLimit(rateLimit: RateLimitConfig | number | false): void;
	setTimeScale(timeScale: number): void;
	/** Kept across reset(), like the rate limit: tests that change it set it back. */
	setPersonality(personality: SandboxPersonality): void;
	/** The order of GET /leads; kept across reset(). */
	setListOrder(order: ListOrder): void;
	/** The activity switch (false turns it off); kept across reset(). */
	setActivity(activity: ActivityConfig | false): void;
	/**
	 * Appends n generated leads; returns the total number of leads. With `mention`, each generated lead's name starts
	 * with that text (e.g. an email address: leads the API's search finds for it by name, not by email).
	 */
	seedLeads(n: number, mention?: string): number;
	addFault(fault: Fault): void;
	/** Starts the second listener (another port, so another origin) and resolves to its URL. */
	startCatcher(): Promise<string>;
	/** What reached the second listener since it started (or since DELETE /__sandbox/catcher). */
	readonly caught: CaughtRequest[];
	clearFaults(): void;
	/** Delivers an event to every active subscription that selected it; returns the webhook-ids queued. */
	emit(event: string, payload: unknown): string[];
	/** Marks an invoice paid and emits invoice.paid. */
	payInvoice(id: string): Invoice;
	/** New secret for a subscription; the old one keeps signing too for windowMs (default 24 h). */
	rotateWebhookSecret(id: string, windowMs?: number): WebhookSubscription;
	/** The rotation switch for every subscription at once (`POST /__sandbox/config {"rotation": …}`): README. */
	setRotation(phase: 'both' | 'new'): string[];
	/** Resolves when no delivery attempt is pending or in flight (or rejects after timeoutMs). */
	deliveriesSettled(timeoutMs?: number): Promise<void>;
	close(): Promise<void>;
}

/** The two readings of PATCH's `customFields` (SandboxConfig.patchCustomFields). */
export type PatchCustomFields = 'replace' | 'merge';

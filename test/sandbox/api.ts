/** The /api/v1 and /api/v2 routes: validation, the stores, and the events each change emits (plumbing: server.ts). */
import type { Collection, Store } from './store';
import { ADMIN_USER_INTERNAL_ID, addLead, formatNumber, randomId } from './store';
import { listNewestCreated } from './leadImports';
import type {
	Contact,
	Deal,
	Invoice,
	JsonObject,
	Lead,
	ListOrder,
	Product,
	SandboxConfig,
	WebhookSubscription,
} from './types';
import type { Answer } from './jsonText';
import { generateSecret } from './webhooks';

export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
	) {
		super(message);
	}
}

export const validationError = (message: string): ApiError =>
	new ApiError(400, 'VALIDATION_ERROR', message);
export const notFound = (message: string): ApiError => new ApiError(404, 'NOT_FOUND', message);

/** The record of that id, or a 404 naming it ("Lead lead_x was not found"). */
function found<T>(collection: { get(id: string): T | undefined }, what: string, id: string): T {
	const record = collection.get(id);
	if (!record) throw notFound(`${what} ${id} was not found`);
	return record;
}

export function errorBody(code: string, message: string) {
	return { error: { code, message } };
}

/** A request and the switches of SandboxConfig (README) that the routes read. */
export interface ApiRequest
	extends Pick<
		SandboxConfig,
		'personality' | 'listOrder' | 'patchCustomFields' | 'onePerUrl' | 'normalUrls'
	> {
	method: string;
	path: string;
	query: Record<string, string>;
	rawBody: string | undefined;
	/** Internal id of the user who owns the API key. */
	userInternalId: number;
	readOnly: boolean;
}

export interface ApiHost {
	store: Store;
	emit(event: string, payload: unknown): void;
}

interface Route {
	method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
	pattern: RegExp;
	/** Resource named in 403 messages, for writes. */
	resource?: string;
	handler: (host: ApiHost, request: ApiRequest, params: string[]) => Answer;
}

const VERBS: Record<string, string> = { POST: 'create', PATCH: 'update', DELETE: 'delete' };

const ID = '([^/]+)';

function route(
	method: Route['method'],
	path: string,
	handler: Route['handler'],
	resource?: string,
): Route {
	return { method, pattern: new RegExp(`^/api/${path}$`), resource, handler };
}

/** GET of one record by id: 404 naming it when there is none. */
function getOne(what: string, name: 'leads' | 'deals' | 'invoices' | 'clients' | 'products') {
	const handler: Route['handler'] = (host, _request, [id]) => ({
		status: 200,
		body: found<unknown>(host.store[name], what, id),
	});
	return route('GET', `v1/${name}/${ID}`, handler);
}

const routes: Route[] = [
	route('GET', 'v1/leads', listLeads),
	route('POST', 'v1/leads', createLead, 'leads'),
	getOne('Lead', 'leads'),
	route('PATCH', `v1/leads/${ID}`, updateLead, 'leads'),
	route('POST', 'v1/deals', createDeal, 'deals'),
	getOne('Deal', 'deals'),
	route('PATCH', `v1/deals/${ID}`, updateDeal, 'deals'),
	route('POST', 'v1/invoices', createInvoice, 'invoices'),
	getOne('Invoice', 'invoices'),
	getOne('Client', 'clients'),
	getOne('Product', 'products'),
	route('GET', 'v1/users', listUsers),
	route('POST', 'v1/webhooks', createWebhook, 'webhooks'),
	route('GET', 'v1/webhooks', listWebhooks),
	route('GET', `v1/webhooks/${ID}`, getWebhook),
	route('DELETE', `v1/webhooks/${ID}`, deleteWebhook, 'webhooks'),
	route('GET', 'v2/contacts', listContacts),
];

/** Routes one authenticated, rate-limited /api request. Throws ApiError for 4xx answers. */
export function handleApi(host: ApiHost, request: ApiRequest): Answer {
	for (const candidate of routes) {
		const match = candidate.method === request.method && candidate.pattern.exec(request.path);
		if (!match) continue;
		if (candidate.resource && request.readOnly) {
			const action = `${VERBS[candidate.method]} ${candidate.resource}`;
			const message = `The user who owns this API key does not have permission to ${action}.`;
			throw new ApiError(403, 'FORBIDDEN', message);
		}
		return candidate.handler(host, request, match.slice(1).map(decodeSegment));
	}
	throw notFound(`Route ${request.method} ${request.path} was not found`);
}

function decodeSegment(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

// ---------------------------------------------------------------- validation helpers

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE_TIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
/** Keys a client cannot set: the server assigns them. */
const READ_ONLY_KEYS = new Set(['id', 'number', 'createdAt']);

export function isObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The parsed body as an object; an empty body counts as {}. */
export function parseObjectBody(rawBody: string | undefined): JsonObject {
	if (rawBody === undefined || rawBody.trim() === '') return {};
	let parsed: unknown;
	try {
		parsed = JSON.parse(rawBody);
	} catch {
		throw validationError('The request body is not valid JSON');
	}
	if (!isObject(parsed)) throw validationError('The request body must be a JSON object');
	return parsed;
}

function has(body: JsonObject, field: string): boolean {
	return Object.prototype.hasOwnProperty.call(body, field) && body[field] !== undefined;
}

function requiredString(body: JsonObject, field: string, nonEmpty = false): string {
	const value = body[field];
	if (value === undefined || value === null) throw validationError(`${field} is required`);
	if (typeof value !== 'string') throw validationError(`${field} must be a string`);
	if (nonEmpty && value === '') throw validationError(`${field} must be at least 1 character`);
	return value;
}

const isDateTime = (value: unknown): boolean =>
	typeof value === 'string' && DATE_TIME_RE.test(value) && !Number.isNaN(Date.parse(value));

/** The kinds of field: the words of their 400 ("value must be a number") and their test. */
const KINDS = {
	string: ['a string', (value: unknown) => typeof value === 'string'],
	number: ['a number', (value: unknown) => typeof value === 'number' && Number.isFinite(value)],
	boolean: ['a boolean', (value: unknown) => typeof value === 'boolean'],
	object: ['an object', isObject],
	dateTime: ['an ISO 8601 date-time', isDateTime],
} as const;

/** The field's value when it is of that kind, or null (except a boolean); else a 400. */
function typed<T>(body: JsonObject, field: string, kind: keyof typeof KINDS): T {
	const value = body[field];
	const [what, ok] = KINDS[kind];
	if ((value !== null || kind === 'boolean') && !ok(value))
		throw validationError(`${field} must be ${what}`);
	return value as T;
}

/** One of the allowed values; else a 400 that names them. */
export function oneOf<T>(value: unknown, name: string, allowed: readonly T[]): T {
	if (!allowed.includes(value as T))
		throw validationError(`${name} must be one of ${allowed.join(', ')}`);
	return value as T;
}

function existingRef(
	body: JsonObject,
	field: string,
	collection: { has(id: string): boolean },
	what: string,
): string {
	const value = body[field];
	if (typeof value !== 'string') throw validationError(`${field} must be a string`);
	if (!collection.has(value))
		throw validationError(`${field} ${value} does not refer to an existing ${what}`);
	return value;
}

/** A field's check: the value to store, or a 400. */
type Check = (body: JsonObject, field: string, store: Store) => unknown;
const kind =
	(name: keyof typeof KINDS): Check =>
	(body, field) =>
		typed(body, field, name);

/** Copies the keys the route does not know about, as sent. */
function extraKeys(body: JsonObject, known: readonly string[]): JsonObject {
	const extra: JsonObject = {};
	for (const [key, value] of Object.entries(body)) {
		if (!known.includes(key) && !READ_ONLY_KEYS.has(key)) extra[key] = value;
	}
	return extra;
}

/** The keys the table does not know, as sent, then the fields it checks that the body sends (or `required`). */
function fieldsOf(
	body: JsonObject,
	checks: Record<string, Check>,
	required: readonly string[],
	store: Store,
): JsonObject {
	const fields = extraKeys(body, Object.keys(checks));
	for (const [field, check] of Object.entries(checks)) {
		if (has(body, field) || required.includes(field)) fields[field] = check(body, field, store);
	}
	return fields;
}

// ---------------------------------------------------------------- pagination

function parseLimit(query: Record<string, string>, name: string, defaultValue: number): number {
	const raw = query[name];
	if (raw === undefined) return defaultValue;
	const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
	if (!(value >= 1 && value <= 100)) throw validationError(`${name} must be between 1 and 100`);
	return value;
}

/** An opaque cursor: its list's kind and the numbers of the last record given. */
function encodeCursor(kind: string, ...numbers: number[]): string {
	return Buffer.from([kind, ...numbers].join(':'), 'utf8').toString('base64url');
}

/** The cursor's kind (one of `kinds`) and numbers; undefined when none was sent, a 400 for one that is not one. */
function decodeCursor(query: Record<string, string>, kinds: readonly string[]) {
	const raw = query.cursor;
	if (raw === undefined || raw === '') return undefined;
	const [kind, ...parts] = Buffer.from(raw, 'base64url').toString('utf8').split(':');
	const numeric = parts.length > 0 && parts.every((part) => /^-?\d{1,15}$/.test(part));
	if (!kinds.includes(kind) || !numeric) throw validationError('cursor is not valid');
	return { kind, numbers: parts.map(Number) };
}

function parseBooleanQuery(query: Record<string, string>, name: string): boolean | undefined {
	const raw = query[name];
	if (raw === undefined || raw === '') return undefined;
	if (raw === 'true') return true;
	if (raw === 'false') return false;
	throw validationError(`${name} must be true or false`);
}

/** One page of a list: `limit` values, those `filter` keeps, newest first with `newest`. */
interface PageRequest<T> {
	limit: number;
	filter?: (value: T) => boolean;
	newest?: boolean;
}

function pageOf<T extends { id: string }>(
	collection: Collection<T>,
	kind: string,
	query: Record<string, string>,
	{ limit, filter, newest = false }: PageRequest<T>,
): { items: T[]; hasMore: boolean; nextCursor: string | null } {
	const after = decodeCursor(query, [kind])?.numbers[0];
	const page = collection.page(after, limit, filter, newest);
	return {
		items: page.items,
		hasMore: page.hasMore,
		nextCursor: page.hasMore ? encodeCursor(kind, page.lastSeq) : null,
	};
}

function containsIgnoreCase(needle: string, ...haystacks: unknown[]): boolean {
	return haystacks.some(
		(value) => typeof value === 'string' && value.toLowerCase().includes(needle),
	);
}

// ---------------------------------------------------------------- leads

/** The fields of the spec's POST /leads body, then those PATCH also sets (the alternate PATCH ignores every other key). */
const LEAD_FIELDS: Record<string, Check> = {
	name: (body, field) => requiredString(body, field, true),
	email: (body) => {
		if (body.email !== null && (typeof body.email !== 'string' || !EMAIL_RE.test(body.email)))
			throw validationError('email must be a valid email address');
		return body.email;
	},
	title: kind('string'),
	mobile: kind('string'),
	secondaryMobile: kind('string'),
	sourceId: kind('string'),
	stageId: kind('string'),
	value: kind('number'),
	website: (body) => body.website,
	customFields: kind('object'),
	archived: kind('boolean'),
};
const POST_LEAD_KEYS = Object.keys(LEAD_FIELDS).slice(0, -2);

/** The lead event payload of spec §6. */
export function leadPayload(store: Store, lead: Lead): JsonObject {
	const stage = lead.stageId ? store.leadStages.get(lead.stageId) : undefined;
	const source = lead.sourceId ? store.sources.get(lead.sourceId) : undefined;
	const ownerId = store.leadOwners.get(lead.id) ?? ADMIN_USER_INTERNAL_ID;
	const owner = store.users.values().find((user) => store.userInternalIds.get(user.id) === ownerId);
	return {
		id: lead.id,
		name: lead.name,
		email: lead.email,
		mobile: lead.mobile,
		title: lead.title,
		value: lead.value,
		source: source?.name ?? null,
		stage: stage?.name ?? null,
		stageId: stage?.internalId ?? null,
		archived: lead.archived,
		createdAt: lead.createdAt,
		customFields: lead.customFields ?? {},
		ownerId,
		ownerName: owner ? `${owner.firstName} ${owner.lastName}` : null,
	};
}

function createLead(host: ApiHost, request: ApiRequest): Answer {
	const fields = fieldsOf(parseObjectBody(request.rawBody), LEAD_FIELDS, ['name'], host.store);
	const lead = addLead(host.store, fields as Lead, request.userInternalId);
	host.emit('lead.created', leadPayload(host.store, lead));
	return { status: 200, body: lead };
}

function listLeads(host: ApiHost, request: ApiRequest): Answer {
	const { query } = request;
	const limit = parseLimit(query, 'limit', 20);
	const search = (query.search ?? '').toLowerCase();
	const archived = parseBooleanQuery(query, 'archived');
	const stageId = query.stageId || undefined;
	const filtered = search !== '' || archived !== undefined || stageId !== undefined;
	const filter = filtered
		? (lead: Lead): boolean =>
				(archived === undefined || lead.archived === archived) &&
				(stageId === undefined || lead.stageId === stageId) &&
				(search === '' ||
					containsIgnoreCase(search, lead.name, lead.email, lead.mobile, lead.website))
		: undefined;
	// Each order's cursors have their own kind: a cursor continues in the order its listing started in.
	const cursor = decodeCursor(query, [...ORDER_OF_CURSOR.keys()]);
	const order = cursor ? ORDER_OF_CURSOR.get(cursor.kind) : request.listOrder;
	if (order === 'newestCreated') {
		const after = cursor && { at: cursor.numbers[0], seq: cursor.numbers[1] ?? 0 };
		const { items, hasMore, last } = listNewestCreated(host.store, after, limit, filter);
		const nextCursor = hasMore ? encodeCursor('leadsdate', last.at, last.seq) : null;
		return { status: 200, body: { items, hasMore, nextCursor } };
	}
	const newest = order === 'newest';
	const kind = newest ? 'leadsnew' : 'leads';
	return { status: 200, body: pageOf(host.store.leads, kind, query, { limit, filter, newest }) };
}

const ORDER_OF_CURSOR = new Map<string, ListOrder>([
	['leads', 'oldest'],
	['leadsnew', 'newest'],
	['leadsdate', 'newestCreated'],
]);

function updateLead(host: ApiHost, request: ApiRequest, [id]: string[]): Answer {
	const lead = found(host.store.leads, 'Lead', id);
	const body = Object.entries(parseObjectBody(request.rawBody));
	const alternate = request.personality === 'alternate';
	const sent = alternate ? body.filter(([key]) => POST_LEAD_KEYS.includes(key)) : body;
	const fields = fieldsOf(Object.fromEntries(sent), LEAD_FIELDS, [], host.store);
	Object.assign(lead, withCustomFields(request, lead, fields));
	host.emit('lead.updated', leadPayload(host.store, lead));
	return alternate ? { status: 204 } : { status: 200, body: lead };
}

/** PATCH's `customFields` under the `merge` switch: the keys sent set on the record's own; else as sent (replace). */
function withCustomFields(request: ApiRequest, record: JsonObject, fields: JsonObject): JsonObject {
	if (request.patchCustomFields !== 'merge' || !isObject(fields.customFields)) return fields;
	const own = isObject(record.customFields) ? record.customFields : {};
	return { ...fields, customFields: { ...own, ...fields.customFields } };
}

// ---------------------------------------------------------------- deals

const DEAL_FIELDS: Record<string, Check> = {
	title: (body, field) => requiredString(body, field, true),
	pipelineId: (body, field) => requiredString(body, field),
	stageId: (body, field) => requiredString(body, field),
	clientId: (body, field, store) => {
		requiredString(body, field);
		return existingRef(body, field, store.clients, 'client');
	},
	leadId: kind('string'),
	sourceId: kind('string'),
	price: kind('number'),
	expectedCloseDate: kind('dateTime'),
	priority: (body, field) =>
		body.priority === null ? null : oneOf(body[field], field, ['LOW', 'MEDIUM', 'HIGH'] as const),
	status: (body, field) => oneOf(body[field], field, ['ACTIVE', 'WON', 'LOST'] as const),
	customFields: kind('object'),
};

/** A deal's fields from the body; a null `customFields` leaves the deal's own. */
function dealFields(host: ApiHost, request: ApiRequest, creating: boolean): JsonObject {
	const required = creating ? ['title', 'pipelineId', 'stageId', 'clientId'] : [];
	const fields = fieldsOf(parseObjectBody(request.rawBody), DEAL_FIELDS, required, host.store);
	if (fields.customFields === null) delete fields.customFields;
	return fields;
}

function createDeal(host: ApiHost, request: ApiRequest): Answer {
	const fields = dealFields(host, request, true);
	const { store } = host;
	store.counters.deal++;
	const deal: Deal = {
		id: randomId('deal_'),
		number: formatNumber('D', store.counters.deal),
		title: fields.title,
		createdAt: new Date().toISOString(),
		price: null,
		status: 'ACTIVE',
		priority: null,
		expectedCloseDate: null,
		clientId: null,
		pipelineId: null,
		stageId: null,
		sourceId: null,
		leadId: null,
	};
	Object.assign(deal, fields);
	store.deals.add(deal);
	host.emit('deal.created', deal);
	return { status: 200, body: deal };
}

function updateDeal(host: ApiHost, request: ApiRequest, [id]: string[]): Answer {
	const deal = found(host.store.deals, 'Deal', id);
	const fields = dealFields(host, request, false);
	const previousStageId = deal.stageId;
	Object.assign(deal, withCustomFields(request, deal, fields));
	host.emit('deal.updated', deal);
	if (deal.stageId !== previousStageId)
		host.emit('deal.stage_changed', { ...deal, previousStageId });
	return { status: 200, body: deal };
}

// ---------------------------------------------------------------- invoices

const INVOICE_KEYS =
	'clientId date dueDate lineItems isInclusiveTax status contactId subject notes salesPersonId templateId tags customFields'.split(
		' ',
	);
const DEFAULT_TEMPLATE_ID = 'tpl_default';

const round2 = (value: number): number => Math.round((value + Number.EPSILON) * 100) / 100;

/** A line item's fields as sent, checked, with the product's name, price and description when not sent. */
function lineItemInput(host: ApiHost, raw: unknown, index: number) {
	const at = `lineItems[${index}]`;
	if (!isObject(raw)) throw validationError(`${at} must be an object`);
	// Field names in messages carry the item's position, e.g. "lineItems[0].price must be a number".
	const item: JsonObject = {};
	for (const [key, value] of Object.entries(raw)) item[`${at}.${key}`] = value;
	const f = (name: string): string => `${at}.${name}`;
	const sent = (name: string): boolean => has(item, f(name));
	const { store } = host;
	let product: (Product & { internalId: number }) | undefined;
	if (sent('productId') && item[f('productId')] !== null) {
		const productId = existingRef(item, f('productId'), store.products, 'product');
		const known = store.products.get(productId);
		if (known) product = { ...known, internalId: store.productInternalIds.get(productId) ?? 0 };
	}
	const name = sent('name') ? requiredString(item, f('name')) : product?.name;
	if (name === undefined) throw validationError(`${f('name')} is required`);
	const quantity = sent('quantity') ? typed<number | null>(item, f('quantity'), 'number') : 1;
	if (quantity === null || quantity <= 0)
		throw validationError(`${f('quantity')} must be greater than 0`);
	const price = sent('price') ? typed<number | null>(item, f('price'), 'number') : product?.price;
	if (price === undefined || price === null) throw validationError(`${f('price')} is required`);
	const description =
		(sent('description')
			? typed<string | null>(item, f('description'), 'string')
			: product?.description) ?? '';
	let tax = 0;
	if (sent('taxRateId') && item[f('taxRateId')] !== null) {
		const taxRateId = existingRef(item, f('taxRateId'), store.taxRates, 'tax rate');
		tax = store.taxRates.get(taxRateId)?.rate ?? 0;
	}
	const discountType = sent('discountType')
		? oneOf(item[f('discountType')], f('discountType'), ['fixed', 'percentage'] as const)
		: 'fixed';
	const discount =
		(sent('discount') ? typed<number | null>(item, f('discount'), 'number') : 0) ?? 0;
	if (discount < 0) throw validationError(`${f('discount')} must not be negative`);
	if (discountType === 'percentage' && discount > 100)
		throw validationError(`${f('discount')} must be between 0 and 100 for percentage discounts`);
	const buyPrice =
		(sent('buyPrice') ? typed<number | null>(item, f('buyPrice'), 'number') : 0) ?? 0;
	const productId = product?.internalId ?? null;
	return { name, quantity, price, tax, discount, discountType, buyPrice, description, productId };
}

type InvoiceLineItem = ReturnType<typeof lineItem>;

function lineItem(host: ApiHost, raw: unknown, index: number, isInclusiveTax: boolean) {
	const input = lineItemInput(host, raw, index);
	const { quantity, price, tax, discount } = input;
	const amount = round2(quantity * price);
	const fixed = input.discountType === 'fixed';
	const discountAmount = round2(fixed ? discount : (amount * discount) / 100);
	const taxable = amount - discountAmount;
	// With inclusive tax the price already contains the tax: extract it instead of adding it.
	const taxAmount = round2(isInclusiveTax ? (taxable * tax) / (100 + tax) : (taxable * tax) / 100);
	return { ...input, viewType: 'LINE_ITEM' as const, amount, taxAmount, discountAmount };
}

function createInvoice(host: ApiHost, request: ApiRequest): Answer {
	const body = parseObjectBody(request.rawBody);
	const { store } = host;
	const { date, dueDate, status, isInclusiveTax, lineItems, refs, ...rest } = invoiceFields(
		host,
		body,
	);
	store.counters.invoice++;
	const invoice: Invoice = {
		...extraKeys(body, INVOICE_KEYS),
		id: randomId('inv_'),
		number: formatNumber('INV', store.counters.invoice),
		date,
		dueDate,
		status,
		currency: 'USD',
		isInclusiveTax,
		...invoiceTotals(lineItems, isInclusiveTax),
		lineItems,
		createdAt: new Date().toISOString(),
		...refs,
		templateId: rest.templateId ?? DEFAULT_TEMPLATE_ID,
		tags: rest.tags,
	};
	if (rest.customFields) invoice.customFields = rest.customFields;
	store.invoices.add(invoice);
	host.emit('invoice.created', invoice);
	return { status: 200, body: invoice };
}

/** The fields of POST /invoices, checked in the order the spec lists them. */
function invoiceFields(host: ApiHost, body: JsonObject) {
	const { store } = host;
	requiredString(body, 'clientId');
	const clientId = existingRef(body, 'clientId', store.clients, 'client');
	requiredString(body, 'date');
	const date = typed<string>(body, 'date', 'dateTime');
	requiredString(body, 'dueDate');
	const dueDate = typed<string>(body, 'dueDate', 'dateTime');
	if (!has(body, 'lineItems') || body.lineItems === null)
		throw validationError('lineItems is required');
	if (!Array.isArray(body.lineItems)) throw validationError('lineItems must be an array');
	if (body.lineItems.length < 1) throw validationError('lineItems must contain at least 1 item');
	const isInclusiveTax = has(body, 'isInclusiveTax')
		? typed<boolean>(body, 'isInclusiveTax', 'boolean')
		: false;
	const status = has(body, 'status')
		? oneOf(body.status, 'status', ['DRAFT', 'SENT'] as const)
		: 'DRAFT';
	const lineItems = body.lineItems.map((raw: unknown, index: number) =>
		lineItem(host, raw, index, isInclusiveTax),
	);
	let salesPersonId: number | null = null;
	if (has(body, 'salesPersonId') && body.salesPersonId !== null) {
		const userId = existingRef(body, 'salesPersonId', store.users, 'user');
		salesPersonId = store.userInternalIds.get(userId) ?? null;
	}
	const text = (field: string): string | null =>
		has(body, field) ? typed<string | null>(body, field, 'string') : null;
	const [contactId, subject, notes, templateId] = [
		'contactId',
		'subject',
		'notes',
		'templateId',
	].map(text);
	const tags = body.tags ?? [];
	const numbers =
		Array.isArray(tags) && tags.every((tag) => typeof tag === 'number' && Number.isFinite(tag));
	if (!numbers) throw validationError('tags must be an array of numbers');
	const customFields = has(body, 'customFields')
		? typed<JsonObject | null>(body, 'customFields', 'object')
		: null;
	const refs = { clientId, contactId, subject, notes, salesPersonId };
	const rest = { templateId, tags: tags as number[], customFields };
	return { date, dueDate, status, isInclusiveTax, lineItems, refs, ...rest };
}

/** An invoice's totals from its line items. */
function invoiceTotals(lineItems: InvoiceLineItem[], isInclusiveTax: boolean) {
	const sum = (amount: (item: InvoiceLineItem) => number): number =>
		lineItems.reduce((total, item) => total + amount(item), 0);
	const discountTotal = round2(sum((item) => item.discountAmount));
	const taxTotal = round2(sum((item) => item.taxAmount));
	// Subtotal is before tax: with inclusive prices the tax inside them is taken out.
	const subTotal = round2(
		isInclusiveTax ? sum((item) => item.amount) - taxTotal : sum((item) => item.amount),
	);
	const total = round2(subTotal - discountTotal + taxTotal);
	return { subTotal, taxTotal, discountTotal, total, pendingTotal: total, paidTotal: 0 };
}

// ---------------------------------------------------------------- users

function listUsers(host: ApiHost, request: ApiRequest): Answer {
	const { query } = request;
	const limit = parseLimit(query, 'limit', 20);
	const active = parseBooleanQuery(query, 'active');
	// The spec does not name the search parameter: the alternate reading ignores ours.
	const search = request.personality === 'alternate' ? '' : (query.search ?? '').toLowerCase();
	return {
		status: 200,
		body: pageOf(host.store.users, 'users', query, {
			limit,
			filter: (user) =>
				(active === undefined || user.active === active) &&
				(search === '' || containsIgnoreCase(search, user.firstName, user.lastName, user.email)),
		}),
	};
}

// ---------------------------------------------------------------- webhooks

/** The only event name the spec gives; the alternate POST /webhooks accepts no other. */
export const DOCUMENTED_EVENTS: readonly string[] = ['lead.created'];

const HTTP_WARNING = 'Webhook URL is not HTTPS; use HTTPS in production.';

/** A subscription as the API shows it after creation: without any secret. */
export function publicSubscription(subscription: WebhookSubscription) {
	const { id, name, url, events, status, createdAt } = subscription;
	return { id, name, url, events, status, createdAt };
}

function createWebhook(host: ApiHost, request: ApiRequest): Answer {
	const body = parseObjectBody(request.rawBody);
	const name = requiredString(body, 'name', true);
	const url = requiredString(body, 'url');
	const parsed = URL.canParse(url) ? new URL(url) : undefined;
	if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
		throw validationError('url must be a valid http or https URL');
	if (!has(body, 'events') || body.events === null) throw validationError('events is required');
	const events = body.events;
	if (
		!Array.isArray(events) ||
		!events.every((event: unknown) => typeof event === 'string' && event !== '')
	) {
		throw validationError('events must be an array of event names');
	}
	if (events.length < 1) throw validationError('events must contain at least 1 event');
	if (request.personality === 'alternate') {
		const unknown = [...new Set(events as string[])].filter(
			(event) => !DOCUMENTED_EVENTS.includes(event),
		);
		if (unknown.length > 0)
			throw validationError(
				`Unknown event names: ${unknown.join(', ')}. Supported events: ${DOCUMENTED_EVENTS.join(', ')}`,
			);
	}
	// The URL switches: stored in normal form; one subscription per URL (answered without its secret, or 409).
	const held = host.store.webhooks
		.values()
		.find((known) => new URL(known.url).href === parsed.href);
	if (held && request.onePerUrl === 'conflict')
		throw new ApiError(409, 'CONFLICT', `A webhook subscription for this URL exists: ${held.id}`);
	if (held && request.onePerUrl === 'answer')
		return { status: 200, body: publicSubscription(held) };
	const subscription: WebhookSubscription = {
		id: randomId('whk_'),
		name,
		url: request.normalUrls ? parsed.href : url,
		events: [...new Set(events as string[])],
		status: 'active',
		secret: generateSecret(),
		createdAt: new Date().toISOString(),
	};
	host.store.webhooks.add(subscription);
	return {
		status: 200,
		body:
			parsed.protocol === 'http:' ? { ...subscription, warnings: [HTTP_WARNING] } : subscription,
	};
}

function listWebhooks(host: ApiHost, request: ApiRequest): Answer {
	// Alternate: a bare array of every subscription (no page, no cursor).
	if (request.personality === 'alternate')
		return { status: 200, body: host.store.webhooks.values().map(publicSubscription) };
	const limit = parseLimit(request.query, 'limit', 20);
	const page = pageOf(host.store.webhooks, 'webhooks', request.query, { limit });
	return { status: 200, body: { ...page, items: page.items.map(publicSubscription) } };
}

function getWebhook(host: ApiHost, _request: ApiRequest, [id]: string[]): Answer {
	return { status: 200, body: publicSubscription(found(host.store.webhooks, 'Webhook', id)) };
}

function deleteWebhook(host: ApiHost, _request: ApiRequest, [id]: string[]): Answer {
	found(host.store.webhooks, 'Webhook', id);
	host.store.webhooks.delete(id);
	return { status: 204 };
}

// ---------------------------------------------------------------- v2

function listContacts(host: ApiHost, request: ApiRequest): Answer {
	const { query } = request;
	const pageSize = parseLimit(query, 'pageSize', 30);
	const search = (query.search ?? '').toLowerCase();
	const filter = (contact: Contact): boolean => {
		const { firstName, lastName, email, number } = contact;
		return search === '' || containsIgnoreCase(search, firstName, lastName, email, number);
	};
	const page = pageOf(host.store.contacts, 'contacts', query, { limit: pageSize, filter });
	return {
		status: 200,
		body: { data: page.items, meta: { nextCursor: page.nextCursor, hasMore: page.hasMore } },
	};
}

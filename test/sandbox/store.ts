import { createHash, randomBytes } from 'node:crypto';

import type {
	Client,
	Contact,
	Deal,
	Invoice,
	JsonObject,
	Lead,
	Product,
	User,
	WebhookSubscription,
} from './types';

/** Values in creation order, lookup by id, and a sequence number per value for cursors. */
export class Collection<T extends { id: string }> {
	private readonly items: T[] = [];
	private readonly seqs: number[] = [];
	private readonly byId = new Map<string, T>();
	private nextSeq = 1;

	get size(): number {
		return this.items.length;
	}

	add(value: T): T {
		this.items.push(value);
		this.seqs.push(this.nextSeq++);
		this.byId.set(value.id, value);
		return value;
	}

	get(id: string): T | undefined {
		return this.byId.get(id);
	}

	has(id: string): boolean {
		return this.byId.has(id);
	}

	values(): T[] {
		return this.items.slice();
	}

	/** Every value with its sequence number (creation order), for orders of its own (see listNewestCreated). */
	entries(): Array<{ value: T; seq: number }> {
		return this.items.map((value, index) => ({ value, seq: this.seqs[index] }));
	}

	delete(id: string): boolean {
		const value = this.byId.get(id);
		if (!value) return false;
		const index = this.items.indexOf(value);
		this.items.splice(index, 1);
		this.seqs.splice(index, 1);
		this.byId.delete(id);
		return true;
	}

	/**
	 * One page of the values created after `fromSeq`, or before it and newest first (the list-order switch `newest`).
	 * The cursor is the sequence number of the page's last value, so pages stay consistent while values are added.
	 * Without a filter this costs O(limit): the start is found by binary search over the (increasing) sequence numbers.
	 */
	page(
		fromSeq: number | undefined,
		limit: number,
		filter?: (value: T) => boolean,
		newest = false,
	): { items: T[]; hasMore: boolean; lastSeq: number } {
		const step = newest ? -1 : 1;
		let index = fromSeq === undefined ? 0 : this.firstIndexAfter(fromSeq);
		let lastSeq = fromSeq ?? 0;
		if (newest) {
			index = (fromSeq === undefined ? this.items.length : this.firstIndexAfter(fromSeq - 1)) - 1;
			lastSeq = fromSeq ?? Number.MAX_SAFE_INTEGER;
		}
		const inRange = (at: number): boolean => at >= 0 && at < this.items.length;
		const items: T[] = [];
		for (; inRange(index) && items.length < limit; index += step) {
			if (filter && !filter(this.items[index])) continue;
			items.push(this.items[index]);
			lastSeq = this.seqs[index];
		}
		let hasMore = false;
		for (; inRange(index) && !hasMore; index += step)
			hasMore = !filter || filter(this.items[index]);
		return { items, hasMore, lastSeq };
	}

	private firstIndexAfter(seq: number): number {
		let low = 0;
		let high = this.seqs.length;
		while (low < high) {
			const mid = (low + high) >>> 1;
			if (this.seqs[mid] <= seq) low = mid + 1;
			else high = mid;
		}
		return low;
	}
}

/** A new lead's createdAt: now, or 1 ms after the last lead's when that is later (createdAt follows creation order). */
export function stampLead(store: Store): string {
	const at = Math.max(Date.now(), store.lastLeadCreatedAt + 1);
	store.lastLeadCreatedAt = at;
	return new Date(at).toISOString();
}

/** Deterministic, random-looking id: prefix + 16 hex chars of sha256(seed). */
export function seededId(prefix: string, seed: string): string {
	return prefix + createHash('sha256').update(seed).digest('hex').slice(0, 16);
}

export function randomId(prefix: string): string {
	return prefix + randomBytes(8).toString('hex');
}

export function formatNumber(prefix: string, n: number): string {
	return `${prefix}-${String(n).padStart(5, '0')}`;
}

/** The internal numeric id of the user who owns each key. */
export const ADMIN_USER_INTERNAL_ID = 1;
export const READ_ONLY_USER_INTERNAL_ID = 2;

const SEED_TIME = Date.parse('2024-01-15T09:00:00.000Z');
const seedDate = (minutes: number): string => new Date(SEED_TIME + minutes * 60_000).toISOString();

const words = (text: string): string[] => text.split(' ');
const FIRST_NAMES = words(
	'Alice Bruno Chen Dana Emeka Fatima Goran Hana Ivan Julia Kofi Lena Mateo Nadia Omar Priya Quinn Rosa Sven Tariq',
);
const LAST_NAMES = words(
	'Anders Baker Costa Dubois Evans Fischer Garcia Huang Ito Jensen Kowalski Lopez Moreau Novak Okafor Patel Quispe Rossi Silva Tanaka Ueda Vargas Weber',
);

const byId = <T extends { id: string }>(...records: T[]) =>
	new Map(records.map((record) => [record.id, record]));

function emptyStore() {
	const stages = [
		{ id: 'stg_new', internalId: 1, name: 'New' },
		{ id: 'stg_qualified', internalId: 2, name: 'Qualified' },
		{ id: 'stg_proposal', internalId: 3, name: 'Proposal' },
		{ id: 'stg_won', internalId: 4, name: 'Won' },
	];
	return {
		leads: new Collection<Lead>(),
		deals: new Collection<Deal>(),
		invoices: new Collection<Invoice>(),
		clients: new Collection<Client>(),
		products: new Collection<Product>(),
		users: new Collection<User>(),
		contacts: new Collection<Contact>(),
		webhooks: new Collection<WebhookSubscription>(),
		taxRates: byId(
			{ id: 'tax_vat20', name: 'VAT 20%', rate: 20 },
			{ id: 'tax_zero', name: 'Zero rated', rate: 0 },
		),
		pipelines: byId({ id: 'pip_sales', name: 'Sales', stages }),
		leadStages: byId(
			{ id: 'lst_new', internalId: 1, name: 'New' },
			{ id: 'lst_contacted', internalId: 2, name: 'Contacted' },
		),
		sources: byId(
			{ id: 'src_web', internalId: 1, name: 'Website' },
			{ id: 'src_referral', internalId: 2, name: 'Referral' },
		),
		/** Where the spec gives numbers in responses. */
		userInternalIds: new Map<string, number>(),
		productInternalIds: new Map<string, number>(),
		/** Lead id → internal numeric id of the owning user. */
		leadOwners: new Map<string, number>(),
		counters: { lead: 0, deal: 0, invoice: 0, client: 0, generatedLead: 0 },
		/** The createdAt (ms) of the last lead stamped by the sandbox: each new lead gets a later one. */
		lastLeadCreatedAt: 0,
	};
}

/** The sandbox's data (`sandbox.state`): what the API returns, so a test reading it sees what a client sees. */
export type Store = ReturnType<typeof emptyStore>;

export function createStore(): Store {
	const store = emptyStore();
	seedPeople(store);
	seedCatalogue(store);
	SEED_LEADS.forEach((lead, index) => {
		const id = seededId('lead_', `seed-lead:${index + 1}`);
		addLead(store, { ...lead, id, createdAt: seedDate(500 + index) }, ADMIN_USER_INTERNAL_ID);
	});
	return store;
}

/** firstName, lastName, role, jobTitle, active. */
const SEED_USERS: Array<[string, string, string, string, boolean]> = [
	['Ada', 'Admin', 'ADMIN', 'Head of Sales', true],
	['Rita', 'Reader', 'VIEWER', 'Analyst', true],
	['Sam', 'Seller', 'MEMBER', 'Account Executive', true],
	['Maya', 'Manager', 'MANAGER', 'Sales Manager', true],
	['Otto', 'Former', 'MEMBER', 'Account Executive', false],
];

const company = (name: string, email: string, phone: string, website: string) =>
	({ name, type: 'company', firstName: null, lastName: null, email, phone, website }) as const;
const SEED_CLIENTS: Array<JsonObject & { name: string }> = [
	company('Acme Corporation', 'billing@acme.example', '+14155550100', 'https://acme.example'),
	{
		...company('Globex Ltd', 'accounts@globex.example', '+442079460000', 'https://globex.example'),
		customFields: { industry: 'Manufacturing' },
	},
	{
		name: 'Jane Doe',
		type: 'contact',
		firstName: 'Jane',
		lastName: 'Doe',
		email: 'jane.doe@example.com',
		phone: '+15555550123',
		website: null,
	},
];

/** name, price, type, description, sku, isActive. */
const SEED_PRODUCTS: Array<[string, number, string, string | null, string | null, boolean]> = [
	['Consulting hour', 150, 'SERVICE', 'One hour of consulting', 'SRV-CONSULT', true],
	['Software licence', 1200, 'PRODUCT', 'Annual licence, one seat', 'LIC-ANNUAL', true],
	['Support plan', 49.99, 'SERVICE', 'Monthly support', 'SRV-SUPPORT', true],
	['Legacy widget', 9.5, 'PRODUCT', null, null, false],
];

const SEED_LEADS: Array<Partial<Lead> & { name: string }> = [
	{
		name: 'John Smith',
		title: 'CTO',
		email: 'john.smith@example.com',
		mobile: '+14155550111',
		website: 'https://smith.example',
		value: 5000,
		sourceId: 'src_web',
		stageId: 'lst_new',
	},
	{
		name: 'Maria Garcia',
		title: 'Procurement lead',
		email: 'maria.garcia@example.org',
		mobile: '+34600111222',
		value: 12000,
		sourceId: 'src_referral',
		stageId: 'lst_contacted',
		customFields: { budgetApproved: true, seats: 25 },
	},
	{ name: 'Old Prospect', email: null, value: null, archived: true },
];

/** The users (internal ids 1 to 5), the clients and the 250 v2 contacts. */
function seedPeople(store: Store): void {
	SEED_USERS.forEach(([firstName, lastName, role, jobTitle, active], index) => {
		const id = seededId('usr_', `user:${index + 1}`);
		const email = `${firstName}.${lastName}@example.com`.toLowerCase();
		const user = { id, firstName, lastName, email, role, jobTitle, active };
		store.users.add({ ...user, createdAt: seedDate(index) });
		store.userInternalIds.set(id, index + 1);
	});
	SEED_CLIENTS.forEach((client, index) => {
		store.counters.client++;
		store.clients.add({
			id: seededId('cli_', `client:${index + 1}`),
			number: formatNumber('C', store.counters.client),
			...client,
			stageId: null,
			createdAt: seedDate(10 + index),
		});
	});
	for (let i = 0; i < 250; i++) {
		const firstName = FIRST_NAMES[i % FIRST_NAMES.length];
		const lastName = LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length];
		store.contacts.add({
			id: seededId('con_', `contact:${i + 1}`),
			number: formatNumber('CT', i + 1),
			firstName,
			lastName,
			email: `${firstName}.${lastName}.${i + 1}@example.com`.toLowerCase(),
			createdAt: seedDate(100 + i),
		});
	}
}

/** The products (internal ids 101 to 104). */
function seedCatalogue(store: Store): void {
	SEED_PRODUCTS.forEach(([name, price, type, description, sku, isActive], index) => {
		const id = seededId('prd_', `product:${index + 1}`);
		store.products.add({ id, name, price, type, isActive, description, sku });
		store.productInternalIds.set(id, 101 + index);
	});
}

/** Builds a Lead with every known field present (null when not set) and stores it. */
export function addLead(
	store: Store,
	fields: Partial<Lead> & { name: string },
	ownerId: number,
): Lead {
	store.counters.lead++;
	const { id, archived, createdAt, ...rest } = fields;
	const lead: Lead = {
		id: id ?? randomId('lead_'),
		number: formatNumber('L', store.counters.lead),
		name: fields.name,
		archived: archived ?? false,
		createdAt: createdAt ?? stampLead(store),
		title: null,
		email: null,
		mobile: null,
		secondaryMobile: null,
		website: null,
		value: null,
		sourceId: null,
		stageId: null,
		customFields: null,
	};
	// Known fields keep the order above; extra keys follow as sent.
	Object.assign(lead, rest);
	store.leads.add(lead);
	store.leadOwners.set(lead.id, ownerId);
	return lead;
}

/** Appends n generated leads (deterministic content). 10,000 take a few tens of milliseconds. */
export function generateLeads(store: Store, n: number): void {
	const stages = ['lst_new', 'lst_contacted'];
	const sources = ['src_web', 'src_referral'];
	for (let i = 0; i < n; i++) {
		// Stamped one by one, as an API stamps each lead: creation order and createdAt agree.
		const createdAt = stampLead(store);
		const k = ++store.counters.generatedLead;
		const firstName = FIRST_NAMES[k % FIRST_NAMES.length];
		const lastName = LAST_NAMES[(k * 7) % LAST_NAMES.length];
		addLead(
			store,
			{
				id: seededId('lead_', `generated-lead:${k}`),
				name: `${firstName} ${lastName} ${k}`,
				email: `${firstName}.${lastName}.${k}@leads.example`.toLowerCase(),
				mobile: `+1555${String(k).padStart(7, '0')}`,
				value: (k % 50) * 100,
				sourceId: sources[k % 2],
				stageId: stages[k % 2],
				archived: k % 10 === 0,
				createdAt,
			},
			ADMIN_USER_INTERNAL_ID,
		);
	}
}

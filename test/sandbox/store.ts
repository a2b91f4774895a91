import { createHash, randomBytes } from 'node:crypto';

import type {
	Client,
	Contact,
	Deal,
	Invoice,
	Lead,
	NamedRef,
	Pipeline,
	Product,
	ReadonlyCollection,
	SandboxState,
	TaxRate,
	User,
	WebhookSubscription,
} from './types';

/** Values in creation order, lookup by id, and a sequence number per value for cursors. */
export class Collection<T extends { id: string }> implements ReadonlyCollection<T> {
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

export interface Store extends SandboxState {
	leads: Collection<Lead>;
	deals: Collection<Deal>;
	invoices: Collection<Invoice>;
	clients: Collection<Client>;
	products: Collection<Product>;
	users: Collection<User>;
	contacts: Collection<Contact>;
	webhooks: Collection<WebhookSubscription>;
	userInternalIds: Map<string, number>;
	productInternalIds: Map<string, number>;
	leadOwners: Map<string, number>;
	counters: { lead: number; deal: number; invoice: number; client: number; generatedLead: number };
	/** The createdAt (ms) of the last lead stamped by the sandbox: each new lead gets a later one. */
	lastLeadCreatedAt?: number;
}

/** A new lead's createdAt: now, or 1 ms after the last lead's when that is later (createdAt follows creation order). */
export function stampLead(store: Store): string {
	const at = Math.max(Date.now(), (store.lastLeadCreatedAt ?? 0) + 1);
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

const FIRST_NAMES = [
	'Alice',
	'Bruno',
	'Chen',
	'Dana',
	'Emeka',
	'Fatima',
	'Goran',
	'Hana',
	'Ivan',
	'Julia',
	'Kofi',
	'Lena',
	'Mateo',
	'Nadia',
	'Omar',
	'Priya',
	'Quinn',
	'Rosa',
	'Sven',
	'Tariq',
];
const LAST_NAMES = [
	'Anders',
	'Baker',
	'Costa',
	'Dubois',
	'Evans',
	'Fischer',
	'Garcia',
	'Huang',
	'Ito',
	'Jensen',
	'Kowalski',
	'Lopez',
	'Moreau',
	'Novak',
	'Okafor',
	'Patel',
	'Quispe',
	'Rossi',
	'Silva',
	'Tanaka',
	'Ueda',
	'Vargas',
	'Weber',
];

export function createStore(): Store {
	const stages = [
		{ id: 'stg_new', internalId: 1, name: 'New' },
		{ id: 'stg_qualified', internalId: 2, name: 'Qualified' },
		{ id: 'stg_proposal', internalId: 3, name: 'Proposal' },
		{ id: 'stg_won', internalId: 4, name: 'Won' },
	];
	const store: Store = {
		leads: new Collection<Lead>(),
		deals: new Collection<Deal>(),
		invoices: new Collection<Invoice>(),
		clients: new Collection<Client>(),
		products: new Collection<Product>(),
		users: new Collection<User>(),
		contacts: new Collection<Contact>(),
		webhooks: new Collection<WebhookSubscription>(),
		taxRates: new Map<string, TaxRate>([
			['tax_vat20', { id: 'tax_vat20', name: 'VAT 20%', rate: 20 }],
			['tax_zero', { id: 'tax_zero', name: 'Zero rated', rate: 0 }],
		]),
		pipelines: new Map<string, Pipeline>([
			['pip_sales', { id: 'pip_sales', name: 'Sales', stages }],
		]),
		leadStages: new Map<string, NamedRef>([
			['lst_new', { id: 'lst_new', internalId: 1, name: 'New' }],
			['lst_contacted', { id: 'lst_contacted', internalId: 2, name: 'Contacted' }],
		]),
		sources: new Map<string, NamedRef>([
			['src_web', { id: 'src_web', internalId: 1, name: 'Website' }],
			['src_referral', { id: 'src_referral', internalId: 2, name: 'Referral' }],
		]),
		userInternalIds: new Map(),
		productInternalIds: new Map(),
		leadOwners: new Map(),
		counters: { lead: 0, deal: 0, invoice: 0, client: 0, generatedLead: 0 },
	};

	const user = (
		firstName: string,
		lastName: string,
		role: string,
		jobTitle: string,
		active = true,
	) => ({
		firstName,
		lastName,
		email: `${firstName}.${lastName}@example.com`.toLowerCase(),
		role,
		jobTitle,
		active,
	});
	const users = [
		user('Ada', 'Admin', 'ADMIN', 'Head of Sales'),
		user('Rita', 'Reader', 'VIEWER', 'Analyst'),
		user('Sam', 'Seller', 'MEMBER', 'Account Executive'),
		user('Maya', 'Manager', 'MANAGER', 'Sales Manager'),
		user('Otto', 'Former', 'MEMBER', 'Account Executive', false),
	];
	users.forEach((user, index) => {
		const id = seededId('usr_', `user:${index + 1}`);
		store.users.add({ id, ...user, createdAt: seedDate(index) });
		store.userInternalIds.set(id, index + 1);
	});

	const client = (
		name: string,
		type: Client['type'],
		contact: { email: string; phone: string; website: string | null },
		firstName: string | null = null,
		lastName: string | null = null,
	) => ({ name, type, firstName, lastName, ...contact, stageId: null });
	const clients: Array<Omit<Client, 'id' | 'number' | 'createdAt'>> = [
		client('Acme Corporation', 'company', {
			email: 'billing@acme.example',
			phone: '+14155550100',
			website: 'https://acme.example',
		}),
		{
			...client('Globex Ltd', 'company', {
				email: 'accounts@globex.example',
				phone: '+442079460000',
				website: 'https://globex.example',
			}),
			customFields: { industry: 'Manufacturing' },
		},
		client(
			'Jane Doe',
			'contact',
			{ email: 'jane.doe@example.com', phone: '+15555550123', website: null },
			'Jane',
			'Doe',
		),
	];
	clients.forEach((client, index) => {
		store.counters.client++;
		store.clients.add({
			id: seededId('cli_', `client:${index + 1}`),
			number: formatNumber('C', store.counters.client),
			...client,
			createdAt: seedDate(10 + index),
		});
	});

	const product = (
		name: string,
		price: number,
		type: string,
		description: string | null,
		sku: string | null,
		isActive = true,
	): Omit<Product, 'id'> => ({ name, price, type, isActive, description, sku });
	const products = [
		product('Consulting hour', 150, 'SERVICE', 'One hour of consulting', 'SRV-CONSULT'),
		product('Software licence', 1200, 'PRODUCT', 'Annual licence, one seat', 'LIC-ANNUAL'),
		product('Support plan', 49.99, 'SERVICE', 'Monthly support', 'SRV-SUPPORT'),
		product('Legacy widget', 9.5, 'PRODUCT', null, null, false),
	];
	products.forEach((product, index) => {
		const id = seededId('prd_', `product:${index + 1}`);
		store.products.add({ id, ...product });
		store.productInternalIds.set(id, 101 + index);
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

	const seedLeads: Array<Partial<Lead> & { name: string }> = [
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
	seedLeads.forEach((lead, index) => {
		addLead(
			store,
			{
				...lead,
				id: seededId('lead_', `seed-lead:${index + 1}`),
				createdAt: seedDate(500 + index),
			},
			ADMIN_USER_INTERNAL_ID,
		);
	});

	return store;
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
export function generateLeads(store: Store, n: number, mention?: string): void {
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
				name:
					mention === undefined
						? `${firstName} ${lastName} ${k}`
						: `${mention} ${firstName} ${lastName} ${k}`,
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

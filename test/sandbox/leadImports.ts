/** Leads that appear out of order, for the polling trigger (issue 23): the `newestCreated` order and the import (README.md). */
import { validationError } from './api';
import { ADMIN_USER_INTERNAL_ID, addLead, type Store } from './store';
import type { JsonObject, Lead } from './types';

/** A lead's place in the `newestCreated` order: its createdAt (ms), then its creation. */
type Key = { at: number; seq: number };

const before = (a: Key, b: Key): boolean => a.at > b.at || (a.at === b.at && a.seq > b.seq);

/** One page of leads newest first by createdAt, after the lead at `after`; `last`: the key of the page's last lead. */
export function listNewestCreated(
	store: Store,
	after: Key | undefined,
	limit: number,
	filter?: (lead: Lead) => boolean,
): { items: Lead[]; hasMore: boolean; last: Key } {
	const sorted = store.leads
		.entries()
		.filter(({ value }) => !filter || filter(value))
		.map(({ value, seq }) => ({ value, key: { at: Date.parse(value.createdAt), seq } }))
		.sort((a, b) => b.key.at - a.key.at || b.key.seq - a.key.seq);
	const start = after === undefined ? 0 : sorted.findIndex((entry) => before(after, entry.key));
	const page = start < 0 ? [] : sorted.slice(start, start + limit);
	return {
		items: page.map((entry) => entry.value),
		hasMore: start >= 0 && start + limit < sorted.length,
		last: page.at(-1)?.key ?? { at: 0, seq: 0 },
	};
}

/**
 * POST /__sandbox/import `{ leads: [{ name, createdAt, ...fields }] }`: adds each lead with its own createdAt (an ISO
 * date), owned by the admin user, and answers the leads added. Bounded: at most 1,000 leads per call.
 */
export function importLeads(store: Store, body: JsonObject): Lead[] {
	const leads = body.leads;
	if (!Array.isArray(leads) || leads.length === 0 || leads.length > 1_000)
		throw validationError('leads must be an array of 1 to 1000 leads');
	const checked: Array<JsonObject & { name: string; createdAt: string }> = [];
	for (const lead of leads) {
		if (!lead || typeof lead !== 'object' || Array.isArray(lead))
			throw validationError('each lead must be an object');
		const { name, createdAt } = lead as JsonObject;
		if (typeof name !== 'string' || name === '') throw validationError('each lead needs a name');
		if (typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt)))
			throw validationError('each lead needs a createdAt date');
		checked.push(lead as JsonObject & { name: string; createdAt: string });
	}
	return checked.map((lead) =>
		addLead(
			store,
			{ ...lead, createdAt: new Date(Date.parse(lead.createdAt)).toISOString() },
			ADMIN_USER_INTERNAL_ID,
		),
	);
}

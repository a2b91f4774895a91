/** The sandbox's activity switch (README.md), for the polling trigger (issue 19). */
import { leadPayload, validationError, isObject } from './api';
import { ADMIN_USER_INTERNAL_ID, addLead, type Store } from './store';
import type { SandboxConfig } from './types';

export function parseActivity(value: unknown): SandboxConfig['activity'] {
	if (value === false || value === null) return false;
	if (
		isObject(value) &&
		typeof value.everyMs === 'number' &&
		Number.isInteger(value.everyMs) &&
		value.everyMs >= 100
	) {
		return { everyMs: value.everyMs };
	}
	throw validationError('activity must be false or { everyMs } with an integer of at least 100');
}

/** Step `tick` of the activity: tick 0 creates, 1 changes, 2 archives, 3 creates again, and so on. */
export function activityStep(
	store: Store,
	tick: number,
	emit: (event: string, payload: unknown) => void,
): void {
	const live = store.leads.values().filter((lead) => !lead.archived);
	const step = tick % 3;
	if (step === 0 || live.length === 0) {
		const n = store.counters.lead + 1;
		const lead = addLead(
			store,
			{
				name: `Activity Lead ${n}`,
				email: `activity.${n}@leads.example`,
				value: 1000,
				stageId: 'lst_new',
			},
			ADMIN_USER_INTERNAL_ID,
		);
		emit('lead.created', leadPayload(store, lead));
		return;
	}
	if (step === 1) {
		// The newest live lead moves on: another stage and a higher value.
		const lead = live[live.length - 1];
		lead.value = (typeof lead.value === 'number' ? lead.value : 0) + 500;
		lead.stageId = lead.stageId === 'lst_contacted' ? 'lst_new' : 'lst_contacted';
		emit('lead.updated', leadPayload(store, lead));
		return;
	}
	// The oldest live lead is archived.
	const lead = live[0];
	lead.archived = true;
	emit('lead.updated', leadPayload(store, lead));
}

import type { INodePropertyOptions } from 'n8n-workflow';

import { KNOWN_EVENTS } from './apiChoices';

/** The known events as the options of an Events list, by name: the trigger's and Webhook Subscription → Create's. */
export const EVENT_OPTIONS: INodePropertyOptions[] = KNOWN_EVENTS.map(
	({ name, value, description }) => ({ name, value, description }),
).sort((a, b) => a.name.localeCompare(b.name));

/** Event names from a comma-separated text, or a list of such texts: trimmed, without empties. */
export function splitEventNames(value: unknown): string[] {
	if (Array.isArray(value)) return value.flatMap((entry) => splitEventNames(entry));
	if (typeof value !== 'string') return [];
	return value
		.split(',')
		.map((name) => name.trim())
		.filter((name) => name !== '');
}

/**
 * The events a subscription asks for: those picked in the Events list plus the Custom Event Names, each once, in
 * the order given. Shared by Webhook Subscription → Create and the trigger.
 */
export function eventNamesOf(events: unknown, customEvents: unknown): string[] {
	return [...new Set([...splitEventNames(events), ...splitEventNames(customEvents)])];
}

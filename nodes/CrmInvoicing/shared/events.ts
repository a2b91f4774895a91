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

import type { INodePropertyOptions } from 'n8n-workflow';

import { KNOWN_EVENTS } from './apiChoices';
import { commaList, isText } from './values';

/** The known events as the options of an Events list, by name: the trigger's and Webhook Subscription → Create's. */
export const EVENT_OPTIONS: INodePropertyOptions[] = KNOWN_EVENTS.map(
	({ name, value, description }) => ({ name, value, description }),
).sort((a, b) => a.name.localeCompare(b.name));

/**
 * The events a subscription asks for: those picked in the Events list plus the Custom Event Names (comma-separated
 * texts, or lists of them), trimmed, each once, in the order given. Shared by Webhook Subscription → Create and the
 * trigger.
 */
export function eventNamesOf(...given: unknown[]): string[] {
	const names = given.flat(Infinity).filter(isText).flatMap(commaList);
	return [...new Set(names)];
}

import type { INodePropertyOptions } from 'n8n-workflow';

import { KNOWN_EVENTS } from './apiChoices';
import { commaList, isText } from './values';

export const EVENT_OPTIONS: INodePropertyOptions[] = KNOWN_EVENTS.map(
	({ name, value, description }) => ({ name, value, description }),
).sort((a, b) => a.name.localeCompare(b.name));

/** The Events picked plus Custom Event Names (comma-separated), trimmed, each once, in the order given. */
export function eventNamesOf(...given: unknown[]): string[] {
	const names = given.flat(Infinity).filter(isText).flatMap(commaList);
	return [...new Set(names)];
}

import { KNOWN_EVENTS } from './apiChoices';
import { commaList, isText } from './values';

export const EVENT_OPTIONS = KNOWN_EVENTS.map(({ name, value, description }) => ({
	name,
	value,
	description,
})).sort((a, b) => a.name.localeCompare(b.name));

/** The Events picked plus Custom Event Names (comma-separated), trimmed, each once, in the order given. */
export function eventNamesOf(...given: unknown[]) {
	const names = given.flat(Infinity).filter(isText).flatMap(commaList);
	return [...new Set(names)];
}

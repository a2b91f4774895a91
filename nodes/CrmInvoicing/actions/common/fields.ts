import {
	NodeOperationError,
	tryToParseDateTime,
	type IDataObject,
	type IExecuteFunctions,
} from 'n8n-workflow';

import { cut, describeValue, isPlainObject, isPresent, UNIX_TIME_RULE } from '../../shared';

/** Every error names the item's index. */
export interface Item {
	context: IExecuteFunctions;
	index: number;
}

/** `message`: what is wrong, to which the item's index is added (`… in item 2`); `help`: what to do. */
export function fail(item: Item, message: string, help?: string): never {
	failAsIs(item, `${message} in item ${item.index}`, help);
}

/** As fail, for a message that names the item in its own place, or needs not. */
export function failAsIs({ context, index }: Item, message: string, help?: string): never {
	throw new NodeOperationError(context.getNode(), message, { itemIndex: index, description: help });
}

/** JSON, cut to 120 characters; `nothing` when there is none. */
export function shown(value: unknown) {
	if (value === undefined) return 'nothing';
	try {
		return cut(JSON.stringify(value) ?? String(value), 120);
	} catch {
		return cut(String(value), 120);
	}
}

/** Trimmed text or a number as text; anything else is refused, so nothing is ever sent as `[object Object]`. */
export function optionalText(item: Item, value: unknown, field: string) {
	if (!isPresent(value)) return undefined;
	if (typeof value === 'string') return value.trim() || undefined;
	if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint')
		return String(value);
	fail(
		item,
		`"${field}" must be text or a number but is ${describeValue(value)}`,
		`Give "${field}" as text (such as an ID like lead_8f2k1) or a number. If it comes from an expression, pick the field inside the object, e.g. {{ $json.lead.id }} rather than {{ $json.lead }}.`,
	);
}

export function requireText(item: Item, value: unknown, field: string) {
	const text = optionalText(item, value, field);
	if (text !== undefined) return text;
	fail(
		item,
		`"${field}" is required but is empty`,
		`Fill in "${field}", or check that the expression for it gives a value for this item.`,
	);
}

/** A locator gives its ID (extractValue); any other parameter its value. */
export function requiredParameter(item: Item, name: string, field: string) {
	const value = item.context.getNodeParameter(name, item.index, '', { extractValue: true });
	return requireText(item, value, field);
}

/** Whether the node is of `version` or later. */
export function fromVersion({ context }: Item, version: number) {
	return context.getNode().typeVersion >= version;
}

/** A collection or fixed collection: `{}` when none of its fields is set. */
export function collectionParameter({ context, index }: Item, name: string) {
	return context.getNodeParameter(name, index, {}) as IDataObject;
}

/** Upper-cased as the API expects. */
export function requireOneOf<T extends string>(
	item: Item,
	value: unknown,
	allowed: readonly T[],
	field: string,
) {
	const text = String(value).trim().toUpperCase();
	if ((allowed as readonly string[]).includes(text)) return text as T;
	fail(item, `"${field}" must be one of ${allowed.join(', ')} but is "${String(value)}"`);
}

export function toNumber(item: Item, value: unknown, field: string) {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number === 'number' && Number.isFinite(number)) return number;
	fail(item, `"${field}" must be a number but is "${String(value)}"`);
}

/** Read as n8n reads dates (tryToParseDateTime). A date-time without a zone is in the workflow's time zone; a date
 * alone names a calendar day, sent as midnight UTC (choice date-only); `2026-02-30` is refused, not moved; a number
 * is Unix time (UNIX_TIME_RULE). */
export function toIsoDate(item: Item, value: unknown, field: string) {
	if (!isSet(value)) requireText(item, value, field);
	const text = typeof value === 'string' ? value.trim() : '';
	if (typeof value === 'number' || /^\d{9,}(\.\d+)?$/.test(text)) {
		const unix = Number(value);
		if (Number.isFinite(unix) && unix >= UNIX_TIME_RULE.refusedBelow)
			return new Date(unix < UNIX_TIME_RULE.millisecondsFrom ? unix * 1000 : unix).toISOString();
		failAsIs(
			item,
			`"${field}" is the number ${String(value)} in item ${item.index}, which the node does not read as a date`,
			'A number for a date is read as Unix time: seconds (such as 1767225600) or milliseconds (such as 1767225600000), from 1973-03-03 on. ' +
				'Otherwise use an ISO 8601 date such as 2026-12-31, or the date picker.',
		);
	}
	const day = /^\d{4}-\d{2}-(\d{2})/.exec(text)?.[1];
	try {
		const zone = /^\d{4}-\d{2}-\d{2}$/.test(text) ? 'UTC' : item.context.getTimezone();
		const date = tryToParseDateTime(value, zone);
		if (day === undefined || date.day === Number(day)) return date.toJSDate().toISOString();
	} catch {
		// Not a date n8n can read: refused below.
	}
	fail(
		item,
		`"${field}" is not a valid date: "${String(value)}"`,
		'Use an ISO 8601 date such as 2026-12-31 or 2026-12-31T09:00:00Z, the date picker, or an expression such as {{ $now.plus({ days: 30 }) }}.',
	);
}

/** The rows of a fixed collection of key and value pairs. */
export function pairsOf(collection: unknown) {
	return (
		(collection as { field?: Array<{ key?: string; value?: unknown }> } | undefined)?.field ?? []
	);
}

/** A record's (or a body's) custom fields; `{}` when it has none. */
export function customFieldsIn(record: IDataObject) {
	return isPlainObject(record.customFields) ? record.customFields : {};
}

function displayNameOfKey(key: string) {
	const words = key.replace(/Id$/, ' ID').replace(/([a-z])([A-Z])/g, '$1 $2');
	return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Text and numbers as optionalText reads them, and so is every value of an ID: a number (an ID from an expression,
 * such as the trigger payload's) becomes text, as the API's IDs are strings. A boolean, object or list is kept. Its
 * callers give it only values that are set (isSet). */
export function requestField(item: Item, key: string, value: unknown) {
	const text = ['string', 'number', 'bigint'].includes(typeof value);
	if (text || /Id$/.test(key)) return optionalText(item, value, displayNameOfKey(key));
	return value as IDataObject[string];
}

export function isSet(value: unknown) {
	return typeof value === 'string' ? value.trim() !== '' : isPresent(value);
}

export function parseJson(
	item: Item,
	value: unknown,
	field: string,
	help = 'Check the JSON text, or use an expression that gives the value itself.',
) {
	if (typeof value !== 'string') return value;
	const text = value.trim();
	if (text === '') return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		fail(item, `"${field}" is not valid JSON`, help);
	}
}

import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isPlainObject, UNIX_TIME_RULE } from '../../shared';

/** Field values as n8n's UI hands them over, in one place, turned into API request values. */

function fail(
	context: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description?: string,
): never {
	throw new NodeOperationError(context.getNode(), message, { itemIndex, description });
}

/** A value as an error message shows it: `an object`, `an array`, `the boolean true`, `NaN`, `the text "x"`. */
export function describeValue(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return `an array of ${value.length}`;
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'string')
		return `the text "${value.length > 60 ? `${value.slice(0, 60)}…` : value}"`;
	if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
	return `the ${typeof value} ${String(value)}`;
}

/**
 * Text or a number as text; anything else (an object, an array, a boolean, NaN or Infinity) is refused with an error
 * that names the field, so that nothing is ever sent as `[object Object]`. Empty values pass as ''.
 */
function textOrNumber(
	context: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value.trim();
	if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint')
		return String(value);
	return fail(
		context,
		itemIndex,
		`"${field}" must be text or a number but is ${describeValue(value)} in item ${itemIndex}`,
		`Give "${field}" as text (such as an ID like lead_8f2k1) or a number. If it comes from an expression, pick the field inside the object, e.g. {{ $json.lead.id }} rather than {{ $json.lead }}.`,
	);
}

/** A required text parameter (also an ID): trimmed, not empty, and text or a number (see textOrNumber). */
export function requireText(
	context: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	const text = textOrNumber(context, value, field, itemIndex);
	if (text === '') {
		fail(
			context,
			itemIndex,
			`"${field}" is required but is empty in item ${itemIndex}`,
			`Fill in "${field}", or check that the expression for it gives a value for this item.`,
		);
	}
	return text;
}

/** One of a fixed set of values (enums of the spec), upper-cased as the API expects. */
export function requireOneOf<T extends string>(
	context: IExecuteFunctions,
	value: unknown,
	allowed: readonly T[],
	field: string,
	itemIndex: number,
): T {
	const text = String(value ?? '')
		.trim()
		.toUpperCase();
	if (!(allowed as readonly string[]).includes(text)) {
		fail(
			context,
			itemIndex,
			`"${field}" must be one of ${allowed.join(', ')} but is "${String(value)}" in item ${itemIndex}`,
		);
	}
	return text as T;
}

/** A number given as a number or a numeric string. */
export function toNumber(
	context: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): number {
	const number =
		typeof value === 'number'
			? value
			: typeof value === 'string' && value.trim() !== ''
				? Number(value)
				: NaN;
	if (!Number.isFinite(number)) {
		fail(
			context,
			itemIndex,
			`"${field}" must be a number but is "${String(value)}" in item ${itemIndex}`,
		);
	}
	return number;
}

interface DateLike {
	toISO?: () => string | null;
	toISOString?: () => string;
}

/** `2026-12-31`, `2026-12-31T09:00` or `2026-12-31T09:00:00.000`: a date or date-time without a zone or offset. */
const NAIVE_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/;

/** How far `timeZone` is ahead of UTC at the instant `utcMs`, in ms. */
function zoneOffsetMs(timeZone: string, utcMs: number): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(utcMs));
	const part = (type: string) =>
		Number(parts.find((candidate) => candidate.type === type)?.value ?? 0);
	const wallClock = Date.UTC(
		part('year'),
		part('month') - 1,
		part('day'),
		part('hour'),
		part('minute'),
		part('second'),
	);
	return wallClock - (utcMs - (((utcMs % 1000) + 1000) % 1000));
}

/**
 * A date or date-time without zone (what n8n's date picker gives) read as wall-clock time in `timeZone`, the
 * workflow's time zone, as n8n's own nodes do. An unknown time zone falls back to UTC.
 */
function fromWallClock(match: RegExpExecArray, timeZone: string): Date {
	const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '0'] = match;
	const wallClock = Date.UTC(
		Number(year),
		Number(month) - 1,
		Number(day),
		Number(hour),
		Number(minute),
		Number(second),
		Number(fraction.padEnd(3, '0').slice(0, 3)),
	);
	const check = new Date(wallClock);
	if (
		check.getUTCMonth() !== Number(month) - 1 ||
		check.getUTCDate() !== Number(day) ||
		Number(hour) > 23
	) {
		return new Date(NaN);
	}
	try {
		const firstGuess = wallClock - zoneOffsetMs(timeZone, wallClock);
		// Around a daylight-saving change the offset at the result can differ from the offset at the first guess.
		return new Date(wallClock - zoneOffsetMs(timeZone, firstGuess));
	} catch {
		return new Date(wallClock);
	}
}

/**
 * A date alone (`2026-12-01`) names a calendar day, not an instant: it is sent as midnight UTC of that day
 * (`2026-12-01T00:00:00.000Z`), so the API sees the same date whatever the workflow's time zone
 * (choice date-only in apiChoices.ts).
 */
function fromDateOnly(match: RegExpExecArray): Date {
	const [, year, month, day] = match;
	const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
	if (date.getUTCMonth() !== Number(month) - 1 || date.getUTCDate() !== Number(day))
		return new Date(NaN);
	return date;
}

/**
 * A number given for a date, as Unix time (UNIX_TIME_RULE in apiChoices.ts): seconds below
 * 100,000,000,000, milliseconds from there; below 100,000,000, negative or not finite it is refused.
 */
function fromUnixTime(
	context: IExecuteFunctions,
	value: number,
	field: string,
	itemIndex: number,
): Date {
	if (!Number.isFinite(value) || value < UNIX_TIME_RULE.refusedBelow) {
		fail(
			context,
			itemIndex,
			`"${field}" is the number ${String(value)} in item ${itemIndex}, which the node does not read as a date`,
			'A number for a date is read as Unix time: seconds (such as 1767225600) or milliseconds (such as 1767225600000), from 1973-03-03 on. Otherwise use an ISO 8601 date such as 2026-12-31, or the date picker.',
		);
	}
	return new Date(value < UNIX_TIME_RULE.millisecondsFrom ? value * 1000 : value);
}

/**
 * A date as ISO 8601 in UTC (`2026-12-31T09:00:00.000Z`), from what n8n users pass: ISO strings with a zone or
 * offset, the date-time picker's value and other date-times without zone (read in the workflow's time zone), a date
 * alone (kept as that calendar date: midnight UTC), a JS Date, a Luxon DateTime from an expression
 * (`{{ $now.plus({ days: 30 }) }}`), or Unix time as a number (or a text of 9 or more digits): seconds or
 * milliseconds by the rule of fromUnixTime.
 */
export function toIsoDate(
	context: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	let date: Date | undefined;
	if (value && typeof value === 'object') {
		const like = value as DateLike;
		if (typeof like.toISO === 'function') {
			const iso = like.toISO();
			if (iso) date = new Date(iso);
		} else if (typeof like.toISOString === 'function') {
			date = value as Date;
		}
	} else if (typeof value === 'number') {
		date = fromUnixTime(context, value, field, itemIndex);
	} else if (typeof value === 'string' && value.trim() !== '') {
		const text = value.trim();
		const naive = NAIVE_DATE_TIME.exec(text);
		if (/^\d{9,}(\.\d+)?$/.test(text)) date = fromUnixTime(context, Number(text), field, itemIndex);
		else if (!naive) date = new Date(text);
		else
			date =
				naive[4] === undefined ? fromDateOnly(naive) : fromWallClock(naive, context.getTimezone());
	}
	if (!date || Number.isNaN(date.getTime())) {
		fail(
			context,
			itemIndex,
			`"${field}" is not a valid date: "${String(value)}" in item ${itemIndex}`,
			'Use an ISO 8601 date such as 2026-12-31 or 2026-12-31T09:00:00Z, the date picker, or an expression such as {{ $now.plus({ days: 30 }) }}.',
		);
	}
	return date.toISOString();
}

/** A JSON object parameter that may arrive as an object or as text. */
export function toJsonObject(
	context: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): IDataObject {
	if (value === undefined || value === null || value === '') return {};
	let parsed: unknown = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value);
		} catch {
			fail(
				context,
				itemIndex,
				`"${field}" is not valid JSON in item ${itemIndex}`,
				'Enter a JSON object such as {"key": "value"}.',
			);
		}
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
		fail(
			context,
			itemIndex,
			`"${field}" must be a JSON object in item ${itemIndex}`,
			'Enter a JSON object such as {"key": "value"}.',
		);
	}
	return parsed as IDataObject;
}

/** Custom fields entered as key/value pairs (`{ field: [{ key, value }] }`) as the API's `customFields` object. */
export function customFieldsFromPairs(pairs: unknown): IDataObject | undefined {
	const entries =
		(pairs as { field?: Array<{ key?: string; value?: unknown }> } | undefined)?.field ?? [];
	const result: IDataObject = {};
	for (const { key, value } of entries) {
		const name = (key ?? '').trim();
		if (name !== '') result[name] = value as IDataObject[string];
	}
	return Object.keys(result).length > 0 ? result : undefined;
}

/** `sourceId` → `Source ID`: how the node's field list names an ID field of a collection. */
function displayNameOfKey(key: string): string {
	const words = key.replace(/Id$/, ' ID').replace(/([a-z])([A-Z])/g, '$1 $2');
	return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * An optional ID (from a collection or a locator): undefined when empty, else its text. IDs must be text or numbers
 * (an object is refused with an error naming the field, never sent as `[object Object]`).
 */
export function optionalId(
	context: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string | undefined {
	const text = textOrNumber(context, value, field, itemIndex);
	return text === '' ? undefined : text;
}

/**
 * A value of a collection field for the request: an ID field (a key ending in `Id`) through optionalId, everything
 * else through requestText. Undefined when there is nothing to send.
 */
export function requestField(
	context: IExecuteFunctions,
	key: string,
	value: unknown,
	itemIndex: number,
): IDataObject[string] | undefined {
	if (!isSet(value)) return undefined;
	if (/Id$/.test(key)) return optionalId(context, value, displayNameOfKey(key), itemIndex);
	return requestText(value);
}

/**
 * A text value for the request: trimmed text; a number (an ID from an expression, such as the trigger payload's
 * numeric ids) becomes its decimal text, since the API's IDs and text fields are strings. Other values pass as they are.
 */
export function requestText(value: unknown): IDataObject[string] {
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' || typeof value === 'bigint') return String(value);
	return value as IDataObject[string];
}

/** Drops keys whose value is `undefined`, so a request carries only what the user set. */
export function definedOnly(object: IDataObject): IDataObject {
	const result: IDataObject = {};
	for (const [key, value] of Object.entries(object)) if (value !== undefined) result[key] = value;
	return result;
}

/** Whether a field of an "Additional Fields" / "Update Fields" collection holds something to send. */
export function isSet(value: unknown): boolean {
	if (value === undefined || value === null) return false;
	if (typeof value === 'string') return value.trim() !== '';
	return true;
}

/**
 * The value of a resource locator (`{ __rl: true, mode, value }`) read from inside a collection, where n8n does not
 * extract it; a plain value (an expression that gave an ID) is returned as it is.
 */
export function locatorValue(value: unknown): unknown {
	if (isPlainObject(value) && 'value' in value) {
		return value.value;
	}
	return value;
}

/** A JSON parameter that may arrive as a value (from an expression) or as JSON text. */
export function parseJson(
	context: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): unknown {
	if (typeof value !== 'string') return value;
	const text = value.trim();
	if (text === '') return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		fail(
			context,
			itemIndex,
			`"${field}" is not valid JSON in item ${itemIndex}`,
			'Check the JSON text, or use an expression that gives the value itself.',
		);
	}
}

/** A list of numbers from an array, a single number, or comma-separated text such as `3, 7`. */
export function toNumberList(
	context: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): number[] {
	let parts: unknown[];
	if (Array.isArray(value)) parts = value;
	else if (typeof value === 'number') parts = [value];
	else if (typeof value === 'string') {
		const text = value.trim();
		if (text.startsWith('[')) {
			const parsed = parseJson(context, text, field, itemIndex);
			parts = Array.isArray(parsed) ? parsed : [parsed];
		} else {
			parts = text
				.split(',')
				.map((part) => part.trim())
				.filter((part) => part !== '');
		}
	} else if (value === undefined || value === null) parts = [];
	else parts = [value];
	return parts.map((part) => toNumber(context, part, field, itemIndex));
}

/** A required date as ISO 8601 (see toIsoDate), with a "required" message when it is empty. */
export function requireIsoDate(
	context: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	if (!isSet(value)) requireText(context, value, field, itemIndex);
	return toIsoDate(context, value, field, itemIndex);
}

/** An update must change something: stops before the request when "Update Fields" gave nothing to send. */
export function requireFieldsToChange(
	context: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
): IDataObject {
	if (Object.keys(body).length === 0) {
		fail(
			context,
			itemIndex,
			`"Update Fields" has no field to change in item ${itemIndex}`,
			'Add at least one field under "Update Fields" and give it a value.',
		);
	}
	return body;
}

import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/** Field values as n8n's UI hands them over, in one place, turned into API request values. */

function fail(context: IExecuteFunctions, itemIndex: number, message: string, description?: string): never {
	throw new NodeOperationError(context.getNode(), message, { itemIndex, description });
}

/** A required text parameter: trimmed, and not empty. */
export function requireText(context: IExecuteFunctions, value: unknown, field: string, itemIndex: number): string {
	const text = typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : String(value);
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
	const text = String(value ?? '').trim().toUpperCase();
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
export function toNumber(context: IExecuteFunctions, value: unknown, field: string, itemIndex: number): number {
	const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
	if (!Number.isFinite(number)) {
		fail(context, itemIndex, `"${field}" must be a number but is "${String(value)}" in item ${itemIndex}`);
	}
	return number;
}

interface DateLike {
	toISO?: () => string | null;
	toISOString?: () => string;
}

/**
 * A date as ISO 8601, from what n8n users pass: ISO strings, the date-time picker's value, a JS Date,
 * a Luxon DateTime from an expression (`{{ $now.plus({ days: 30 }) }}`), or Unix time in ms.
 */
export function toIsoDate(context: IExecuteFunctions, value: unknown, field: string, itemIndex: number): string {
	let date: Date | undefined;
	if (value && typeof value === 'object') {
		const like = value as DateLike;
		if (typeof like.toISO === 'function') {
			const iso = like.toISO();
			if (iso) return iso;
		} else if (typeof like.toISOString === 'function') {
			date = value as Date;
		}
	} else if (typeof value === 'number') {
		date = new Date(value);
	} else if (typeof value === 'string' && value.trim() !== '') {
		date = new Date(value.trim());
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
export function toJsonObject(context: IExecuteFunctions, value: unknown, field: string, itemIndex: number): IDataObject {
	if (value === undefined || value === null || value === '') return {};
	let parsed: unknown = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value);
		} catch {
			fail(context, itemIndex, `"${field}" is not valid JSON in item ${itemIndex}`, 'Enter a JSON object such as {"key": "value"}.');
		}
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
		fail(context, itemIndex, `"${field}" must be a JSON object in item ${itemIndex}`, 'Enter a JSON object such as {"key": "value"}.');
	}
	return parsed as IDataObject;
}

/** Custom fields entered as key/value pairs (`{ field: [{ key, value }] }`) as the API's `customFields` object. */
export function customFieldsFromPairs(pairs: unknown): IDataObject | undefined {
	const entries = (pairs as { field?: Array<{ key?: string; value?: unknown }> } | undefined)?.field ?? [];
	const result: IDataObject = {};
	for (const { key, value } of entries) {
		const name = (key ?? '').trim();
		if (name !== '') result[name] = value as IDataObject[string];
	}
	return Object.keys(result).length > 0 ? result : undefined;
}

/** Drops keys whose value is `undefined`, so a request carries only what the user set. */
export function definedOnly(object: IDataObject): IDataObject {
	const result: IDataObject = {};
	for (const [key, value] of Object.entries(object)) if (value !== undefined) result[key] = value;
	return result;
}

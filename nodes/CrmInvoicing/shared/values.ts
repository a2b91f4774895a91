import type { IDataObject } from 'n8n-workflow';

/** A repeated header's value is an array. */
export type HeaderMap = Readonly<Record<string, unknown>> | undefined;

export function isPlainObject(value: unknown): value is IDataObject {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}

export function isText(value: unknown): value is string {
	return typeof value === 'string';
}

/** A filled text, else undefined. */
export const filledText = (value: unknown) =>
	typeof value === 'string' && value !== '' ? value : undefined;

/** An array's texts; undefined for anything but an array. */
export const texts = (value: unknown) => (Array.isArray(value) ? value.filter(isText) : undefined);

/** An id the API gave as a text or a number, as a text ('' for anything else). */
export const idText = (value: unknown) =>
	typeof value === 'string' || typeof value === 'number' ? String(value) : '';

export function isPresent<T>(value: T | null | undefined): value is T {
	return value !== undefined && value !== null;
}

/** For `.catch(nothing)`: a failure that only means "no value". */
export function nothing() {
	return undefined;
}

function trimmed(value: unknown) {
	return String(value).trim();
}

/** Values as texts, trimmed, the empty ones left out. */
export function filledTexts(values: unknown[]) {
	return values.map(trimmed).filter(Boolean);
}

export function commaList(text: string) {
	return filledTexts(text.split(','));
}

/** The Events picked plus Custom Event Names (comma-separated), trimmed, each once, in the order given. */
export function eventNamesOf(...given: unknown[]) {
	const names = given.flat(Infinity).filter(isText).flatMap(commaList);
	return [...new Set(names)];
}

/** Names compared without case, as HTTP does; a repeated header gives each of its values. */
export function headerValues(headers: HeaderMap, name: string) {
	const wanted = name.toLowerCase();
	const entry = Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === wanted);
	const value = entry?.[1];
	return [value].flat().filter(isPresent).map(String);
}

export function headerValue(headers: HeaderMap, name: string) {
	return headerValues(headers, name)[0];
}

export function contentTypeOf(headers: HeaderMap) {
	return headerValue(headers, 'content-type')?.slice(0, 100) ?? 'no content type';
}

export function httpStatusOf(error: unknown) {
	// Object() gives any value's own fields, or none, to read.
	const { httpCode, context } = Object(error);
	const status = Number(httpCode ?? Object(context).httpCode);
	return Number.isInteger(status) && status >= 100 && status <= 599 ? status : undefined;
}

export const cut = (text: string, max: number) =>
	text.length > max ? `${text.slice(0, max)}…` : text;

/** For error messages: `an object with the keys a, b`, `an array of 2`, `the text "x"`. */
export function describeValue(value: unknown, answer = false) {
	if (answer && (value ?? '') === '') return 'an empty body';
	if (value === null) return 'null';
	if (Array.isArray(value)) return `an array of ${value.length}`;
	if (typeof value === 'object') {
		const names = Object.keys(value)
			.slice(0, 8)
			.map((key) => key.slice(0, 30));
		return names.length > 0 ? `an object with the keys ${names.join(', ')}` : 'an empty object';
	}
	if (typeof value === 'string') {
		const text = value.replace(/\s+/g, ' ');
		return answer ? `text starting "${cut(text.trim(), 120)}"` : `the text "${cut(text, 60)}"`;
	}
	return `the ${typeof value} ${String(value)}`;
}

/** `50,000`: a count as the messages write it. */
export const count = (n: number) => n.toLocaleString('en-US');

/** `250 ms`, `1.3 s`, `3 min`, `1 h 30 min`. */
export function describeDuration(ms: number) {
	if (ms < 1000) return `${Math.round(ms)} ms`;
	if (ms < 119_500) return `${Number((ms / 1000).toFixed(1))} s`;
	const minutes = Math.round(ms / 60_000);
	if (minutes < 60) return `${minutes} min`;
	return `${Math.floor(minutes / 60)} h${minutes % 60 === 0 ? '' : ` ${minutes % 60} min`}`;
}

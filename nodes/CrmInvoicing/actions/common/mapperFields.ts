import type {
	FieldType,
	IDataObject,
	ResourceMapperField,
	ResourceMapperFields,
} from 'n8n-workflow';

import { isPlainObject } from '../../shared';
import { valueOption } from './options';

/**
 * The fields the resource mapper (node version 3) lists: a record's writable fields as the spec gives them, and the
 * custom fields found in the `customFields` of records the node could read, each with a type inferred from its values.
 */

/** A writable field of the spec: its API key, label, type, and on which operation it is offered or required. */
export interface StandardField {
	id: string;
	displayName: string;
	type: FieldType;
	/** For `options`: the API's values. */
	values?: readonly string[];
	/** Required on Create (the spec's required body fields). */
	required?: boolean;
	/** Offered only on this operation (the spec's POST and PATCH bodies differ for deals). */
	only?: 'create' | 'update';
}

/** A custom field's id in the mapper: `customFields.industry`. No standard field has a dot, so none can collide. */
export const CUSTOM_PREFIX = 'customFields.';

/** The read-only line that says why no custom field is listed; execution ignores it. */
export const NOTICE_ID = 'customFieldsNotice';

/** ISO 8601 dates and date-times, as the spec writes timestamps (`2026-01-02`, `2026-01-02T03:04:05.000Z`). */
const ISO_DATE =
	/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function typeOfValue(value: unknown): FieldType {
	if (typeof value === 'number' && Number.isFinite(value)) return 'number';
	if (typeof value === 'boolean') return 'boolean';
	if (Array.isArray(value)) return 'array';
	if (isPlainObject(value)) return 'object';
	if (typeof value === 'string' && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value)))
		return 'dateTime';
	return 'string';
}

/** A field's type so far: undefined before a non-null value, null once its values disagree. */
type Seen = FieldType | null | undefined;

/** The type of a field seen as `before`, after one more non-null value: text and dates together are text. */
function joined(before: Seen, value: unknown): Seen {
	const type = typeOfValue(value);
	if (before === undefined || before === type) return type;
	const text = (one: Seen) => one === 'string' || one === 'dateTime';
	return text(before) && text(type) ? 'string' : null;
}

/**
 * The type of a custom field from the values seen, nulls ignored: the one type they share (text and dates: text).
 * None when they disagree or all are null, so that a mapped value is sent as given: a number stays a number.
 */
export function inferType(values: unknown[]): FieldType | undefined {
	let seen: Seen;
	for (const value of values) {
		if (value !== null) seen = joined(seen, value);
	}
	return seen ?? undefined;
}

/**
 * The most custom fields the mapper lists: each is a row of n8n's form and an entry of the schema the workflow stores,
 * so that past a few hundred the form is no help and the workflow grows; 500 fits any workspace we know of.
 */
export const MAX_CUSTOM_FIELDS = 500;

/** What every field of the list is: shown, and never a key to match records on. */
const LISTED = { defaultMatch: false, canBeUsedToMatch: false, display: true };

/** Keys the editor cannot hold as a mapper field id (it writes `value["<id>"]`): left out of the list. */
const UNUSABLE_KEY = /["\\[\]]|^\s*$/;

/**
 * The custom fields of these records (own keys, one pass), sorted by key, each typed by its values across them: at most
 * MAX_CUSTOM_FIELDS, the first met in the records' order; `capped` when there were more.
 */
export function customFieldsOf(records: IDataObject[]): {
	custom: ResourceMapperField[];
	capped: boolean;
} {
	const seen = new Map<string, Seen>();
	let capped = false;
	for (const record of records) {
		const fields = record.customFields;
		if (!isPlainObject(fields)) continue;
		// Object.keys, not Object.entries: several times faster on an object of thousands of keys.
		for (const key of Object.keys(fields)) {
			const known = seen.has(key);
			// Past the cap a key not listed only says there are more: looked at once, then no more.
			if (!known && seen.size >= MAX_CUSTOM_FIELDS) capped ||= !UNUSABLE_KEY.test(key);
			else if (known || !UNUSABLE_KEY.test(key)) {
				const value = fields[key];
				seen.set(key, value === null ? seen.get(key) : joined(seen.get(key), value));
			}
		}
	}
	const custom = [...seen.keys()].sort(compareTexts).map((key) => ({
		id: `${CUSTOM_PREFIX}${key}`,
		displayName: `${key} (custom field)`,
		type: seen.get(key) ?? undefined,
		required: false,
		...LISTED,
	}));
	return { custom, capped };
}

function compareTexts(a: string, b: string): number {
	return a.localeCompare(b);
}

function requiredFirst(a: ResourceMapperField, b: ResourceMapperField): number {
	return Number(b.required) - Number(a.required);
}

/**
 * What the mapper shows for an operation: the standard fields (required ones first on Create, none required on
 * Update), the custom fields found, and a read-only line (`notice`) that says why none or not all are listed.
 */
export function mapperFields(
	standard: readonly StandardField[],
	operation: string,
	custom: ResourceMapperField[],
	notice?: string,
): ResourceMapperFields {
	const creating = operation === 'create';
	const fields: ResourceMapperField[] = standard
		.filter((field) => !field.only || field.only === operation)
		.map((field) => ({
			id: field.id,
			displayName: field.displayName,
			type: field.type,
			options: field.values?.map(valueOption),
			required: creating && field.required === true,
			...LISTED,
		}));
	fields.sort(requiredFirst);
	fields.push(...custom);
	if (notice) {
		fields.push({
			id: NOTICE_ID,
			displayName: `Custom Fields (${custom.length || 'none'} listed)`,
			type: 'string',
			defaultValue: notice,
			readOnly: true,
			required: false,
			...LISTED,
		});
	}
	return { fields };
}

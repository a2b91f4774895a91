import type { FieldType, IDataObject, ResourceMapperField } from 'n8n-workflow';

import { isPlainObject } from '../../shared';
import { customFieldsIn } from './fields';
import { compareTexts, valueOption } from './options';

export interface StandardField {
	id: string;
	displayName: string;
	type: FieldType;
	values?: readonly string[];
	/** The spec's required body fields (on Create): a list names them first. */
	required?: boolean;
	/** The spec's POST and PATCH bodies differ for deals. */
	only?: 'create' | 'update';
}

/** A field of the mapper; of type string unless `more` says otherwise, as most are. */
export function mapperField(
	id: string,
	displayName: string,
	more?: Partial<StandardField>,
): StandardField {
	return { id, displayName, type: 'string', ...more };
}

/** No standard field has a dot, so none can collide. */
export const CUSTOM_PREFIX = 'customFields.';

/** As the spec writes timestamps. */
const ISO_DATE =
	/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** Of a value read from the CRM's JSON, where every number is finite. */
function typeOfValue(value: unknown) {
	if (typeof value === 'number') return 'number';
	if (typeof value === 'boolean') return 'boolean';
	if (Array.isArray(value)) return 'array';
	if (isPlainObject(value)) return 'object';
	if (typeof value === 'string' && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value)))
		return 'dateTime';
	return 'string';
}

/** Undefined before a non-null value, null once its values disagree. */
type Seen = FieldType | null | undefined;

const isText = (type: Seen) => type === 'string' || type === 'dateTime';

/** Text and dates together are text; a null says nothing of the type. */
function joined(before: Seen, value: unknown) {
	if (value === null) return before;
	const type = typeOfValue(value);
	if (before === undefined || before === type) return type;
	return isText(before) && isText(type) ? 'string' : null;
}

/** None when they disagree or all are null, so that a mapped value is sent as given: a number stays a number. */
export function inferType(values: unknown[]) {
	let seen: Seen;
	for (const value of values) seen = joined(seen, value);
	return seen ?? undefined;
}

/** Each is a row of n8n's form and of the workflow's stored schema; 500 fits any workspace we know of. */
export const MAX_CUSTOM_FIELDS = 500;

/** Every field's flags; a field sets `required` after them where it may be. */
const LISTED = { defaultMatch: false, canBeUsedToMatch: false, display: true, required: false };

/** The editor writes `value["<id>"]`: such keys are left out. */
const UNUSABLE_KEY = /["\\[\]]|^\s*$/;

/** At most MAX_CUSTOM_FIELDS, the first met; `capped` when there were more. */
export function customFieldsOf(records: IDataObject[]) {
	const seen = new Map<string, Seen>();
	let capped = false;
	for (const record of records) {
		const fields = customFieldsIn(record);
		// Object.keys, not Object.entries: several times faster on an object of thousands of keys.
		for (const key of Object.keys(fields)) {
			const known = seen.has(key);
			// Past the cap a key not listed only says there are more: looked at once, then no more.
			if (!known && seen.size >= MAX_CUSTOM_FIELDS) capped ||= !UNUSABLE_KEY.test(key);
			else if (known || !UNUSABLE_KEY.test(key)) seen.set(key, joined(seen.get(key), fields[key]));
		}
	}
	const custom = [...seen.keys()].sort(compareTexts).map((key) => ({
		id: `${CUSTOM_PREFIX}${key}`,
		displayName: `${key} (custom field)`,
		type: seen.get(key) ?? undefined,
		...LISTED,
	}));
	return { custom, capped };
}

/** In the order of `standard`: the lists name their required fields first, as the form shows them. */
export function mapperFields(
	standard: readonly StandardField[],
	operation: string,
	custom: ResourceMapperField[],
	notice?: string,
) {
	const fields: ResourceMapperField[] = standard
		.filter((field) => !field.only || field.only === operation)
		.map(({ id, displayName, type, values, required }) => ({
			...LISTED,
			id,
			displayName,
			type,
			options: values?.map(valueOption),
			required: operation === 'create' && required === true,
		}));
	fields.push(...custom);
	if (notice) {
		fields.push({
			// Execution ignores it.
			id: 'customFieldsNotice',
			displayName: `Custom Fields (${custom.length || 'none'} listed)`,
			type: 'string',
			defaultValue: notice,
			readOnly: true,
			...LISTED,
		});
	}
	return { fields };
}

import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	NodeExecutionHint,
} from 'n8n-workflow';

import {
	commaList,
	describeDuration,
	describeValue,
	filledTexts,
	isPresent,
	simplifyPropertyFrom,
	SIMPLIFIED_FIELDS,
	type RunStats,
	type SimplifiedResource,
} from '../../shared';
import { customFieldsIn, fail, type Item } from './fields';
import { CUSTOM_PREFIX } from './mapperFields';

/** Nodes saved before 0.3 (version 1) output exactly what they did: raw records, no Create or Update marker. */
export const OUTPUT_CONTROL_VERSION = 2;

const OUTPUT_VERSION = 4;

export const RECORD_FIELDS = {
	lead: [...SIMPLIFIED_FIELDS.lead, 'secondaryMobile', 'website', 'sourceId', 'customFields'],
	client: [...SIMPLIFIED_FIELDS.client, 'firstName', 'lastName', 'stageId', 'customFields'],
	product: SIMPLIFIED_FIELDS.product,
	user: [...SIMPLIFIED_FIELDS.user, 'createdAt'],
	contact: SIMPLIFIED_FIELDS.contact,
};

const fromOutputVersion = { '@version': [{ _cnd: { gte: OUTPUT_VERSION } }] };

export const outputProperties: INodeProperties[] = [
	{
		...simplifyPropertyFrom(OUTPUT_CONTROL_VERSION),
		displayOptions: { show: { '@version': [2, 3] } },
	},
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'simple',
		description: 'How much of each record to output',
		options: [
			{ name: 'Raw', value: 'raw', description: "The API's record unchanged" },
			{
				name: 'Select Included Fields',
				value: 'fields',
				description: 'The fields picked, and the ID',
			},
			{ name: 'Simplified', value: 'simple', description: 'The fields a workflow usually needs' },
		],
		displayOptions: { show: fromOutputVersion },
	},
	{
		displayName: 'Field Names or IDs',
		name: 'fields',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getOutputFields', loadOptionsDependsOn: ['resource'] },
		default: [],
		description:
			'The fields to output; a custom field as customFields.&lt;key&gt;. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: { show: { ...fromOutputVersion, output: ['fields'] } },
	},
];

/** `fields` as named (`customFields.<key>` for a custom one), after the ID. */
function selectFields(record: IDataObject, fields: readonly string[]) {
	const custom = customFieldsIn(record);
	const selected: IDataObject = {};
	for (const field of ['id', ...fields]) {
		const key = field.slice(CUSTOM_PREFIX.length);
		if (Object.hasOwn(record, field)) selected[field] = record[field];
		else if (field.startsWith(CUSTOM_PREFIX) && Object.hasOwn(custom, key))
			selected.customFields = { ...(selected.customFields as IDataObject), [key]: custom[key] };
	}
	return selected;
}

/** The fields to output (Simplified: the resource's SIMPLIFIED_FIELDS; Select Included Fields: those named, as a
 * list or as text separated by commas); none, the raw record. */
function fieldsOf(item: Item, resource: SimplifiedResource) {
	const { context, index } = item;
	const simple = SIMPLIFIED_FIELDS[resource];
	const version = context.getNode().typeVersion;
	if (version < OUTPUT_CONTROL_VERSION) return undefined;
	if (version < OUTPUT_VERSION)
		return context.getNodeParameter('simplify', index, true) === false ? undefined : simple;
	const output = context.getNodeParameter('output', index, 'simple');
	if (output === 'simple') return simple;
	if (output === 'raw') return undefined;
	if (output !== 'fields') {
		fail(
			item,
			`"Output" must be simple, raw or fields but is ${describeValue(output)}`,
			'Pick Simplified, Raw or Select Included Fields under "Output".',
		);
	}
	const given = context.getNodeParameter('fields', index, []);
	let names = Array.isArray(given) ? filledTexts(given) : [];
	if (typeof given === 'string') names = commaList(given);
	if (names.length === 0) {
		fail(
			item,
			`"Fields" names no field`,
			'Pick at least one field under "Fields", or set "Output" to "Simplified" or "Raw".',
		);
	}
	return names;
}

export function recordItems(item: Item, resource: SimplifiedResource, records: IDataObject[]) {
	const fields = fieldsOf(item, resource);
	return records.map((record) => ({ json: fields ? selectFields(record, fields) : record }));
}

/** `one` with an s for any count but 1. */
const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/** Only when a run cost more than plain requests, as n8n's own nodes stay silent otherwise. */
export function costHint({
	mostPagesOfOneList,
	pages,
	requests,
	waitedMs,
	rateLimited,
}: RunStats): NodeExecutionHint | undefined {
	if (mostPagesOfOneList <= 1 && waitedMs <= 0 && rateLimited === 0) return undefined;
	const parts = [
		pages > 1 ? `read ${plural(pages, 'page')}` : '',
		`sent ${plural(requests, 'request')} to the CRM`,
		waitedMs > 0 ? `waited ${describeDuration(waitedMs)} in total for its rate limit` : '',
		rateLimited > 0
			? `absorbed ${plural(rateLimited, 'answer')} 429 (Too Many Requests) by waiting and retrying`
			: '',
	].filter(Boolean);
	// At least two: "sent" and what made the hint (a list of pages has read more than one page in all).
	const last = parts.pop();
	return {
		message: `This run ${parts.join(', ')} and ${last}.`,
		type: 'info',
		location: 'outputPane',
	};
}

/** n8n has `addExecutionHints` since 1.x (checked on 1.123 and 2.38); a context without it is left as it is. */
export function addHints(context: IExecuteFunctions, hints: Array<NodeExecutionHint | undefined>) {
	context.addExecutionHints?.(...hints.filter(isPresent));
}

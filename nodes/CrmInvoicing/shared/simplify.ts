import type { IDataObject, INodeProperties } from 'n8n-workflow';

/**
 * Output control ("Simplify", as n8n's UX guidelines ask for records of more than 10 fields): the fields a workflow
 * usually needs, at most 10 per resource, in this order. Off, the API's record is output unchanged.
 * The README (docs) lists these per resource; keep both in step.
 */
export const SIMPLIFIED_FIELDS = {
	lead: [
		'id',
		'number',
		'name',
		'email',
		'mobile',
		'title',
		'value',
		'stageId',
		'archived',
		'createdAt',
	],
	client: ['id', 'number', 'name', 'type', 'email', 'phone', 'website', 'createdAt'],
	product: ['id', 'name', 'sku', 'price', 'type', 'isActive', 'description'],
	user: ['id', 'firstName', 'lastName', 'email', 'role', 'jobTitle'],
	contact: ['id', 'number', 'firstName', 'lastName', 'email'],
} as const satisfies Record<string, readonly string[]>;

export type SimplifiedResource = keyof typeof SIMPLIFIED_FIELDS;

/**
 * n8n's Simplify switch, shown from `version` on (the node version that brought it): on by default, so a node added
 * from then on (and the node as an AI Agent's tool) outputs simplified records; older nodes keep their raw output.
 */
export function simplifyPropertyFrom(version: number): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: 'Whether to return a simplified version of the response instead of the raw data',
		displayOptions: { show: { '@version': [{ _cnd: { gte: version } }] } },
	};
}

/** The record with only its resource's simplified fields (those it has), in the order above. */
export function simplify(resource: SimplifiedResource, record: IDataObject): IDataObject {
	const simplified: IDataObject = {};
	for (const field of SIMPLIFIED_FIELDS[resource]) {
		if (Object.prototype.hasOwnProperty.call(record, field)) simplified[field] = record[field];
	}
	return simplified;
}

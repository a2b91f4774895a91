import type { IDataObject, INodeProperties } from 'n8n-workflow';

// At most 10 fields per resource, as n8n's UX guidelines ask. The README lists them: keep both in step.
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
} as const;

export type SimplifiedResource = keyof typeof SIMPLIFIED_FIELDS;

/** On by default from `version` on; older nodes keep their raw output. */
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

export function simplify(resource: SimplifiedResource, record: IDataObject) {
	const simplified: IDataObject = {};
	for (const field of SIMPLIFIED_FIELDS[resource])
		if (Object.hasOwn(record, field)) simplified[field] = record[field];
	return simplified;
}

import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { readList, type ApiVersion, type SimplifiedResource } from '../../shared';
import type { Operation } from '../operation';
import { collectionParameter, fail, toNumber, type Item } from './fields';
import { bodyFromFields, collectionProperty } from './options';
import { outputProperties, recordItems } from './output';

/** The transport pages, so the limit has no maximum. */
export function returnAllAndLimit(what: string): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			hint: `How many ${what} to return at most. The node fetches as many pages as it needs (up to 100 records each).`,
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

export function pageRequestOf(item: Item) {
	const { context, index } = item;
	if (context.getNodeParameter('returnAll', index, false)) return { returnAll: true };
	const limit = toNumber(item, context.getNodeParameter('limit', index, 50), 'Limit');
	if (!Number.isInteger(limit) || limit < 1) {
		fail(
			item,
			`"Limit" must be a whole number of at least 1 but is ${limit}`,
			'Set "Limit" to 1 or more, or turn on "Return All".',
		);
	}
	return { returnAll: false, limit };
}

/** The API cannot filter by it, so the node reads whole pages and keeps matches. */
type OwnFilter = (record: IDataObject) => boolean;

interface GetMany {
	/** Read from `/{resource}s`, which also names the records in Limit's hint. */
	resource: SimplifiedResource;
	version?: ApiVersion;
	filters: INodeProperties[];
	adjust?: (qs: IDataObject) => OwnFilter | undefined;
	ownFilter?: (item: Item) => OwnFilter | undefined;
	/** Shown after the filters. */
	more?: INodeProperties[];
}

export function getManyOperation(list: GetMany): Operation {
	const { resource, version, filters } = list;
	return {
		description: [
			...returnAllAndLimit(`${resource}s`),
			...outputProperties,
			collectionProperty('Filters', 'filters', filters, { placeholder: 'Add Filter' }),
			...(list.more ?? []),
		],
		async execute(item) {
			// As a body from its fields: text trimmed, a boolean kept, a filter left empty not sent.
			const qs = bodyFromFields(item, collectionParameter(item, 'filters'), {});
			const keep = list.adjust?.(qs);
			const want = pageRequestOf(item);
			// No list has both. An own filter reads whole pages, and past a cap says how to narrow the list.
			const own = list.ownFilter?.(item);
			const whole = own && {
				narrow:
					'Narrow the list with the Filters the API applies: the node checks its own filter on each record it reads, and reads on until it has "Limit" matches or the list ends.',
				wholePages: true,
			};
			const spec = { path: `/${resource}s`, version, qs, itemIndex: item.index, ...whole };
			const records = await readList.call(this, spec, want, own ?? keep);
			return recordItems(item, resource, records);
		},
	};
}

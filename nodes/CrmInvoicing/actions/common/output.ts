import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { simplify, simplifyPropertyFrom } from '../../shared';
import type { SimplifiedResource } from '../../shared';
import type { Item } from './fields';

/**
 * The node version that brought output control (0.3). Nodes saved before it (version 1) output exactly what they
 * did: no Simplify switch (their records stay raw) and no Create or Update marker.
 */
const OUTPUT_CONTROL_VERSION = 2;

export function hasOutputControl(context: IExecuteFunctions): boolean {
	return context.getNode().typeVersion >= OUTPUT_CONTROL_VERSION;
}

export const simplifyProperty: INodeProperties = simplifyPropertyFrom(OUTPUT_CONTROL_VERSION);

/**
 * One output item per record: each reduced to its resource's simplified fields (shared/simplify.ts) when Simplify
 * is on, else the API's record unchanged.
 */
export function recordItems(
	{ context, index }: Item,
	resource: SimplifiedResource,
	records: IDataObject[],
): INodeExecutionData[] {
	const simplified =
		hasOutputControl(context) && context.getNodeParameter('simplify', index, true) !== false;
	return records.map((record) => ({ json: simplified ? simplify(resource, record) : record }));
}

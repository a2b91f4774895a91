import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type NodeExecutionHint,
} from 'n8n-workflow';

import type { Item } from './common/fields';

export interface Operation {
	/** resources.ts shows them for their resource and operation (shownFor), once for every operation. */
	description: INodeProperties[];
	execute(this: IExecuteFunctions, item: Item): Promise<INodeExecutionData[]>;
	/** Asked for once after the last item. */
	hints?(this: IExecuteFunctions): NodeExecutionHint[];
}

/** `value` is saved in workflows and names the module; `action` is what n8n's picker and AI tools call it. */
export interface OperationOption {
	name: string;
	value: string;
	action: string;
}

export function shownFor(resource: string, operation: string, properties: INodeProperties[]) {
	return updateDisplayOptions(
		{ show: { resource: [resource], operation: [operation] } },
		properties,
	);
}

import { updateDisplayOptions } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	NodeExecutionHint,
} from 'n8n-workflow';

import type { Item } from './common/fields';

/** What every operation file exports: its parameters and how it runs for one input item. */
export interface Operation {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, item: Item): Promise<INodeExecutionData[]>;
	/** Hints about the whole run, asked for once after the last item. */
	hints?(this: IExecuteFunctions): NodeExecutionHint[];
}

/**
 * One operation as its resource's index.ts lists it, the one place it is named: the option the user picks (`name`
 * is also the subtitle's label, `value` is saved in workflows and names the operation's module, `action` is what
 * n8n's node picker and AI tools call it, `description` when it says more than the action).
 */
export interface OperationOption {
	name: string;
	value: string;
	action: string;
	description?: string;
}

/** An operation's parameters, shown only when its resource and operation are picked. */
export function shownFor(
	resource: string,
	operation: string,
	properties: INodeProperties[],
): INodeProperties[] {
	return updateDisplayOptions(
		{ show: { resource: [resource], operation: [operation] } },
		properties,
	);
}

import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	NodeExecutionHint,
} from 'n8n-workflow';

import type { Item } from './common/fields';

export interface Operation {
	/** resources.ts shows them for their resource and operation, once for every operation. */
	description: INodeProperties[];
	execute(this: IExecuteFunctions, item: Item): Promise<INodeExecutionData[]>;
	/** Asked for once after the last item. */
	hints?(this: IExecuteFunctions): NodeExecutionHint[];
}

/** `value` is saved in workflows and names the module; `action` is what n8n's picker and AI tools call it, and the
 * option's description unless one is given. */
export function operationOption(name: string, value: string, action: string, description = action) {
	return { name, value, action, description };
}

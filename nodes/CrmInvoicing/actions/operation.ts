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
	hint?(this: IExecuteFunctions): NodeExecutionHint;
}

import {
	NodeApiError,
	NodeOperationError,
	type IExecuteFunctions,
	type INodeExecutionData,
	type JsonObject,
} from 'n8n-workflow';

import { addHints, costHint } from './common';
import { runStatsOf } from '../shared';
import { RESOURCES } from './resources';

export const resources = Object.fromEntries(
	RESOURCES.map((resource) => [resource.value, resource.runs]),
);

/** With "Continue on Fail" an item's error becomes its output. */
export async function router(this: IExecuteFunctions) {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = resources[resource]?.[operationName];
	if (!operation)
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" of resource "${resource}" is not supported`,
			{ description: 'Open the node and pick a resource and an operation from the lists.' },
		);

	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		// One object per input item, as constructExecutionMetaData does: n8n stores it once, not per output.
		const pairedItem = { item: itemIndex };
		try {
			const results = await operation.execute.call(this, { context: this, index: itemIndex });
			for (const result of results) returnData.push({ ...result, pairedItem });
		} catch (error) {
			if (this.continueOnFail()) {
				const { message, description, httpCode } = error as NodeApiError;
				const json: Record<string, string> = { error: message };
				if (description) json.description = description;
				if (httpCode) json.httpCode = httpCode;
				returnData.push({ json, pairedItem });
				continue;
			}
			// Errors of the transport and the field checks already name their item; n8n hands those back as they are.
			if (error instanceof NodeApiError)
				throw new NodeApiError(this.getNode(), error as unknown as JsonObject);
			throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		}
	}
	addHints(this, [operation.hint?.call(this), costHint(runStatsOf(this))]);
	return [returnData];
}

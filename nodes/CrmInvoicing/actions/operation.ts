import { updateDisplayOptions } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	NodeExecutionHint,
} from 'n8n-workflow';

/** What every operation file exports: its parameters and how it runs for one input item. */
export interface Operation {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]>;
	/** Hints about the whole run, asked for once after the last item (e.g. "Created 2 and updated 1 leads"). */
	hints?(this: IExecuteFunctions): NodeExecutionHint[];
}

/**
 * One operation of a resource, as its resource lists it: the option the user picks (name, value, description,
 * action), and the code that runs it. Each resource's list is the one place an operation is named: the "Operation"
 * parameter's options, the router (actions/router.ts) and the node's subtitle are all read from it.
 */
export interface ResourceOperation {
	/** The label of the option, and of the node's subtitle ("Create or Update: Lead"). */
	name: string;
	/** The `operation` parameter's value, as saved in workflows. */
	value: string;
	description: string;
	/** What n8n's node picker and AI tools call the operation, e.g. "Create a lead". */
	action: string;
	run: Operation;
}

/** The "Operation" parameter of a resource: its options in the order of `operations` (alphabetical by name). */
export function operationProperty(
	resource: string,
	operations: ResourceOperation[],
	defaultValue: string,
): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: operations.map(
			({ name, value, description, action }): INodePropertyOptions => ({
				name,
				value,
				description,
				action,
			}),
		),
		default: defaultValue,
	};
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

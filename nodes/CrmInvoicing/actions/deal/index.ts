import { operationOption } from '../operation';

export * as create from './create';
export * as markLost from './markLost';
export * as markWon from './markWon';
export * as moveToStage from './moveToStage';
export * as update from './update';

export const operations = [
	operationOption(
		'Create',
		'create',
		'Create a deal',
		'Create a deal in a pipeline stage for a client',
	),
	operationOption('Mark as Lost', 'markLost', 'Mark a deal as lost'),
	operationOption('Mark as Won', 'markWon', 'Mark a deal as won'),
	operationOption(
		'Move to Stage',
		'moveToStage',
		'Move a deal to a stage',
		'Move a deal to another pipeline stage',
	),
	operationOption(
		'Update',
		'update',
		'Update a deal',
		'Update the given fields of a deal (title, price, stage, status, priority, …)',
	),
];

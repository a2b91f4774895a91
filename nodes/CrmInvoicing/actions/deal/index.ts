import type { ResourceOperation } from '../operation';
import * as create from './create';
import * as markLost from './markLost';
import * as markWon from './markWon';
import * as moveToStage from './moveToStage';
import * as update from './update';

export const operations: ResourceOperation[] = [
	{
		name: 'Create',
		value: 'create',
		action: 'Create a deal',
		description: 'Create a deal in a pipeline stage for a client',
		run: create,
	},
	{ name: 'Mark as Lost', value: 'markLost', action: 'Mark a deal as lost', run: markLost },
	{ name: 'Mark as Won', value: 'markWon', action: 'Mark a deal as won', run: markWon },
	{
		name: 'Move to Stage',
		value: 'moveToStage',
		action: 'Move a deal to a stage',
		description: 'Move a deal to another pipeline stage',
		run: moveToStage,
	},
	{
		name: 'Update',
		value: 'update',
		action: 'Update a deal',
		description: 'Update the given fields of a deal (title, price, stage, status, priority, …)',
		run: update,
	},
];

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
		description: 'Create a deal in a pipeline stage for a client',
		action: 'Create a deal',
		run: create,
	},
	{
		name: 'Mark as Lost',
		value: 'markLost',
		description: 'Mark a deal as lost',
		action: 'Mark a deal as lost',
		run: markLost,
	},
	{
		name: 'Mark as Won',
		value: 'markWon',
		description: 'Mark a deal as won',
		action: 'Mark a deal as won',
		run: markWon,
	},
	{
		name: 'Move to Stage',
		value: 'moveToStage',
		description: 'Move a deal to another pipeline stage',
		action: 'Move a deal to a stage',
		run: moveToStage,
	},
	{
		name: 'Update',
		value: 'update',
		description: 'Update the given fields of a deal (title, price, stage, status, priority, …)',
		action: 'Update a deal',
		run: update,
	},
];

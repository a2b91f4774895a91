export * as create from './create';
export * as markLost from './markLost';
export * as markWon from './markWon';
export * as moveToStage from './moveToStage';
export * as update from './update';

export const operations = [
	{
		name: 'Create',
		value: 'create',
		action: 'Create a deal',
		description: 'Create a deal in a pipeline stage for a client',
	},
	{ name: 'Mark as Lost', value: 'markLost', action: 'Mark a deal as lost' },
	{ name: 'Mark as Won', value: 'markWon', action: 'Mark a deal as won' },
	{
		name: 'Move to Stage',
		value: 'moveToStage',
		action: 'Move a deal to a stage',
		description: 'Move a deal to another pipeline stage',
	},
	{
		name: 'Update',
		value: 'update',
		action: 'Update a deal',
		description: 'Update the given fields of a deal (title, price, stage, status, priority, …)',
	},
];

import type { INodeProperties } from 'n8n-workflow';

import * as create from './create';
import * as markLost from './markLost';
import * as markWon from './markWon';
import * as moveToStage from './moveToStage';
import * as update from './update';

export { create, markLost, markWon, moveToStage, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['deal'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a deal in a pipeline stage for a client',
				action: 'Create a deal',
			},
			{
				name: 'Mark as Lost',
				value: 'markLost',
				description: 'Mark a deal as lost',
				action: 'Mark a deal as lost',
			},
			{
				name: 'Mark as Won',
				value: 'markWon',
				description: 'Mark a deal as won',
				action: 'Mark a deal as won',
			},
			{
				name: 'Move to Stage',
				value: 'moveToStage',
				description: 'Move a deal to another pipeline stage',
				action: 'Move a deal to a stage',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Update the given fields of a deal (title, price, stage, status, priority, …)',
				action: 'Update a deal',
			},
		],
		default: 'create',
	},
	...create.description,
	...markLost.description,
	...markWon.description,
	...moveToStage.description,
	...update.description,
];

import { op } from '../operation';
import * as create from './create';
import * as markLost from './markLost';
import * as markWon from './markWon';
import * as moveToStage from './moveToStage';
import * as update from './update';

export const operations = [
	op('Create', 'create', create, 'Create a deal', 'Create a deal in a pipeline stage for a client'),
	op('Mark as Lost', 'markLost', markLost, 'Mark a deal as lost'),
	op('Mark as Won', 'markWon', markWon, 'Mark a deal as won'),
	op(
		'Move to Stage',
		'moveToStage',
		moveToStage,
		'Move a deal to a stage',
		'Move a deal to another pipeline stage',
	),
	op(
		'Update',
		'update',
		update,
		'Update a deal',
		'Update the given fields of a deal (title, price, stage, status, priority, …)',
	),
];

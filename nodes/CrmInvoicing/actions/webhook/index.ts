import { op } from '../operation';
import * as create from './create';
import * as deleteSubscription from './delete';
import * as get from './get';
import * as getMany from './getMany';

export const operations = [
	op(
		'Create',
		'create',
		create,
		'Create a webhook subscription',
		'Subscribe a URL to events; the output holds the signing secret, shown only this once',
	),
	op('Delete', 'delete', deleteSubscription, 'Delete a webhook subscription'),
	op(
		'Get',
		'get',
		get,
		'Get a webhook subscription',
		'Get a webhook subscription by ID (without its secret)',
	),
	op(
		'Get Many',
		'getMany',
		getMany,
		'Get many webhook subscriptions',
		'Get many webhook subscriptions (without their secrets)',
	),
];

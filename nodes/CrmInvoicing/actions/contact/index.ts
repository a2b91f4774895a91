import { op } from '../operation';
import * as getMany from './getMany';

export const operations = [
	op(
		'Get Many',
		'getMany',
		getMany,
		'Get many contacts',
		'Get many contacts (API v2), optionally filtered by search text',
	),
];

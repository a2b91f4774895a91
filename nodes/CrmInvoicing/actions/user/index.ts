import { op } from '../operation';
import * as getMany from './getMany';

export const operations = [
	op(
		'Get Many',
		'getMany',
		getMany,
		'Get many users',
		'Get many users of the team, optionally filtered by search text or active membership',
	),
];

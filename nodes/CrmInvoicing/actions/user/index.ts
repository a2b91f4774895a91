import { operationOption } from '../operation';

export * as getMany from './getMany';

export const operations = [
	operationOption(
		'Get Many',
		'getMany',
		'Get many users',
		'Get many users of the team, optionally filtered by search text or active membership',
	),
];

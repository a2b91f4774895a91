import { operationOption } from '../operation';

export * as getMany from './getMany';

export const operations = [
	operationOption(
		'Get Many',
		'getMany',
		'Get many contacts',
		'Get many contacts (API v2), optionally filtered by search text',
	),
];

import { getManyOperation } from '../common/list';
import { textProperty } from '../common/options';

export const operations = [
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many contacts',
		description: 'Get many contacts (API v2), optionally filtered by search text',
	},
];

export const getMany = getManyOperation({
	resource: 'contact',
	path: '/contacts',
	version: 'v2',
	filters: [
		textProperty('Search', 'search', {
			placeholder: 'jane',
			description:
				'Text to look for in the contacts (sent to the v2 API as the "search" query parameter)',
		}),
	],
});

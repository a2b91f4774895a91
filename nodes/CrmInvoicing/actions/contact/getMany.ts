import { getManyOperation, textProperty } from '../common';

export const { description, execute } = getManyOperation({
	resource: 'contact',
	version: 'v2',
	filters: [
		textProperty('Search', 'search', {
			placeholder: 'jane',
			description:
				'Text to look for in the contacts (sent to the v2 API as the "search" query parameter)',
		}),
	],
});

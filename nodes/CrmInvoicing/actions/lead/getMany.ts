import { getManyOperation } from '../common/list';
import { textProperty } from '../common/options';

export const { description, execute } = getManyOperation('lead', 'leads', { path: '/leads' }, [
	{
		displayName: 'Archived',
		name: 'archived',
		type: 'boolean',
		default: false,
		description:
			'Whether to return only archived leads (on) or only leads that are not archived (off). Leave this filter out to get both.',
	},
	textProperty('Search', 'search', {
		placeholder: 'jane',
		description: 'Text to look for in the name, email, mobile or website of the leads',
	}),
	textProperty('Stage ID', 'stageId', {
		placeholder: 'e.g. lst_new',
		description: 'Public ID of a lead stage: only leads in that stage are returned',
	}),
]);

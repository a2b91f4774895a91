import type { INodeProperties } from 'n8n-workflow';

import { isPlainObject } from '../../shared';

/** The records a picker lists: its list search method (methods/listSearch.ts) and placeholders. */
const PICKERS = {
	lead: { searchListMethod: 'searchLeads', list: 'Select a lead...', id: 'e.g. lead_8f2k1' },
	user: { searchListMethod: 'searchUsers', list: 'Select a user...', id: 'e.g. usr_5e0c' },
};

/**
 * A record picked from a searchable, paged list ("From List") or given by its public ID ("By ID");
 * `more` holds the rest (description, required).
 */
export function locatorProperty(
	displayName: string,
	name: string,
	record: keyof typeof PICKERS,
	more: Partial<INodeProperties>,
): INodeProperties {
	const { searchListMethod, list, id } = PICKERS[record];
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: list,
				typeOptions: { searchListMethod, searchable: true },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: id },
		],
		...more,
	};
}

/**
 * The value of a resource locator (`{ __rl: true, mode, value }`) read from inside a collection, where n8n does not
 * extract it; a plain value (an expression that gave an ID) is returned as it is.
 */
export function locatorValue(value: unknown): unknown {
	return isPlainObject(value) && 'value' in value ? value.value : value;
}

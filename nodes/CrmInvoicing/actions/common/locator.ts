import type { INodeProperties } from 'n8n-workflow';

import { isPlainObject } from '../../shared';

const PICKERS = {
	lead: { searchListMethod: 'searchLeads', list: 'Select a lead...', id: 'e.g. lead_8f2k1' },
	user: { searchListMethod: 'searchUsers', list: 'Select a user...', id: 'e.g. usr_5e0c' },
};

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

/** n8n does not extract a locator inside a collection; a plain value (an ID from an expression) is returned as is. */
export function locatorValue(value: unknown) {
	return isPlainObject(value) && 'value' in value ? value.value : value;
}

import type { INodeProperties } from 'n8n-workflow';

import { isPlainObject } from '../../shared';

interface LocatorOptions {
	displayName: string;
	name: string;
	description: string;
	/** Name of the list search method in methods/listSearch.ts. */
	searchListMethod: 'searchLeads' | 'searchUsers';
	listPlaceholder: string;
	idPlaceholder: string;
	required?: boolean;
}

/** A record picked from a searchable, paged list ("From List") or given by its public ID ("By ID"). */
export function locatorProperty(options: LocatorOptions): INodeProperties {
	const property: INodeProperties = {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description: options.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: options.listPlaceholder,
				typeOptions: { searchListMethod: options.searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: options.idPlaceholder,
			},
		],
	};
	if (options.required) property.required = true;
	return property;
}

/**
 * The value of a resource locator (`{ __rl: true, mode, value }`) read from inside a collection, where n8n does not
 * extract it; a plain value (an expression that gave an ID) is returned as it is.
 */
export function locatorValue(value: unknown): unknown {
	return isPlainObject(value) && 'value' in value ? value.value : value;
}

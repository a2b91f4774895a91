import type { IDataObject } from 'n8n-workflow';

import {
	collectionParameter,
	customFieldsIn,
	fail,
	getManyOperation,
	pairsOf,
	textProperty,
	type Item,
} from '../common';
import { textOf } from './fields';

/** Versions 1 to 3 are unchanged: the filter is not shown to them, so n8n gives them no pairs (it drops a parameter
 * a node's version does not show when it loads the workflow). */
const CUSTOM_FIELD_FILTER_VERSION = 4;

/** A pair without a key fails the item: matching "any field" is not what was asked. */
function keyOf(item: Item, key: unknown, position: number) {
	const name = String(key ?? '').trim();
	if (name !== '') return name;
	fail(
		item,
		`"Custom Field Filter" pair ${position + 1} has no key`,
		"Enter the custom field's key as your CRM names it (e.g. externalId), or remove the pair.",
	);
}

function customFieldFilterOf(item: Item) {
	const pairs = pairsOf(collectionParameter(item, 'customFieldFilter')).map((pair, position) => ({
		key: keyOf(item, pair.key, position),
		text: textOf(pair.value ?? ''),
	}));
	if (pairs.length === 0) return undefined;
	return (lead: IDataObject) => {
		const fields = customFieldsIn(lead);
		// Own keys only: a key named "constructor" is a custom field, never Object's.
		return pairs.every(
			({ key, text }) =>
				Object.hasOwn(fields, key) && fields[key] !== null && textOf(fields[key]) === text,
		);
	};
}

export const { description, execute } = getManyOperation({
	resource: 'lead',
	ownFilter: customFieldFilterOf,
	more: [
		{
			displayName: 'Custom Field Filter',
			name: 'customFieldFilter',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Custom Field Filter',
			default: {},
			displayOptions: { show: { '@version': [{ _cnd: { gte: CUSTOM_FIELD_FILTER_VERSION } }] } },
			description:
				'Only leads whose custom fields hold these values; with several pairs, every pair must match. The API cannot search custom fields, so the node reads the leads (100 per request) and keeps the matches.',
			options: [
				{
					displayName: 'Field',
					name: 'field',
					values: [
						textProperty('Key', 'key', {
							placeholder: 'externalId',
							description: "The custom field's key as defined in your CRM workspace",
						}),
						textProperty('Value', 'value', {
							placeholder: 'EXT-0142',
							description:
								'The value the custom field must hold, exactly. A number or true/false in the CRM matches its text (42 matches "42"); an empty or missing field never matches.',
						}),
					],
				},
			],
		},
	],
	filters: [
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
	],
});

import type { IDataObject } from 'n8n-workflow';

import { apiRequest, filledText } from '../../shared';
import {
	customFieldsIn,
	failAsIs,
	locatorProperty,
	recordPath,
	recordRequest,
	shown,
	type Editable,
	type Item,
} from '../common';
import { LEAD_MAPPER_FIELDS, leadBodyFromFields, textOf } from './fields';

/** The spec leaves the effect of `archived` and `customFields` open: a server that ignores them must not be reported
 * as having applied them (choices lead-patch-archived, lead-patch-custom-fields). */
function checkApplied(item: Item, leadId: string, body: IDataObject, lead: IDataObject) {
	if (typeof body.archived === 'boolean' && lead.archived !== body.archived) {
		const verb = body.archived ? 'archive' : 'unarchive';
		failAsIs(
			item,
			`The API did not ${verb} lead ${leadId}: it still answers archived=${shown(lead.archived)}`,
			'The API documents "archived" as a field of a lead but not among the fields PATCH /leads/{id} accepts, ' +
				`and this CRM ignored it, so nothing was ${verb}d. Use the CRM itself for this, ` +
				`or ask the CRM's provider how to ${verb} a lead through the API.`,
		);
	}
	const sentCustom = customFieldsIn(body);
	const answered = customFieldsIn(lead);
	// Compared as text: a server may turn "5" into 5 or the reverse. A key it dropped is never a match.
	const ignored = Object.keys(sentCustom).filter(
		(key) =>
			textOf(sentCustom[key]) !== textOf(Object.hasOwn(answered, key) ? answered[key] : undefined),
	);
	if (ignored.length > 0) {
		failAsIs(
			item,
			`The API did not update the custom fields ${ignored.join(', ')} of lead ${leadId}: it answers customFields=${shown(lead.customFields ?? null)}`,
			'The API does not document "customFields" among the fields PATCH /leads/{id} accepts, and this CRM did not apply them. ' +
				'Change them in the CRM itself, or check their keys against the custom fields defined in the CRM.',
		);
	}
}

/** The spec does not show the response: when it is no lead, the lead is read back (choice lead-patch-response). */
export async function patchLead(item: Item, leadId: string, body: IDataObject) {
	const path = recordPath('/leads', leadId);
	const response = await apiRequest.call(item.context, {
		method: 'PATCH',
		path,
		body,
		itemIndex: item.index,
		expect: 'empty-or-object',
	});
	// Read back when the answer is not a lead, or does not show a field we must check.
	const needsArchived =
		typeof body.archived === 'boolean' && typeof response.archived !== 'boolean';
	const lead =
		!filledText(response.id) || needsArchived ? await recordRequest(item, 'GET', path) : response;
	checkApplied(item, leadId, body, lead);
	return lead;
}

export const LEAD: Editable = {
	record: 'lead',
	standard: LEAD_MAPPER_FIELDS,
	fromFields: leadBodyFromFields,
	idProperty: locatorProperty('Lead', 'leadId', 'lead', {
		required: true,
		description:
			'The lead to use. Pick it from the list (shows name, email and lead number; searches them and the mobile and website) or enter its public ID.',
	}),
	patch: patchLead,
};

import type { IDataObject, ILoadOptionsFunctions, ResourceMapperField } from 'n8n-workflow';

import { apiRequest, BoundedMap, credentialOf, readOnePage } from '../../shared';
import { customFieldsOf, mapperFields, MAX_CUSTOM_FIELDS, recordPath } from '../common';
import { DEAL_MAPPER_FIELDS } from '../deal/fields';
import { LEAD_MAPPER_FIELDS } from '../lead/fields';

// Custom fields are found in records' `customFields`: one page of leads, or the one deal Update names (the API has no
// deal list). Kept for CACHE_MS per API key, so that the editor reads the CRM once.

const CACHE_MS = 60_000;

/** Keyed by the key's hash, never the key. */
const found = new BoundedMap<
	string,
	{ custom: ResourceMapperField[]; notice?: string; at: number }
>(100);

async function cached(
	context: ILoadOptionsFunctions,
	what: string,
	read: () => Promise<IDataObject[]>,
	none: string,
) {
	try {
		const key = `${(await credentialOf(context)).keyId}:${what}`;
		const hit = found.peek(key);
		if (hit && Date.now() - hit.at < CACHE_MS) return hit;
		const { custom, capped } = customFieldsOf(await read());
		const result = {
			custom,
			notice: capped
				? `Only the first ${MAX_CUSTOM_FIELDS} custom fields found are listed. Set the others under "Additional Fields" → "Custom Fields".`
				: undefined,
			at: Date.now(),
		};
		if (custom.length === 0) result.notice = none;
		found.set(key, result);
		return result;
	} catch (error) {
		// Not kept: the next lookup tries again (a key given the right to list, a CRM back up, a credential fixed).
		const notice = `No custom fields listed: the CRM could not be read (${(error as Error).message}). Set custom fields under "Additional Fields" → "Custom Fields".`;
		return { custom: [], notice };
	}
}

export async function leadCustomFields(context: ILoadOptionsFunctions) {
	return await cached(
		context,
		'leads',
		async () => (await readOnePage.call(context, { path: '/leads' })).records,
		'No custom fields listed: none of the leads the CRM listed (one page of up to 100) has custom fields. Set them under "Additional Fields" → "Custom Fields".',
	);
}

export async function getLeadFields(this: ILoadOptionsFunctions) {
	const operation = String(this.getCurrentNodeParameter('operation'));
	const { custom, notice } = await leadCustomFields(this);
	return mapperFields(LEAD_MAPPER_FIELDS, operation, custom, notice);
}

export async function getDealFields(this: ILoadOptionsFunctions) {
	const operation = String(this.getCurrentNodeParameter('operation'));
	const dealId = this.getCurrentNodeParameter('dealId');
	const id = typeof dealId === 'string' ? dealId.trim() : '';
	// Custom fields are read from the deal only when "Deal ID" is a fixed ID, not an expression.
	if (operation !== 'update' || id === '' || id.startsWith('='))
		return mapperFields(
			DEAL_MAPPER_FIELDS,
			operation,
			[],
			operation === 'update'
				? 'No custom fields listed: the API has no deal list, so they are read from the deal named in "Deal ID" when it is a fixed ID, not an expression. Set them under "Additional Fields" → "Custom Fields".'
				: 'No custom fields listed: the API has no deal list to find them in. Set them under "Additional Fields" → "Custom Fields", or with "Map Automatically" from an input "customFields" object.',
		);
	const { custom, notice } = await cached(
		this,
		`deal:${id}`,
		async () => [
			await apiRequest.call(this, {
				method: 'GET',
				path: recordPath('/deals', id),
				expect: 'record',
			}),
		],
		`No custom fields listed: deal ${id} has none. Set them under "Additional Fields" → "Custom Fields".`,
	);
	return mapperFields(DEAL_MAPPER_FIELDS, operation, custom, notice);
}

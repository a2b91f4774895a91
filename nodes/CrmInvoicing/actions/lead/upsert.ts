import type { IDataObject, IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import { BoundedMap, CREDENTIAL_TYPE, filledText, readPages } from '../../shared';
import {
	additionalFieldsProperty,
	collectionParameter,
	collectionProperty,
	fail,
	fromVersion,
	OUTPUT_CONTROL_VERSION,
	recordRequest,
	requiredParameter,
	textProperty,
	type Item,
} from '../common';
import { leadBodyFromFields, leadFieldOptions } from './fields';
import { patchLead } from './patch';

// Matching and output rules: README, "Create or Update a lead". Within one execution an email already created or
// updated goes straight to that lead, as search results may lag behind a create.

export const description = [
	{
		displayName:
			'Finds the lead with this email (ignoring case and spaces around it) and updates it, or creates a lead when there is none. Archived leads are not matched.',
		name: 'upsertNotice',
		type: 'notice',
		default: '',
	},
	textProperty('Email', 'email', {
		placeholder: 'name@email.com',
		required: true,
		description:
			'Email address that identifies the lead, compared without case and surrounding spaces',
	}),
	textProperty('Name', 'name', {
		required: true,
		placeholder: 'Jane Doe',
		description:
			'Full name of the lead: set on a new lead, and written over the name of a lead that is found',
	}),
	additionalFieldsProperty(
		leadFieldOptions.filter((option) => option.name !== 'email'),
		'Fields to set on the new or found lead. Fields not added here keep their values on a found lead.',
	),
	collectionProperty(
		'Options',
		'options',
		[
			{
				displayName: 'If Several Leads Match',
				name: 'severalMatches',
				type: 'options',
				default: 'oldest',
				options: [
					{
						name: 'Fail the Item',
						value: 'error',
						description: 'Stop with an error that names the IDs of the matching leads',
					},
					{
						name: 'Update the Oldest',
						value: 'oldest',
						description: 'Update the lead created first (by its creation time)',
					},
				],
				description: 'What to do when more than one lead that is not archived has this email',
			},
		],
		{ placeholder: 'Add option' },
	),
];

/** At most 100 executions (LRU), 10,000 emails each. */
const memoryByExecution = new BoundedMap<string, BoundedMap<string, string>>(100);
const newMemory = () => new BoundedMap<string, string>(10_000);

/** Per run (n8n's context): the outcomes counted for the hint, and the email memory of a run without an execution
 * id. */
const runs = new WeakMap<
	object,
	{ created: number; updated: number; memory: BoundedMap<string, string> }
>();

function runOf(context: IExecuteFunctions) {
	const run = runs.get(context) ?? { created: 0, updated: 0, memory: newMemory() };
	runs.set(context, run);
	return run;
}

/** Shared by the execution's Create or Update nodes with the same credential. getExecutionId() is typed as a string,
 * but n8n-core returns `additionalData.executionId`, which is optional (n8n-core itself falls back to a placeholder):
 * without one the memory is the run's, never another execution's. */
function memoryOf(context: IExecuteFunctions) {
	const executionId = context.getExecutionId?.();
	const node = context.getNode();
	const key = `${executionId}:${node.credentials?.[CREDENTIAL_TYPE]?.id ?? node.id}`;
	if (executionId) return memoryByExecution.getOrSet(key, newMemory);
	return runOf(context).memory;
}

/** `matchedField` is null when a lead was created. */
function outcomeItem(item: Item, lead: IDataObject, action: 'created' | 'updated') {
	runOf(item.context)[action]++;
	if (!fromVersion(item, OUTPUT_CONTROL_VERSION)) return [{ json: lead }];
	return [
		{ json: { ...lead, _upsert: { action, matchedField: action === 'updated' ? 'email' : null } } },
	];
}

/** Items that failed are in neither count. */
export function hint(this: IExecuteFunctions): NodeExecutionHint {
	const { created, updated } = runOf(this);
	return {
		message: `Created ${created} and updated ${updated} leads`,
		type: 'info',
		location: 'outputPane',
	};
}

function normalizeEmail(value: unknown) {
	return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

/** Among equal (or unreadable) times, the first listed. */
function oldestOf(leads: IDataObject[]) {
	const ms = ({ createdAt }: IDataObject) =>
		(typeof createdAt === 'string' && Date.parse(createdAt)) || Infinity;
	return leads.reduce((oldest, lead) => (ms(lead) < ms(oldest) ? lead : oldest));
}

/** The search also matches names and parts, so each email is compared here. The spec gives no order, so "the oldest"
 * needs every page, within the reader's caps: past them the item fails, never a guess. */
async function findLeadId(item: Item, email: string) {
	const options = collectionParameter(item, 'options');
	const matches: IDataObject[] = [];
	const pages = readPages.call(item.context, {
		path: '/leads',
		qs: { search: email, archived: false },
		itemIndex: item.index,
		narrow:
			"The CRM's search matches names, mobiles and websites too, so many leads mention this address. " +
			"Use Lead → Get Many to look at the matches and merge or archive them, or use Lead → Update with the lead's ID.",
	});
	for await (const page of pages) {
		for (const lead of page.records) {
			// Not archived (the server may ignore the filter), with an ID, and this very email.
			if (lead.archived !== true && filledText(lead.id) && normalizeEmail(lead.email) === email)
				matches.push(lead);
		}
		if (options.severalMatches === 'error' && matches.length > 1) {
			fail(
				item,
				`Several leads have the email "${email}": ${matches.map((lead) => lead.id).join(', ')}${page.nextCursor === null ? '' : ' and maybe more'}`,
				'Merge or archive the duplicates in the CRM, or set "If Several Leads Match" to "Update the Oldest".',
			);
		}
	}
	return matches.length === 0 ? undefined : String(oldestOf(matches).id);
}

export async function execute(this: IExecuteFunctions, item: Item) {
	const givenEmail = requiredParameter(item, 'email', 'Email');
	const email = normalizeEmail(givenEmail);
	const name = requiredParameter(item, 'name', 'Name');
	// The email parameter is the only email: one set through "Other Fields (JSON)" is not sent.
	const fields = leadBodyFromFields(item, collectionParameter(item, 'additionalFields'));
	delete fields.email;
	const memory = memoryOf(this);

	const leadId = memory.get(email) ?? (await findLeadId(item, email));
	// A found lead's email already matches: it is kept as the CRM has it. A created lead's answer is a record, whose ID
	// is a number or a non-blank text.
	const lead =
		leadId === undefined
			? await recordRequest(item, 'POST', '/leads', { ...fields, name, email: givenEmail })
			: await patchLead(item, leadId, { ...fields, name });
	memory.set(email, leadId ?? String(lead.id));
	return outcomeItem(item, lead, leadId === undefined ? 'created' : 'updated');
}

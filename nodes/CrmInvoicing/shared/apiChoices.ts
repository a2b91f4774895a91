/**
 * The register of choices: every choice this package makes where the API specification says "not shown" or leaves
 * a point open. It is not HTTP (the transport's spec values are in transport/spec.ts); it is the one list a reviewer
 * reads to know what the package assumes.
 *
 * Each choice is one entry of SPEC_CHOICES: a stable `id`, the spec `section` that is silent, the functions that
 * apply it (`appliedBy`: `path#name`, path from the repository's root) and a one-line `summary`. Where the choice is
 * a value the code uses (a name, a list, a pattern), the value is exported below the register and imported where it
 * is applied, so that the code and the register cannot drift apart.
 *
 * To add a choice: add an entry with a new id, a row with the same id and section to the table in
 * docs/spec-choices.md, and its value below if it has one. test/unit/package/specChoices.test.ts checks that every
 * entry has a row and every row an entry, and that each `appliedBy` names a function defined in that file.
 */

export interface SpecChoice {
	/** Stable id, also the first column of docs/spec-choices.md's table, e.g. `lead-patch-response`. */
	id: string;
	/** Where the spec is silent, as the spec numbers it: `§4 PATCH /leads/{id}`. */
	section: string;
	/** The functions (or constants) that apply the choice: `nodes/…/file.ts#name`. */
	appliedBy: readonly string[];
	/** The choice, in one sentence. */
	summary: string;
}

export const SPEC_CHOICES: readonly SpecChoice[] = [
	{
		id: 'event-names',
		section: '§6 Event names',
		appliedBy: [
			'nodes/CrmInvoicing/shared/events.ts#EVENT_OPTIONS',
			'nodes/CrmInvoicing/trigger/subscription.ts#refusedEventsError',
		],
		summary:
			'Offers lead.created and six assumed names (KNOWN_EVENTS, marked "Assumed Name"), plus any custom name; a refusal of undocumented names is an error that names them.',
	},
	{
		id: 'event-payloads',
		section: '§6 Event names',
		appliedBy: ['nodes/CrmInvoicing/trigger/fullRecord.ts#wantsFullRecord'],
		summary:
			'Payloads of events other than lead events are output as received; "Output Full Record" reads the record only for lead.* events.',
	},
	{
		id: 'lead-patch-response',
		section: '§4 PATCH /leads/{id}',
		appliedBy: ['nodes/CrmInvoicing/actions/lead/patch.ts#patchLead'],
		summary:
			'An answer that is a lead (has an id) is the output; any other answer (204, empty) makes the node read the lead back with GET /leads/{id}.',
	},
	{
		id: 'lead-patch-archived',
		section: '§4 PATCH /leads/{id}',
		appliedBy: ['nodes/CrmInvoicing/actions/lead/patch.ts#checkApplied'],
		summary:
			'`archived` is sent in PATCH (Archive, Unarchive) and checked on the lead afterwards (LEAD_PATCH_FIELDS_CHECKED_AFTERWARDS); a CRM that ignored it fails the item.',
	},
	{
		id: 'lead-patch-custom-fields',
		section: '§4 PATCH /leads/{id}',
		appliedBy: ['nodes/CrmInvoicing/actions/lead/patch.ts#checkApplied'],
		summary:
			'`customFields` sent in PATCH are checked on the lead afterwards (LEAD_PATCH_FIELDS_CHECKED_AFTERWARDS); those not applied fail the item, naming them.',
	},
	{
		id: 'custom-fields-patch',
		section: '§4 PATCH /leads/{id}',
		appliedBy: ['nodes/CrmInvoicing/actions/common/mapped.ts#prepareUpdate'],
		summary:
			"Whether PATCH merges `customFields` or replaces it whole is not shown: Update (node version 3) reads the record once when it sets custom fields and sends them with the record's other custom fields, right under both readings.",
	},
	{
		id: 'deal-read',
		section: '§4 Deals (v1)',
		appliedBy: [
			'nodes/CrmInvoicing/actions/deal/update.ts#execute',
			'nodes/CrmInvoicing/actions/methods/resourceMapping.ts#getDealFields',
		],
		summary:
			'No deal read or list is shown: the mapper lists no custom deal fields on Create, and on Update reads the deal named by a fixed Deal ID with GET /deals/{id}; Update reads it there before setting custom fields. A CRM without it answers an error that fails the item.',
	},
	{
		id: 'lead-upsert-search',
		section: '§4 GET /leads',
		appliedBy: ['nodes/CrmInvoicing/actions/lead/upsert.ts#findLeadId'],
		summary:
			"Create or Update searches for the trimmed, lower-cased email and compares each result's email itself, so it relies only on the search returning the lead somewhere in its pages.",
	},
	{
		id: 'lead-list-order',
		section: '§4 GET /leads',
		appliedBy: [
			'nodes/CrmInvoicing/polling/headCheck.ts#HeadCheck',
			'nodes/CrmInvoicing/polling/headCheck.ts#orderOf',
			'nodes/CrmInvoicing/polling/poll.ts#sampleLead',
		],
		summary:
			"The order of GET /leads is not shown: the polling trigger is right under any order; it stops after the first page(s) only when that poll's pages prove the list newest first (by createdAt) down to a lead older than every lead it remembers, else it reads the whole list. It assumes a lead created later has a later or equal createdAt; a lead listed out of order (an import that keeps old dates) is found by a full read at least once per Full Read Interval (60 minutes by default).",
	},
	{
		id: 'lead-changes',
		section: '§4 GET /leads',
		appliedBy: [
			'nodes/CrmInvoicing/polling/memory.ts#fingerprint',
			'nodes/CrmInvoicing/polling/memory.ts#changedFields',
		],
		summary:
			"There is no updated-since filter and no updatedAt: for Updated Lead and Archived Lead the polling trigger compares every lead's fingerprint (whole-record hash and per-field hashes) at each poll.",
	},
	{
		id: 'empty-fields',
		section: '§4 PATCH /leads/{id}',
		appliedBy: [
			'nodes/CrmInvoicing/actions/common/fields.ts#isSet',
			'nodes/CrmInvoicing/actions/common/fields.ts#requireFieldsToChange',
		],
		summary:
			'A field added but left empty is not sent (clearing a value is not shown: send null through Other Fields (JSON)); an update with nothing to change stops before any request.',
	},
	{
		id: 'date-only',
		section: '§2 Resources and their fields',
		appliedBy: [
			'nodes/CrmInvoicing/actions/common/fields.ts#toIsoDate',
			'nodes/CrmInvoicing/actions/common/fields.ts#fromDateOnly',
		],
		summary:
			"Fields are date-times; a date alone is sent as midnight UTC of that date, and a date-time without a zone is read in the workflow's time zone.",
	},
	{
		id: 'ids-as-strings',
		section: '§2 Resources and their fields',
		appliedBy: ['nodes/CrmInvoicing/actions/common/fields.ts#requestText'],
		summary:
			"IDs given as numbers (from expressions) are sent as strings, since the API's IDs are strings; a line item's numeric productId is refused instead.",
	},
	{
		id: 'line-item-required',
		section: '§2 Gaps in this part',
		appliedBy: ['nodes/CrmInvoicing/actions/invoice/lineItems.ts#lineItemsOf'],
		summary:
			'A line needs a name or a product ID, a quantity, and a price unless it has a product ID; empty fields are not sent.',
	},
	{
		id: 'line-item-response-keys',
		section: '§2 Invoice line item, in responses',
		appliedBy: ['nodes/CrmInvoicing/actions/invoice/lineItems.ts#lineItem'],
		summary:
			'Keys only responses have (RESPONSE_ONLY_LINE_ITEM_KEYS) are dropped from line items given as JSON; a numeric productId (what responses show) is refused.',
	},
	{
		id: 'line-item-discount-type',
		section: '§2 Gaps in this part',
		appliedBy: ['nodes/CrmInvoicing/actions/invoice/lineItems.ts#lineItemProperties'],
		summary: 'Discount Type is free text, since only "fixed" is documented.',
	},
	{
		id: 'line-item-bounds',
		section: '§2 Invoice line item, in requests',
		appliedBy: ['nodes/CrmInvoicing/actions/invoice/lineItems.ts#lineItem'],
		summary:
			'Quantity is above 0 and at most 1e9; price, buy price and discount are from 0 to 1e12 (LINE_ITEM_BOUNDS); a reduction goes into discount, not a negative line; every number must be finite.',
	},
	{
		id: 'unix-time-dates',
		section: '§2 Resources and their fields',
		appliedBy: ['nodes/CrmInvoicing/actions/common/fields.ts#fromUnixTime'],
		summary:
			'A number (or a text of 9+ digits) given for a date is Unix time: seconds below 1e11, milliseconds from there (UNIX_TIME_RULE); below 1e8, negative or not finite is refused.',
	},
	{
		id: 'user-search-parameter',
		section: '§4 Clients, products, users (v1)',
		appliedBy: [
			'nodes/CrmInvoicing/actions/user/getMany.ts#execute',
			'nodes/CrmInvoicing/actions/methods/listSearch.ts#searchUsers',
		],
		summary:
			'Sends the search as USER_SEARCH_QUERY_PARAMETER ("search") and also keeps only the users that match (userMatchesSearch), so a CRM that ignores the parameter does not return everyone.',
	},
	{
		id: 'contact-search',
		section: '§4 v2 endpoints',
		appliedBy: ['nodes/CrmInvoicing/actions/contact/getMany.ts#execute'],
		summary:
			"Contact → Get Many sends its Search as `search`; v2's search parameters are not shown.",
	},
	{
		id: 'webhook-list-shape',
		section: '§4 Webhooks (v1)',
		appliedBy: [
			'nodes/CrmInvoicing/shared/transport/pagination.ts#readPageShape',
			'nodes/CrmInvoicing/shared/webhookList.ts#listWebhookSubscriptions',
		],
		summary:
			'GET /webhooks is read in the v1 page shape, as a bare array and in the v2 envelope, fully; an unknown shape or a repeating cursor is an error that says so.',
	},
	{
		id: 'webhook-secret-stripping',
		section: '§4 Webhooks (v1)',
		appliedBy: ['nodes/CrmInvoicing/actions/webhook/shared.ts#withoutSecret'],
		summary:
			'The shapes of GET /webhooks and GET /webhooks/{id} are not shown: Get and Get Many drop every key whose name matches SECRET_KEY_PATTERN, whatever the API sends; only Create outputs the secret.',
	},
	{
		id: 'webhook-delete-answer',
		section: '§4 Webhooks (v1)',
		appliedBy: [
			'nodes/CrmInvoicing/actions/webhook/delete.ts#execute',
			'nodes/CrmInvoicing/shared/transport/request.ts#apiRequestFull',
			'nodes/CrmInvoicing/trigger/subscription.ts#deleteOwnSubscription',
		],
		summary:
			"A 2xx whose body is empty or a JSON object is success, any other body (a sign-in page) an error, for every DELETE; Delete counts a 404 on a retry as deleted (the first attempt did it) and a 404 on the first attempt as an error; the trigger's own cleanup counts any 404 as gone.",
	},
	{
		id: 'subscription-status',
		section: '§3 States and transitions',
		appliedBy: [
			'nodes/CrmInvoicing/trigger/subscription.ts#isInactiveStatus',
			'nodes/CrmInvoicing/trigger/lifecycle.ts#checkStored',
			'nodes/CrmInvoicing/trigger/answers.ts#verdict',
		],
		summary:
			'Subscription status values are not shown: a status matching INACTIVE_SUBSCRIPTION_STATUS (disabled, inactive, paused, failed, deleted) means the CRM delivers nothing, and the trigger subscribes anew; any other status, or none, counts as active.',
	},
	{
		id: 'rate-limit-headers',
		section: '§8 Limits',
		appliedBy: [
			'nodes/CrmInvoicing/shared/transport/rateLimit.ts#announcedWindow',
			'nodes/CrmInvoicing/shared/transport/keyBudget.ts#KeyBudget',
		],
		summary:
			"Paces by RateLimit-* headers when answers carry them; without them keeps to the documented 60 requests per minute (or the credential's Requests per Minute); after a 429 waits Retry-After / RateLimit-Reset.",
	},
	{
		id: 'error-bodies',
		section: '§7 Errors',
		appliedBy: ['nodes/CrmInvoicing/shared/transport/errors.ts#parseErrorBody'],
		summary:
			'Reads error.code / error.message (the v2 shape) on v1 too, else a top-level message / code, else plain text as the message, else a page that is not JSON.',
	},
	{
		id: 'credential-test',
		section: '§5 Authentication',
		appliedBy: ['credentials/CrmInvoicingApi.credentials.ts#CrmInvoicingApi'],
		summary:
			"Tests the key with GET /api/v1/users?limit=1, not following redirects, within 15 s; a 403 means the key is valid but its user may not list users; a 2xx without the list's `items` fails.",
	},
];

/** The ids of SPEC_CHOICES, for lookups and the docs test. */
export const SPEC_CHOICE_IDS: readonly string[] = SPEC_CHOICES.map((choice) => choice.id);

// ----- The values of the choices above, imported where they are applied. -----

/**
 * user-search-parameter: the spec does not name the query parameter of GET /users that searches first name, last
 * name and email. We send `search`, and also keep only the users that match (userMatchesSearch).
 */
export const USER_SEARCH_QUERY_PARAMETER = 'search';

function folded(text: unknown): string {
	return typeof text === 'string'
		? text
				.normalize('NFD')
				.replace(/[\u0300-\u036f]/g, '')
				.toLowerCase()
		: '';
}

/** user-search-parameter: whether a user matches the search text, in the first name, last name, full name or email, ignoring case and accents. */
export function userMatchesSearch(
	user: { firstName?: unknown; lastName?: unknown; email?: unknown },
	search: string,
): boolean {
	const needle = folded(search.trim());
	if (needle === '') return true;
	const fullName = [user.firstName, user.lastName]
		.filter((part) => typeof part === 'string' && part !== '')
		.join(' ');
	// A record that shows none of the searched fields cannot be judged: the server's answer stands.
	if (fullName === '' && folded(user.email) === '') return true;
	return [user.firstName, user.lastName, fullName, user.email].some((value) =>
		folded(value).includes(needle),
	);
}

/**
 * event-names: the spec names only `lead.created`; it describes deals changing stage and invoices being paid in
 * words. The other names are assumed (ours): a real API may refuse them (activation then fails with a message that
 * names them) or accept them and never send them. `documented` tells which is which; the editor shows it. A trigger
 * can subscribe to any other name through "Custom Event Names".
 */
export const KNOWN_EVENTS = [
	{
		name: 'Lead Created',
		value: 'lead.created',
		documented: true,
		description: 'A lead was created. Named in the API documentation.',
	},
	{
		name: 'Lead Updated (Assumed Name)',
		value: 'lead.updated',
		documented: false,
		description:
			'A lead was changed. Assumed name: the API documentation does not name this event.',
	},
	{
		name: 'Deal Created (Assumed Name)',
		value: 'deal.created',
		documented: false,
		description:
			'A deal was created. Assumed name: the API documentation does not name this event.',
	},
	{
		name: 'Deal Updated (Assumed Name)',
		value: 'deal.updated',
		documented: false,
		description:
			'A deal was changed. Assumed name: the API documentation does not name this event.',
	},
	{
		name: 'Deal Stage Changed (Assumed Name)',
		value: 'deal.stage_changed',
		documented: false,
		description:
			'A deal moved to another pipeline stage. The API documentation describes this event but does not name it.',
	},
	{
		name: 'Invoice Created (Assumed Name)',
		value: 'invoice.created',
		documented: false,
		description:
			'An invoice was created. Assumed name: the API documentation does not name this event.',
	},
	{
		name: 'Invoice Paid (Assumed Name)',
		value: 'invoice.paid',
		documented: false,
		description:
			'An invoice was paid. The API documentation describes this event but does not name it.',
	},
] as const;

/** event-names: the event names the API documentation gives by name. */
export const DOCUMENTED_EVENTS: readonly string[] = KNOWN_EVENTS.filter(
	(event) => event.documented,
).map((event) => event.value);

/**
 * lead-patch-archived, lead-patch-custom-fields: lead fields whose effect a PATCH may not have. `archived` is a lead
 * field but not among the fields PATCH documents, and `customFields` is not in the POST /leads body list it refers
 * to. After a PATCH that sends one of them, the lead (answered, or read back) is checked, and an operation the API
 * ignored fails instead of reporting success.
 */
export const LEAD_PATCH_FIELDS_CHECKED_AFTERWARDS = ['archived', 'customFields'] as const;

/**
 * line-item-response-keys: line item keys that only responses have (the spec's two line item tables). Dropped from
 * line items given as JSON, so that line items copied from an invoice response make a valid request.
 */
export const RESPONSE_ONLY_LINE_ITEM_KEYS = [
	'amount',
	'taxAmount',
	'discountAmount',
	'tax',
	'viewType',
] as const;

/**
 * subscription-status: subscription states in which the CRM delivers nothing. The spec names no status value; it
 * names only the state "endpoint disabled" of a delivery (§3). A status matching this is taken as inactive.
 */
export const INACTIVE_SUBSCRIPTION_STATUS = /disabled|inactive|paused|failed|deleted/i;

/**
 * webhook-secret-stripping: keys of a subscription that Get and Get Many never output, whatever shape the API
 * answers in (any key whose name contains "secret").
 */
export const SECRET_KEY_PATTERN = /secret/i;

/**
 * Invoice line items in requests (spec §2 "Invoice line item, in requests" and §4 POST /invoices) are numbers without
 * any range: the spec is silent on negative lines and on limits. Our choice, checked before anything is sent:
 * - `quantity` is greater than 0 and at most 1,000,000,000 (a line of nothing, or of less, is not a line);
 * - `price` (unit price), `buyPrice` and `discount` are from 0 to 1,000,000,000,000 (a trillion: high enough for any
 *   currency, low enough that totals stay exact numbers). A reduction goes into the line's `discount`, the field the
 *   spec gives for it, not into a negative price or quantity.
 * Every number must be finite (no NaN, no Infinity).
 */
export const LINE_ITEM_BOUNDS = {
	quantity: { min: 0, minIncluded: false, max: 1_000_000_000 },
	price: { min: 0, minIncluded: true, max: 1_000_000_000_000 },
	buyPrice: { min: 0, minIncluded: true, max: 1_000_000_000_000 },
	discount: { min: 0, minIncluded: true, max: 1_000_000_000_000 },
} as const;

/**
 * Dates are date-time strings in the spec (§2 conventions); it says nothing of numbers. Our rule for a number given
 * for a date (or a text of 9 or more digits): it is Unix time, in seconds below 100,000,000,000 and in milliseconds
 * from there (`1767225600` and `1767225600000` are both 2026-01-01T00:00:00Z). Numbers below 100,000,000 (before
 * 1973-03-03 as seconds, e.g. `20261231`) and numbers that are negative or not finite are refused: they are most likely
 * not a Unix time at all.
 */
export const UNIX_TIME_RULE = {
	millisecondsFrom: 100_000_000_000,
	refusedBelow: 100_000_000,
} as const;

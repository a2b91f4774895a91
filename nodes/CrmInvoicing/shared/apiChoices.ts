/**
 * The values of the choices this package makes where the API specification says "not shown" or leaves a point open
 * (docs/spec-choices.md lists every choice, by id). Each value is imported where it is applied, so the code holds one
 * copy. The register of the choices (id, spec section, the functions that apply each) is documentation, not shipped
 * code: it is docs/spec-choices.md's table and the test fixture test/fixtures/specChoices.ts, which
 * test/unit/package/specChoices.test.ts checks against each other and against the code.
 */

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

/** What the editor says of how the API documentation treats an event's name. */
const EVENT_NAMING = {
	named: 'Named in the API documentation',
	described: 'The API documentation describes this event but does not name it',
	assumed: 'Assumed name: the API documentation does not name this event',
};

/**
 * event-names: the spec names only `lead.created`; it describes deals changing stage and invoices being paid in
 * words. The other names are assumed (ours): a real API may refuse them (activation then fails with a message that
 * names them) or accept them and never send them. `documented` tells which is which; the editor shows it. A trigger
 * can subscribe to any other name through "Custom Event Names".
 */
export const KNOWN_EVENTS = (
	[
		['lead.created', 'Lead Created', 'A lead was created', 'named'],
		['lead.updated', 'Lead Updated', 'A lead was changed', 'assumed'],
		['deal.created', 'Deal Created', 'A deal was created', 'assumed'],
		['deal.updated', 'Deal Updated', 'A deal was changed', 'assumed'],
		[
			'deal.stage_changed',
			'Deal Stage Changed',
			'A deal moved to another pipeline stage',
			'described',
		],
		['invoice.created', 'Invoice Created', 'An invoice was created', 'assumed'],
		['invoice.paid', 'Invoice Paid', 'An invoice was paid', 'described'],
	] as const
).map(([value, label, what, naming]) => ({
	name: naming === 'named' ? label : `${label} (Assumed Name)`,
	value,
	documented: naming === 'named',
	description: `${what}. ${EVENT_NAMING[naming]}.`,
}));

/** event-names: the event names the API documentation gives by name. */
export const DOCUMENTED_EVENTS: readonly string[] = KNOWN_EVENTS.filter(
	(event) => event.documented,
).map((event) => event.value);

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

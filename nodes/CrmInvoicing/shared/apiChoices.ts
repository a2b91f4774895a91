/**
 * The values of the choices this package makes where the API specification says "not shown" or leaves a point open,
 * one copy each, imported where applied. The register of the choices (id, spec section, the functions that apply each)
 * is docs/spec-choices.md's table and the test fixture test/fixtures/specChoices.ts, not shipped code.
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

/** user-search-parameter: whether a user's first, last or full name or email holds the text (case and accents aside). */
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
 * line-item-bounds: the spec gives a line item's numbers no range (§2, §4 POST /invoices). Ours, checked before
 * anything is sent, every number finite: `quantity` greater than 0 (a line of nothing is not a line) and at most a
 * billion; `price`, `buyPrice` and `discount` from 0 to a trillion (any currency, and totals stay exact). A reduction
 * goes into the line's `discount`, the field the spec gives for it, not into a negative price or quantity.
 */
export const LINE_ITEM_BOUNDS = {
	quantity: { min: 0, minIncluded: false, max: 1_000_000_000 },
	price: { min: 0, minIncluded: true, max: 1_000_000_000_000 },
	buyPrice: { min: 0, minIncluded: true, max: 1_000_000_000_000 },
	discount: { min: 0, minIncluded: true, max: 1_000_000_000_000 },
} as const;

/**
 * unix-time-dates: the spec's dates are date-time strings (§2). A number given for a date (or a text of 9 or more
 * digits) is Unix time: seconds below 100,000,000,000, milliseconds from there (`1767225600` and `1767225600000` are
 * both 2026-01-01). Below 100,000,000 (e.g. `20261231`), negative or not finite is most likely no Unix time: refused.
 */
export const UNIX_TIME_RULE = {
	millisecondsFrom: 100_000_000_000,
	refusedBelow: 100_000_000,
} as const;

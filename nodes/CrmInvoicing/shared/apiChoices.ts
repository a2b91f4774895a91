// Where the spec is silent, the reading chosen; the register is docs/spec-choices.md.

import type { IDataObject } from 'n8n-workflow';

import { filledText } from './values';

// user-search-parameter: the spec names no search parameter for GET /users; we send `search`, and filter too.
export const USER_SEARCH_QUERY_PARAMETER = 'search';

function folded(text: unknown) {
	return typeof text === 'string'
		? text
				.normalize('NFD')
				.replace(/[\u0300-\u036f]/g, '')
				.toLowerCase()
		: '';
}

/** user-search-parameter; case and accents aside. */
export function userMatchesSearch({ firstName, lastName, email }: IDataObject, search: string) {
	const needle = folded(search.trim());
	const fullName = [firstName, lastName].filter(filledText).join(' ');
	// A record that shows none of the searched fields cannot be judged: the server's answer stands.
	if (fullName === '' && folded(email) === '') return true;
	// The full name holds each name that is a filled text, so it finds a match in either; an empty search, all.
	return folded(fullName).includes(needle) || folded(email).includes(needle);
}

const EVENT_NAMING = {
	named: 'Named in the API documentation',
	described: 'The API documentation describes this event but does not name it',
	assumed: 'Assumed name: the API documentation does not name this event',
};

// event-names: the spec names only `lead.created`; the other names are assumed, and the editor says which. In the
// editor's order: by name.
export const KNOWN_EVENTS = (
	[
		['deal.created', 'Deal Created', 'A deal was created', 'assumed'],
		[
			'deal.stage_changed',
			'Deal Stage Changed',
			'A deal moved to another pipeline stage',
			'described',
		],
		['deal.updated', 'Deal Updated', 'A deal was changed', 'assumed'],
		['invoice.created', 'Invoice Created', 'An invoice was created', 'assumed'],
		['invoice.paid', 'Invoice Paid', 'An invoice was paid', 'described'],
		['lead.created', 'Lead Created', 'A lead was created', 'named'],
		['lead.updated', 'Lead Updated', 'A lead was changed', 'assumed'],
	] as const
).map(([value, label, what, naming]) => ({
	name: naming === 'named' ? label : `${label} (Assumed Name)`,
	value,
	documented: naming === 'named',
	description: `${what}. ${EVENT_NAMING[naming]}.`,
}));

export const EVENT_OPTIONS = KNOWN_EVENTS.map(({ name, value, description }) => ({
	name,
	value,
	description,
}));

export const DOCUMENTED_EVENTS: readonly string[] = KNOWN_EVENTS.filter(
	(event) => event.documented,
).map((event) => event.value);

// line-item-response-keys: dropped, so that line items copied from an invoice response make a valid request.
export const RESPONSE_ONLY_LINE_ITEM_KEYS = [
	'amount',
	'taxAmount',
	'discountAmount',
	'tax',
	'viewType',
];

// subscription-status: the spec names no status value, only a delivery's state "endpoint disabled" (§3).
export const INACTIVE_SUBSCRIPTION_STATUS = /disabled|inactive|paused|failed|deleted/i;

// webhook-secret-stripping: Get and Get Many never output a key whose name contains "secret".
export const SECRET_KEY_PATTERN = /secret/i;

// line-item-bounds: the spec gives no range (§2, §4); these keep totals exact in any currency. A reduction goes
// into `discount`, the spec's field for it, never a negative price or quantity.
const AMOUNT = { min: 0, minIncluded: true, max: 1_000_000_000_000 };

export const LINE_ITEM_BOUNDS = {
	quantity: { min: 0, minIncluded: false, max: 1_000_000_000 },
	price: AMOUNT,
	buyPrice: AMOUNT,
	discount: AMOUNT,
};

// unix-time-dates: the spec's dates are date-time strings (§2). A number is Unix seconds below 1e11, else ms;
// below 1e8 (e.g. `20261231`) it is most likely no Unix time, so refused.
export const UNIX_TIME_RULE = {
	millisecondsFrom: 100_000_000_000,
	refusedBelow: 100_000_000,
};

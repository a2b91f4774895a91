/**
 * Issue 17, inputs: numbers given for dates follow the Unix-time rule (UNIX_TIME_RULE), IDs must be text or numbers,
 * and invoice line quantities and prices stay within LINE_ITEM_BOUNDS. Refusals happen before any request.
 */
import { setGlobalState } from 'n8n-workflow';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { LINE_ITEM_BOUNDS, UNIX_TIME_RULE } from '../../../nodes/CrmInvoicing/shared/apiChoices';
import { expectValidationError, run, useNock } from './support';
import { answer, dealCreate, invoiceCreate } from '../../helpers/actions';

useNock();

beforeEach(() => setGlobalState({ defaultTimezone: 'UTC' }));

const invoiceAnswer = { id: 'inv_1', number: 'INV-1', lineItems: [] };
const invoice = (extra: INodeParameters = {}) =>
	invoiceCreate({ lineItemsSource: 'json', lineItemsJson: '={{ $json.lines }}', ...extra });
const oneLine = { lines: [{ name: 'Consulting', quantity: 2, price: 105 }] };

/** Runs Invoice → Create on one input item and hands back the body that was POSTed. */
async function postedInvoice(
	parameters: INodeParameters,
	json: IDataObject = oneLine,
): Promise<IDataObject> {
	const seen = answer('post', '/api/v1/invoices', invoiceAnswer);
	await run(parameters, { items: [{ json }] });
	return seen[0].body as IDataObject;
}

describe('dates: an invoice date and a deal close date alike', () => {
	/** The invoice date POSTed for `when`, given as the item's `when`. */
	const sentDate = async (when: string | number) =>
		(await postedInvoice(invoice({ date: '={{ $json.when }}' }), { ...oneLine, when })).date;
	const berlin = 'Europe/Berlin';
	const unix = '2026-01-01T00:00:00.000Z';
	it.each<[string, string | number, string]>([
		// Without a zone, read in the workflow's time zone (Berlin is UTC+1 in March).
		[berlin, '2026-03-01T09:00:00', '2026-03-01T08:00:00.000Z'],
		['Asia/Tokyo', '2026-03-01T09:00:00Z', '2026-03-01T09:00:00.000Z'],
		['Asia/Tokyo', '2026-03-31T09:00:00-05:00', '2026-03-31T14:00:00.000Z'],
		// Numbers are Unix time, seconds or milliseconds (not 1970-01-21).
		['UTC', 1767225600, unix],
		['UTC', 1767225600000, unix],
		['UTC', '1767225600', unix],
		// A date alone keeps its calendar date in every time zone.
		...[berlin, 'Pacific/Auckland', 'America/Los_Angeles', 'UTC'].map(
			(zone): [string, string, string] => [zone, '2026-12-01', '2026-12-01T00:00:00.000Z'],
		),
	])('in %s, %j is sent as %s', async (timezone, when, sent) => {
		setGlobalState({ defaultTimezone: timezone });
		const deal = answer('post', '/api/v1/deals', { id: 'deal_1' });

		const posted = await sentDate(when);
		await run(dealCreate({ additionalFields: { expectedCloseDate: '={{ $json.when }}' } }), {
			items: [{ json: { when } }],
		});

		expect(posted).toBe(sent);
		expect((deal[0].body as IDataObject).expectedCloseDate).toBe(sent);
	});

	it('the switch from seconds to milliseconds sits at UNIX_TIME_RULE.millisecondsFrom', async () => {
		const below = UNIX_TIME_RULE.millisecondsFrom - 1;
		expect(await sentDate(below)).toBe(new Date(below * 1000).toISOString());
		expect(await sentDate(UNIX_TIME_RULE.millisecondsFrom)).toBe('1973-03-03T09:46:40.000Z');
	});

	it.each([
		['a calendar date typed as a number', 20261231],
		['a negative number', -5],
		['zero', 0],
	])('%s is refused, saying what a number for a date means', async (_case, value) => {
		const error = await expectValidationError(
			invoice({ dueDate: '={{ $json.when }}' }),
			`"Due Date" is the number ${value} in item 0, which the node does not read as a date`,
			{ items: [{ json: { ...oneLine, when: value } }] },
		);
		expect(error.description).toMatch(/Unix time: seconds \(such as 1767225600\) or milliseconds/);
	});
});

describe('IDs must be text or numbers', () => {
	const v = '={{ $json.v }}';
	const object = 'an object with the keys id';
	it.each([
		[invoice({ clientId: v }), '"Client ID"', { id: 'cli_1' }, object],
		[
			{ resource: 'deal', operation: 'update', dealId: v, updateFields: { title: 'X' } },
			'"Deal ID"',
			{ id: 'deal_1' },
			object,
		],
		// A collection field is named by its own label.
		[
			{ resource: 'lead', operation: 'create', name: 'Jane', additionalFields: { stageId: v } },
			'"Stage ID"',
			['a', 'b'],
			'an array of 2',
		],
		[
			invoice({ additionalFields: { salesPersonId: v } }),
			'"Sales Person"',
			{ id: 'usr_1' },
			object,
		],
	])('%j: %s is refused, not sent as [object Object]', async (parameters, field, value, shown) => {
		await expectValidationError(
			parameters as INodeParameters,
			`${field} must be text or a number but is ${shown} in item 0`,
			{ items: [{ json: { ...oneLine, v: value } }] },
		);
	});
});

describe('invoice line quantities and prices have bounds (LINE_ITEM_BOUNDS)', () => {
	it.each([
		[
			'a negative quantity',
			{ quantity: -5, price: 10 },
			'"quantity" must be greater than 0 and at most 1,000,000,000 but is -5',
		],
		['a quantity of 0', { quantity: 0, price: 10 }, '"quantity" must be greater than 0'],
		[
			'a price of 1e300',
			{ quantity: 1, price: 1e300 },
			'"price" must be from 0 and at most 1,000,000,000,000 but is 1e+300',
		],
		['a negative price', { quantity: 1, price: -1 }, '"price" must be from 0'],
		['a negative discount', { quantity: 1, price: 1, discount: -2 }, '"discount" must be from 0'],
	])('%s is refused before anything is sent', async (_case, line, message) => {
		const error = await expectValidationError(invoice(), `Line item 1 of item 0: ${message}`, {
			items: [{ json: { lines: [{ name: 'X', ...line }] } }],
		});
		expect(error.description).toMatch(/use the line's "discount"/);
	});

	it('a non-finite number is refused', async () => {
		await expectValidationError(
			invoice({ lineItemsJson: '[{"name": "X", "quantity": 1, "price": "Infinity"}]' }),
			/"price" must be a number but is "Infinity"/,
		);
	});

	it('the bounds themselves pass: the largest quantity, a price of 0 and the largest price', async () => {
		const lines = [
			{ name: 'A', quantity: LINE_ITEM_BOUNDS.quantity.max, price: 0 },
			{ name: 'B', quantity: 1, price: LINE_ITEM_BOUNDS.price.max },
		];
		const body = await postedInvoice(invoice(), { lines });
		expect(body.lineItems).toEqual(lines);
	});
});

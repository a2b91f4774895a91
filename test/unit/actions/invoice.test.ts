import { setGlobalState } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { byId, expectValidationError, fromList, run, useNock } from './support';
import { answer, invoiceCreate } from '../../helpers/actions';

useNock();

beforeEach(() => setGlobalState({ defaultTimezone: 'UTC' }));

/** An invoice as the API answers: numbers where the request had strings (salesPersonId, productId). */
const invoice = (): IDataObject => ({
	id: 'inv_1',
	status: 'DRAFT',
	total: 210,
	salesPersonId: 7,
	lineItems: [{ name: 'Consulting', quantity: 2, price: 105, productId: 42, amount: 210 }],
});

const base = invoiceCreate();

describe('invoice: create, the other fields', () => {
	it('sends the additional fields: sales person from the list, tags as numbers, status, texts, custom and other fields', async () => {
		const seen = answer('post', '/api/v1/invoices', invoice());

		await run({
			...base,
			lineItems: { items: [{ name: 'Consulting', quantity: 1, price: 100 }] },
			additionalFields: {
				isInclusiveTax: true,
				status: 'SENT',
				contactId: 'con_1',
				subject: 'Phase 1',
				notes: 'Thank you',
				salesPersonId: fromList('usr_5'),
				templateId: 'tpl_standard',
				tags: '3, 7,',
				customFields: { field: [{ key: 'po', value: 'PO-77' }] },
				otherFields: '{"currency": "EUR"}',
			},
		});

		expect(seen[0].body).toEqual({
			clientId: 'cli_1',
			date: '2026-03-01T00:00:00.000Z',
			dueDate: '2026-03-31T00:00:00.000Z',
			lineItems: [{ name: 'Consulting', quantity: 1, price: 100 }],
			isInclusiveTax: true,
			status: 'SENT',
			contactId: 'con_1',
			subject: 'Phase 1',
			notes: 'Thank you',
			salesPersonId: 'usr_5',
			templateId: 'tpl_standard',
			tags: [3, 7],
			customFields: { po: 'PO-77' },
			currency: 'EUR',
		});
	});

	it('takes dates from Luxon DateTime expressions and tags from an array expression', async () => {
		const seen = answer('post', '/api/v1/invoices', invoice());

		await run(
			{
				...base,
				date: '={{ DateTime.fromISO("2026-03-01T09:30:00", { zone: "Europe/Berlin" }) }}',
				dueDate:
					'={{ DateTime.fromISO("2026-03-01T09:30:00", { zone: "Europe/Berlin" }).plus({ days: 30 }) }}',
				lineItems: { items: [{ name: 'Consulting', quantity: 1, price: 100 }] },
				additionalFields: { tags: '={{ $json.tags }}', salesPersonId: byId('usr_9') },
			},
			{ items: [{ json: { tags: [1, '2'] } }] },
		);

		expect(seen[0].body).toMatchObject({
			date: '2026-03-01T08:30:00.000Z',
			dueDate: '2026-03-31T07:30:00.000Z',
			tags: [1, 2],
			salesPersonId: 'usr_9',
		});
	});
});

describe('invoice: create with line items from an expression / JSON', () => {
	const fromJson = (lineItemsJson: string) => ({ lineItemsSource: 'json', lineItemsJson });
	const empty = { description: '', taxRateId: '', discount: 0, discountType: '', buyPrice: 0 };
	const kept = { name: 'Consulting', quantity: 2, price: 105, discount: 0, discountType: 'fixed' };
	// A line copied from an invoice response: response-only keys are dropped, a null productId is left out.
	const copied = {
		...kept,
		tax: 20,
		buyPrice: 0,
		viewType: 'LINE_ITEM',
		amount: 210,
		taxAmount: 42,
		discountAmount: 0,
		description: '',
		productId: null,
	};

	it.each([
		[
			'the form: a product ID and a quantity alone make a line; empty fields and a 0 price with a product are not sent',
			{
				lineItems: {
					items: [
						{ ...empty, name: '', productId: 'prd_7', quantity: 3, price: 0 },
						{ ...empty, name: 'Free sample', productId: '', quantity: 1, price: 0 },
					],
				},
			},
			[
				{ productId: 'prd_7', quantity: 3 },
				{ name: 'Free sample', quantity: 1, price: 0 },
			],
		],
		[
			'JSON text: a line with a name, and a product ID and a quantity alone',
			fromJson(
				'[{"name": "A", "quantity": 1, "price": 10}, {"productId": "prd_7", "quantity": 2}]',
			),
			[
				{ name: 'A', quantity: 1, price: 10 },
				{ productId: 'prd_7', quantity: 2 },
			],
		],
		[
			'one object from an expression',
			fromJson('={{ { "productId": "prd_1", "quantity": 3, "price": 4 } }}'),
			[{ productId: 'prd_1', quantity: 3, price: 4 }],
		],
		[
			'an array from an expression: numeric strings converted, texts trimmed, other keys kept',
			fromJson(
				'={{ [{ name: " Consulting ", quantity: "2", price: 105, discount: 0 }, { productId: " prd_42 ", quantity: 1, price: "9.99", unit: "pcs" }] }}',
			),
			[
				{ name: 'Consulting', quantity: 2, price: 105, discount: 0 },
				{ productId: 'prd_42', quantity: 1, price: 9.99, unit: 'pcs' },
			],
		],
		[
			'lines copied from an invoice response',
			fromJson('={{ $json.lineItems }}'),
			[{ ...kept, buyPrice: 0 }],
		],
	])('line items from %s', async (_case, parameters, sent) => {
		const seen = answer('post', '/api/v1/invoices', invoice());
		await run({ ...base, ...parameters }, { items: [{ json: { lineItems: [copied] } }] });
		expect((seen[0].body as IDataObject).lineItems).toEqual(sent);
	});

	it('a numeric productId (what responses show) is refused with the advice to use the public ID, from JSON and from the form', async () => {
		const line = { name: 'Licence', quantity: 1, price: 50, productId: 42, viewType: 'LINE_ITEM' };
		const error = await expectValidationError(
			{ ...base, ...fromJson('={{ $json.lineItems }}') },
			'Line item 1 of item 0: "productId" is the number 42, not a product\'s public ID',
			{ items: [{ json: { lineItems: [line] } }] },
		);
		expect(error.description).toMatch(/Use the product's public ID/);
		await expectValidationError(
			{
				...base,
				lineItems: { items: [{ productId: '={{ $json.productId }}', quantity: 1, price: 0 }] },
			},
			/"productId" is the number 42/,
			{ items: [{ json: { productId: 42 } }] },
		);
	});

	it('with Continue on Fail, an invalid line item fails only its own item', async () => {
		const seen = answer('post', '/api/v1/invoices', invoice(), { times: 2 });

		const output = await run(
			{ ...base, ...fromJson('={{ $json.lines }}') },
			{
				items: [
					{ json: { lines: [{ name: 'A', quantity: 1, price: 1 }] } },
					{ json: { lines: [{ quantity: 1, price: 1 }] } },
					{ json: { lines: [{ name: 'C', quantity: 1, price: 1 }] } },
				],
				continueOnFail: true,
			},
		);

		expect(seen).toHaveLength(2);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[1].json.error).toBe('Line item 1 of item 1: needs a "name" or a "productId"');
		// The response is passed through as it is: numbers stay numbers.
		expect(output[2].json).toEqual(invoice());
	});
});

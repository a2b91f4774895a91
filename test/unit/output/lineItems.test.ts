/** Invoice line items: fields in the order a user fills them in; line items saved with 0.2 sent as 0.2 sent them. */
import { setGlobalState } from 'n8n-workflow';
import type { INodeProperties, INodePropertyCollection, INodeParameters } from 'n8n-workflow';

import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { runNode } from '../../helpers/harness';
import { useNock } from '../actions/support';
import { answer } from '../../helpers/actions';

useNock();
beforeEach(() => setGlobalState({ defaultTimezone: 'UTC' }));

const nodeType = new CrmInvoicing();

function lineItemFields(): INodeProperties[] {
	const property = nodeType.description.properties.find(
		(candidate) => candidate.name === 'lineItems',
	)!;
	return ((property.options as INodePropertyCollection[])[0].values as INodeProperties[]) ?? [];
}

/** Line items as 0.2 saved them: every field of the collection, in its alphabetical order. */
const SAVED_WITH_0_2 = {
	items: [
		{
			buyPrice: 0,
			description: '',
			discount: 0,
			discountType: '',
			name: 'Consulting',
			price: 105,
			productId: '',
			quantity: 2,
			taxRateId: 'tax_vat20',
		},
		{
			buyPrice: 30,
			description: 'Annual licence',
			discount: 5,
			discountType: 'fixed',
			name: '',
			price: 50,
			productId: 'prd_7',
			quantity: 1,
			taxRateId: '',
		},
	],
};

/** What 0.2 sent for them (test/unit/actions/invoice.test.ts has the rules; this is their result). */
const SENT = [
	{ name: 'Consulting', quantity: 2, price: 105, taxRateId: 'tax_vat20' },
	{
		productId: 'prd_7',
		quantity: 1,
		price: 50,
		description: 'Annual licence',
		discount: 5,
		discountType: 'fixed',
		buyPrice: 30,
	},
];

const parameters = (lineItems: INodeParameters): INodeParameters => ({
	resource: 'invoice',
	operation: 'create',
	clientId: 'cli_1',
	date: '2026-03-01',
	dueDate: '2026-03-31',
	lineItems,
});

async function sentLineItems(lineItems: INodeParameters, typeVersion?: number): Promise<unknown> {
	const seen = answer('post', '/api/v1/invoices', { id: 'inv_1', lineItems: [] });
	await runNode({ nodeType, parameters: parameters(lineItems), typeVersion });
	return (seen[0].body as { lineItems: unknown }).lineItems;
}

describe('invoice line items', () => {
	it("shows the fields in the order a user fills them in (not 0.2's), the rarely used ones last, under the names 0.2 saved", () => {
		expect(lineItemFields().map((field) => field.displayName)).toEqual([
			'Name',
			'Product ID',
			'Quantity',
			'Price',
			'Description',
			'Buy Price',
			'Discount',
			'Discount Type',
			'Tax Rate ID',
		]);
		const names = lineItemFields().map((field) => field.name);
		expect(names).not.toEqual(Object.keys(SAVED_WITH_0_2.items[0]));
		expect(names.sort()).toEqual(Object.keys(SAVED_WITH_0_2.items[0]).sort());
	});

	const order = lineItemFields().map((field) => field.name);
	const reordered = {
		items: SAVED_WITH_0_2.items.map((item) =>
			Object.fromEntries(order.map((name) => [name, item[name as keyof typeof item]])),
		),
	};

	it.each<[string, INodeParameters, number | undefined, unknown]>([
		['saved with 0.2, by a version-1 node: as 0.2 sent them', SAVED_WITH_0_2, 1, SENT],
		['saved with 0.2, by a version-2 node: as 0.2 sent them', SAVED_WITH_0_2, 2, SENT],
		['entered in the new order: the same way', reordered, undefined, SENT],
		[
			'with only the fields a user fills in first: the rest take their defaults',
			{ items: [{ name: 'Hours', quantity: 3, price: 80 }] },
			undefined,
			[{ name: 'Hours', quantity: 3, price: 80 }],
		],
	])('sends line items %s', async (_name, lineItems, typeVersion, sent) => {
		expect(await sentLineItems(lineItems, typeVersion)).toEqual(sent);
	});
});

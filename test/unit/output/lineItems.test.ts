/**
 * Invoice line items: the fields in the order a user fills them in, and line items of workflows saved with 0.2 (the
 * same field names, saved in 0.2's alphabetical order) sent exactly as before, by version-1 and version-2 nodes.
 */
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
			price: 0,
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
	it('shows the fields in the order a user fills them in, the rarely used ones last', () => {
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
	});

	it('keeps the field names of 0.2 (saved workflows name them)', () => {
		expect(
			lineItemFields()
				.map((field) => field.name)
				.sort(),
		).toEqual(Object.keys(SAVED_WITH_0_2.items[0]).sort());
	});

	it.each([1, 2])(
		'sends line items saved with 0.2 exactly as 0.2 did (node version %i)',
		async (typeVersion) => {
			expect(await sentLineItems(SAVED_WITH_0_2, typeVersion)).toEqual(SENT);
		},
	);

	it('sends line items entered in the new order the same way', async () => {
		const order = lineItemFields().map((field) => field.name);
		const reordered = {
			items: SAVED_WITH_0_2.items.map((item) =>
				Object.fromEntries(order.map((name) => [name, item[name as keyof typeof item]])),
			),
		};
		expect(Object.keys(reordered.items[0])).not.toEqual(Object.keys(SAVED_WITH_0_2.items[0]));
		expect(await sentLineItems(reordered)).toEqual(SENT);
	});

	it('sends a line with only the fields a user fills in first (the rest take their defaults)', async () => {
		expect(await sentLineItems({ items: [{ name: 'Hours', quantity: 3, price: 80 }] })).toEqual([
			{ name: 'Hours', quantity: 3, price: 80 },
		]);
	});
});

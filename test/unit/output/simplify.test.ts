/** Simplify (versions 2 and 3), version 4's Output in its place and its list of fields; version 1 unchanged. */
import { NodeHelpers } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { SIMPLIFIED_FIELDS } from '../../../nodes/CrmInvoicing/shared/simplify';
import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { getOutputFields } from '../../../nodes/CrmInvoicing/actions/methods/loadOptions';
import { RECORD_FIELDS } from '../../../nodes/CrmInvoicing/actions/common/output';
import { createExecuteContext, createLoadOptionsContext, runNode } from '../../helpers/harness';
import { api, byId, useNock } from '../actions/support';
import { v1Page, v2Page } from '../../helpers/actions';
import { lead } from '../../helpers/records';

useNock();

const nodeType = new CrmInvoicing();

/** Records as the API returns them, with more fields than the simplified ones. */
const LEAD = lead('lead_1', {
	title: 'Buyer',
	email: 'jane@example.com',
	mobile: '+33 6 00 00 00 00',
	secondaryMobile: '+33 6 11 11 11 11',
	website: 'https://jane.example',
	value: 4200,
	sourceId: 'src_web',
	stageId: 'lst_new',
	customFields: { budget: 'high' },
});
const CLIENT = {
	id: 'cli_1',
	number: 'C-0001',
	name: 'Acme',
	type: 'company',
	createdAt: '2026-01-01T00:00:00.000Z',
	firstName: null,
	lastName: null,
	email: 'billing@acme.test',
	phone: '+1 555 0100',
	website: 'https://acme.test',
	stageId: 'cst_1',
	customFields: { vat: 'FR123' },
};
const PRODUCT = {
	id: 'prd_1',
	name: 'Consulting hour',
	price: 120,
	type: 'SERVICE',
	isActive: true,
	description: 'One hour',
	sku: 'CONS-1',
	internalNote: 'not simplified',
};
const USER = {
	id: 'usr_1',
	firstName: 'Jane',
	lastName: 'Doe',
	email: 'jane@example.com',
	role: 'ADMIN',
	createdAt: '2026-01-01T00:00:00.000Z',
	jobTitle: 'Sales lead',
};
const CONTACT = {
	id: 'con_1',
	number: 'P-1',
	firstName: 'Joe',
	lastName: 'Bloggs',
	email: 'joe@acme.test',
	phone: '+1 555 0101',
};

interface Case {
	label: string;
	resource: keyof typeof SIMPLIFIED_FIELDS;
	parameters: INodeParameters;
	record: IDataObject;
	/** Answers the next `times` runs' request with the record (or a page holding it). */
	mock: (times?: number) => void;
}

function row(
	label: string,
	parameters: INodeParameters,
	record: IDataObject,
	path: string,
	body: IDataObject = record,
): Case {
	const resource = parameters.resource as Case['resource'];
	const mock = (times = 1) => api().get(path).query(true).times(times).reply(200, body);
	return { label, resource, parameters, record, mock };
}

const many = (resource: string) => ({ resource, operation: 'getMany', limit: 1 });
const get = (resource: string, id: INodeParameters) => ({ resource, operation: 'get', ...id });
const CASES: Case[] = [
	row('Lead → Get', get('lead', { leadId: byId('lead_1') }), LEAD, '/api/v1/leads/lead_1'),
	row('Lead → Get Many', many('lead'), LEAD, '/api/v1/leads', v1Page([LEAD])),
	row('Client → Get', get('client', { clientId: 'cli_1' }), CLIENT, '/api/v1/clients/cli_1'),
	row('Product → Get', get('product', { productId: 'prd_1' }), PRODUCT, '/api/v1/products/prd_1'),
	row('User → Get Many', many('user'), USER, '/api/v1/users', v1Page([USER])),
	row('Contact → Get Many', many('contact'), CONTACT, '/api/v2/contacts', v2Page([CONTACT])),
];

/** A run of a node saved with version 3 (Simplify's last version) unless said. */
async function output(parameters: INodeParameters, typeVersion = 3): Promise<INodeExecutionData[]> {
	const [items] = await runNode({ nodeType, parameters, typeVersion });
	return items;
}
const v4 = (parameters: INodeParameters) => output(parameters, 4);
const ok = (json: IDataObject) => [{ json, pairedItem: { item: 0 } }];

describe('Simplify', () => {
	it('keeps at most 10 fields per resource, each a field the spec gives the resource', () => {
		for (const fields of Object.values(SIMPLIFIED_FIELDS))
			expect(fields.length).toBeLessThanOrEqual(10);
		for (const { resource, record } of CASES) {
			for (const field of SIMPLIFIED_FIELDS[resource]) expect(Object.keys(record)).toContain(field);
		}
	});

	it.each(CASES)(
		"$label: on by default, only the simplified fields; off, the API's record; version 1 (0.2), the record whatever its parameters say; version 4's Output in its place",
		async ({ resource, parameters, record, mock }) => {
			const raw = ok(record);
			const simplified = Object.fromEntries(
				SIMPLIFIED_FIELDS[resource].map((field) => [field, record[field]]),
			);
			const first = RECORD_FIELDS[resource][1];
			const last = RECORD_FIELDS[resource].at(-1)!;
			mock(9);
			const items = await output(parameters);
			expect(items).toEqual(ok(simplified));
			expect(Object.keys(items[0].json)).toEqual([...SIMPLIFIED_FIELDS[resource]]);
			expect(Object.keys(items[0].json).length).toBeLessThan(Object.keys(record).length);
			expect(await output({ ...parameters, simplify: false })).toEqual(raw);
			// Version 3 keeps Simplify, whatever Output says.
			expect(await output({ ...parameters, output: 'fields', fields: [first] })).toEqual(
				ok(simplified),
			);
			expect(await output(parameters, 1)).toEqual(raw);
			expect(await output({ ...parameters, simplify: true }, 1)).toEqual(raw);
			// Version 4: Simplified by default, Raw the record unchanged, Simplify ignored.
			expect(await v4({ ...parameters, simplify: false })).toEqual(ok(simplified));
			expect(await v4({ ...parameters, output: 'raw' })).toEqual(raw);
			// Select Included Fields: the ID and the fields picked, nothing else.
			const picked = await v4({ ...parameters, output: 'fields', fields: [last, first] });
			expect(picked).toEqual(ok({ id: record.id, [first]: record[first], [last]: record[last] }));
		},
	);

	it('is a parameter from version 2 on, on by default (a node added now, and the node as an AI Agent tool)', () => {
		const { description } = nodeType;
		expect(description.defaultVersion).toBe(4);
		const node = (typeVersion: number) =>
			createExecuteContext({ nodeType, parameters: {}, typeVersion }).node;
		for (const { parameters } of CASES) {
			const { resource, operation } = parameters;
			// What n8n saves for a new node, defaults included, as the editor (and the AI Agent's tool) resolves them.
			const saved = (typeVersion: number) =>
				NodeHelpers.getNodeParameters(
					description.properties,
					{ resource, operation },
					true,
					false,
					node(typeVersion),
					description,
				);
			expect(saved(2)?.simplify).toBe(true);
			expect(saved(3)?.simplify).toBe(true);
			expect(saved(4)).not.toHaveProperty('simplify');
			expect(saved(4)?.output).toBe('simple');
			expect(saved(1)).not.toHaveProperty('simplify');
		}
		const withSimplify = description.properties.filter((property) => property.name === 'simplify');
		expect(withSimplify).toHaveLength(6);
		for (const property of withSimplify) {
			expect(property).toMatchObject({
				displayName: 'Simplify',
				type: 'boolean',
				default: true,
				description:
					'Whether to return a simplified version of the response instead of the raw data',
			});
		}
	});

	it('simplifies each record of a Get Many of several items, per item, with Simplify set by an expression', async () => {
		api()
			.get('/api/v1/leads')
			.query(true)
			.twice()
			.reply(200, v1Page([LEAD, { ...LEAD, id: 'lead_2' }]));
		const items = await runNode({
			nodeType,
			typeVersion: 3,
			parameters: {
				resource: 'lead',
				operation: 'getMany',
				limit: 2,
				simplify: '={{ $json.simple }}',
			},
			items: [{ json: { simple: true } }, { json: { simple: false } }],
		});
		expect(items[0].map((item) => [item.pairedItem, Object.keys(item.json).length])).toEqual([
			[{ item: 0 }, 10],
			[{ item: 0 }, 10],
			[{ item: 1 }, Object.keys(LEAD).length],
			[{ item: 1 }, Object.keys(LEAD).length],
		]);
	});
});

describe('Output (version 4)', () => {
	const get = CASES[0];

	it("a lead's custom fields one by one, under customFields; fields given as text; fields the lead lacks left out", async () => {
		get.mock(2);
		expect(
			await v4({
				...get.parameters,
				output: 'fields',
				fields: ' name, customFields.budget ,customFields.absent, fax',
			}),
		).toEqual(ok({ id: 'lead_1', name: 'Jane Doe', customFields: { budget: 'high' } }));
		expect(
			await v4({ ...get.parameters, output: 'fields', fields: ['customFields', 'email'] }),
		).toEqual(ok({ id: 'lead_1', customFields: { budget: 'high' }, email: 'jane@example.com' }));
	});

	it('refuses no field and an unknown Output, naming the item and what to do', async () => {
		get.mock(2);
		await expect(v4({ ...get.parameters, output: 'fields', fields: [] })).rejects.toMatchObject({
			message: '"Fields" names no field in item 0',
			description:
				'Pick at least one field under "Fields", or set "Output" to "Simplified" or "Raw".',
		});
		await expect(v4({ ...get.parameters, output: 'everything' })).rejects.toMatchObject({
			message: '"Output" must be simple, raw or fields but is the text "everything" in item 0',
		});
	});

	describe('the list of fields (getOutputFields)', () => {
		const listFor = async (resource: string) => {
			const { context } = createLoadOptionsContext({
				nodeType,
				parameters: { resource, operation: 'get', output: 'fields' },
				typeVersion: 4,
			});
			return await getOutputFields.call(context);
		};

		it("offers a client's documented fields, reading nothing from the CRM", async () => {
			expect(await listFor('client')).toEqual(
				RECORD_FIELDS.client.map((field) => ({ name: field, value: field })),
			);
		});

		it("offers a lead's fields and the custom fields of one page of leads, as the mapper finds them", async () => {
			api()
				.get('/api/v1/leads')
				.query({ limit: '100' })
				.reply(200, v1Page([LEAD, { ...LEAD, id: 'lead_2', customFields: { seats: 3 } }], 'next'));
			const list = await listFor('lead');
			expect(list.slice(0, RECORD_FIELDS.lead.length).map((option) => option.value)).toEqual([
				...RECORD_FIELDS.lead,
			]);
			expect(list.slice(RECORD_FIELDS.lead.length)).toEqual([
				{ name: 'budget (custom field)', value: 'customFields.budget' },
				{ name: 'seats (custom field)', value: 'customFields.seats' },
			]);
		});
	});
});

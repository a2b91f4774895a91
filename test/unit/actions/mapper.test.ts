/** Create and Update of leads and deals with the resource mapper (node version 3): bodies, types, the merge. */
import { setGlobalState } from 'n8n-workflow';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { inferType } from '../../../nodes/CrmInvoicing/actions/common/mapperFields';
import { byId, expectValidationError, run, useNock } from './support';
import { answer, calls, customField, DEAL_REQUIRED, mapperColumns } from '../../helpers/actions';
import { lead } from '../../helpers/records';

useNock();

beforeEach(() => setGlobalState({ defaultTimezone: 'UTC' }));

/** The schema the editor saved with the node: the custom fields it listed. */
const SCHEMA = [
	customField('industry', 'string'),
	customField('seats', 'number'),
	customField('vip', 'boolean'),
	customField('renewal', 'dateTime'),
];
const columns = (value: IDataObject | null, options: { auto?: boolean; convert?: boolean } = {}) =>
	mapperColumns(value, SCHEMA, options);

const V3 = { typeVersion: 3 };
const updateLead = { resource: 'lead', operation: 'update', leadId: byId('lead_1') };
const createLead = (columns: INodeParameters) => ({
	resource: 'lead',
	operation: 'create',
	columns,
});
const autoCreate = createLead(columns(null, { auto: true }));

describe('Create with the mapper', () => {
	it('Lead, Map Each Field Below: standard fields at the top level, custom ones in customFields with their types', async () => {
		const seen = answer('post', '/api/v1/leads', lead('lead_1'));

		await run(
			createLead(
				columns({
					name: ' Jane Doe ',
					value: 1200,
					email: '',
					'customFields.industry': 'Retail',
					'customFields.seats': '={{ 12 }}',
					'customFields.vip': true,
					'customFields.renewal': '2026-12-01',
					customFieldsNotice: 'ignored',
				}),
			),
			V3,
		);

		expect(seen[0].body).toEqual({
			name: 'Jane Doe',
			value: 1200,
			customFields: { industry: 'Retail', seats: 12, vip: true, renewal: '2026-12-01' },
		});
	});

	it('Lead, Map Automatically: matching keys of each item, custom ones by their key or an input customFields object', async () => {
		const seen = answer('post', '/api/v1/leads', lead('lead_1'), { times: 2 });

		await run(autoCreate, {
			...V3,
			items: [
				{ json: { name: 'Ann', email: 'ann@x.io', industry: 'Retail', seats: 3, other: 'x' } },
				{ json: { name: 'Bo', customFields: { vip: false, notListedYet: 'kept' } } },
			],
		});

		expect(seen.map((request) => request.body)).toEqual([
			{ name: 'Ann', email: 'ann@x.io', customFields: { industry: 'Retail', seats: 3 } },
			{ name: 'Bo', customFields: { vip: false, notListedYet: 'kept' } },
		]);
	});

	it('text in a number field is refused, unless "Attempt to Convert Types" is on and the conversion works', async () => {
		const item = { json: { name: 'Ann', value: '1200', seats: '12', vip: 'true' } };
		const refused = await expectValidationError(
			autoCreate,
			'"Value" must be a number but is the text "1200" in item 0',
			{ ...V3, items: [item] },
		);
		expect(refused.description).toMatch(/Attempt to Convert Types/);

		const seen = answer('post', '/api/v1/leads', lead('lead_1'));
		await run(createLead(columns(null, { auto: true, convert: true })), { ...V3, items: [item] });
		expect(seen[0].body).toEqual({
			name: 'Ann',
			value: 1200,
			customFields: { seats: 12, vip: true },
		});
	});

	it('a custom field seen with values of several types, or only null, is listed untyped: a mapped number stays a number', async () => {
		const seen = answer('post', '/api/v1/leads', lead('lead_1'));
		const schema = [
			customField('score', inferType([null, 7, 'seven'])),
			customField('flag', inferType([null])),
		];
		const value = { name: 'Ann', 'customFields.score': 7, 'customFields.flag': true };

		await run(createLead(mapperColumns(value, schema)), V3);

		expect(schema.map((field) => field.type)).toEqual([undefined, undefined]);
		expect(seen[0].body).toEqual({ name: 'Ann', customFields: { score: 7, flag: true } });
	});

	it('Deal: the required fields, a date as ISO 8601, a priority checked, custom fields from Additional Fields', async () => {
		const seen = answer('post', '/api/v1/deals', { id: 'deal_1', title: 'T' });

		const mapped = { ...DEAL_REQUIRED, expectedCloseDate: '2026-06-30', priority: 'HIGH' };
		const customFields = { field: [{ key: 'region', value: 'EMEA' }] };

		await run(
			{
				resource: 'deal',
				operation: 'create',
				columns: columns(mapped),
				additionalFields: { customFields },
			},
			V3,
		);

		expect(seen[0].body).toEqual({
			...mapped,
			expectedCloseDate: '2026-06-30T00:00:00.000Z',
			customFields: { region: 'EMEA' },
		});
	});
});

describe('Update with the mapper', () => {
	it.each([
		['lead', { leadId: byId('r_1') }, '/api/v1/leads/r_1', { email: 'new@x.io' }],
		['deal', { dealId: 'r_1' }, '/api/v1/deals/r_1', { status: 'WON' }],
	])(
		'%s: sends only what was mapped, with the other custom fields (one read), and says what changed',
		async (resource, id, path, change) => {
			const before = { industry: 'Retail', tier: 'gold' };
			const merged = { ...before, seats: 5 };
			const seen = answer('get', path, lead('r_1', { customFields: before }));
			answer('patch', path, lead('r_1', { ...change, customFields: merged }), { log: seen });

			const mapped = columns({ ...change, 'customFields.seats': 5 });
			const [item] = await run({ resource, operation: 'update', ...id, columns: mapped }, V3);

			expect(calls(seen)).toEqual([`GET ${path}`, `PATCH ${path}`]);
			expect(seen[1].body).toEqual({ ...change, customFields: merged });
			expect(item.json._update).toEqual({
				changed: [...Object.keys(change), 'customFields.seats'],
			});
		},
	);

	it('without custom fields mapped, adds no request', async () => {
		const seen = answer('patch', '/api/v1/leads/lead_1', lead('lead_1', { title: 'CEO' }));

		await run({ ...updateLead, columns: columns({ title: 'CEO' }) }, V3);

		expect(seen).toEqual([
			{ method: 'PATCH', path: '/api/v1/leads/lead_1', body: { title: 'CEO' } },
		]);
	});
});

describe('the mapper: refusals before any request, naming the field and the item', () => {
	it.each([
		[
			autoCreate,
			{ name: 'Bo', seats: 'twelve' },
			'"seats (custom field)" must be a number but is the text "twelve" in item 0',
		],
		[createLead(columns({ email: 'a@b.c' })), {}, '"Name" is required but is empty in item 0'],
		[
			{ ...updateLead, columns: columns({ email: '' }) },
			{},
			'"Fields" maps no field to change in item 0',
		],
	])('%j on %j: %s', async (parameters, json, message) => {
		await expectValidationError(parameters, message, { ...V3, items: [{ json }] });
	});
});

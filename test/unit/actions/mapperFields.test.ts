/** The resource mapper's field lists (node version 3): standard fields, custom fields found, the notice, the cache. */
import nock from 'nock';
import type { IDataObject, INodeParameters, ResourceMapperField } from 'n8n-workflow';

import {
	inferType,
	MAX_CUSTOM_FIELDS,
} from '../../../nodes/CrmInvoicing/actions/common/mapperFields';
import {
	getDealFields,
	getLeadFields,
} from '../../../nodes/CrmInvoicing/actions/methods/resourceMapping';
import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { createLoadOptionsContext, TEST_CREDENTIALS } from '../../helpers/harness';
import { BASE, useNock } from './support';
import { v1Page } from '../../helpers/actions';
import { lead } from '../../helpers/records';

useNock();

let keyNumber = 0;

/** A load-options context with an API key of its own, so that no test sees another's cached lookup. */
function context(parameters: INodeParameters, apiKey = `sk_mapper_${++keyNumber}`) {
	const { context: loadOptions } = createLoadOptionsContext({
		nodeType: new CrmInvoicing(),
		parameters,
		typeVersion: 3,
		credentials: { ...TEST_CREDENTIALS, apiKey },
	});
	return { loadOptions, apiKey };
}

/** GET /api/v1/leads, answered only to this key. */
const leads = (apiKey: string) => nock(BASE).matchHeader('x-api-key', apiKey).get('/api/v1/leads');
const withFields = (id: string, customFields: IDataObject | null) => lead(id, { customFields });
const ids = (fields: ResourceMapperField[]) => fields.map((field) => field.id);

describe('type inference of custom fields', () => {
	it.each([
		[[12, 3.5], 'number'],
		[[true, false], 'boolean'],
		[['2026-01-02T03:04:05.000Z', '2026-03-01'], 'dateTime'],
		[['Retail', 'Banking'], 'string'],
		[['2026-01-02', 'soon'], 'string'],
		[[null, 7], 'number'],
		[[7, null, 'seven'], undefined],
		[[12, '12'], undefined],
		[[true, 1], undefined],
		[[null, null], undefined],
		[[{ a: 1 }], 'object'],
		[[['a']], 'array'],
		[['12'], 'string'],
	])('%j → %s (no type: the value mapped is sent as given)', (values, type) => {
		expect(inferType(values)).toBe(type);
	});
});

describe('Lead fields', () => {
	it('lists the standard fields (Name required on Create) and the custom fields of one page of 100 leads, typed', async () => {
		const { loadOptions, apiKey } = context({ resource: 'lead', operation: 'create' });
		leads(apiKey)
			.query({ limit: '100' })
			.reply(
				200,
				v1Page([
					withFields('l1', { industry: 'Retail', seats: 12, vip: true, email: 'x@y.z' }),
					withFields('l2', { seats: 40, renewal: '2026-12-01T00:00:00.000Z' }),
					withFields('l3', null),
				]),
			);

		const { fields } = await getLeadFields.call(loadOptions);

		const standard = 'name email title mobile secondaryMobile value sourceId stageId website';
		const custom = 'email industry renewal seats vip'
			.split(' ')
			.map((key) => `customFields.${key}`);
		// Exactly these: no notice either.
		expect(ids(fields)).toEqual([...standard.split(' '), ...custom]);
		expect(Object.fromEntries(fields.map((field) => [field.id, field]))).toMatchObject({
			name: { required: true, type: 'string', display: true },
			value: { required: false, type: 'number' },
			// A custom field named like a standard one keeps its own id and says it is custom.
			'customFields.email': { displayName: 'email (custom field)', type: 'string' },
			'customFields.seats': { type: 'number' },
			'customFields.vip': { type: 'boolean' },
			'customFields.renewal': { type: 'dateTime' },
		});
	});

	it('on Update requires nothing, and reads the CRM once per key within a minute (the cache)', async () => {
		const { loadOptions, apiKey } = context({ resource: 'lead', operation: 'update' });
		const scope = leads(apiKey)
			.query(true)
			.once()
			.reply(200, v1Page([withFields('l1', { industry: 'Retail' })]));

		const first = await getLeadFields.call(loadOptions);
		const again = await getLeadFields.call(
			context({ resource: 'lead', operation: 'create' }, apiKey).loadOptions,
		);

		expect(scope.isDone()).toBe(true);
		expect(first.fields.every((field) => !field.required)).toBe(true);
		expect(ids(again.fields)).toContain('customFields.industry');
		expect(again.fields.find((field) => field.id === 'name')?.required).toBe(true);
	});

	it('with no custom field found, still shows the standard fields and says why', async () => {
		const { loadOptions, apiKey } = context({ resource: 'lead', operation: 'create' });
		leads(apiKey).query(true).reply(200, v1Page([]));

		const { fields } = await getLeadFields.call(loadOptions);

		expect(ids(fields)).toContain('name');
		const notice = fields.find((field) => field.id === 'customFieldsNotice');
		expect(notice).toMatchObject({ readOnly: true });
		expect(notice?.defaultValue).toMatch(/none of the leads the CRM listed.*has custom fields/);
	});

	it('with a key that may not list leads (403), shows the standard fields and the reason, and asks again next time', async () => {
		const { loadOptions, apiKey } = context({ resource: 'lead', operation: 'create' });
		const scope = leads(apiKey)
			.query(true)
			.times(2)
			.reply(403, { error: { code: 'FORBIDDEN', message: 'Not allowed to list leads' } });

		const { fields } = await getLeadFields.call(loadOptions);
		await getLeadFields.call(loadOptions);

		expect(scope.isDone()).toBe(true);
		expect(ids(fields)).toContain('name');
		const notice = String(fields.find((field) => field.id === 'customFieldsNotice')?.defaultValue);
		expect(notice).toMatch(/could not be read/);
		expect(notice).toMatch(/403|Not allowed/);
		expect(notice).not.toContain(apiKey);
	});

	it(`lists the first ${MAX_CUSTOM_FIELDS} custom field keys met, sorted, typed by all their values, and says so`, async () => {
		const { loadOptions, apiKey } = context({ resource: 'lead', operation: 'create' });
		const keys = (from: number, value: string | number | null): IDataObject =>
			Object.fromEntries(
				Array.from({ length: 300 }, (_, n) => [`f${String(from + n).padStart(3, '0')}`, value]),
			);
		leads(apiKey)
			.query(true)
			.reply(
				200,
				v1Page([
					withFields('l1', keys(0, null)),
					withFields('l2', keys(300, 1)),
					withFields('l3', keys(0, 'x')),
				]),
			);

		const { fields } = await getLeadFields.call(loadOptions);

		const custom = fields.filter((field) => field.id.startsWith('customFields.'));
		expect(custom).toHaveLength(MAX_CUSTOM_FIELDS);
		expect(custom[0]).toMatchObject({ id: 'customFields.f000', type: 'string' });
		expect(custom.at(-1)).toMatchObject({ id: 'customFields.f499', type: 'number' });
		const notice = fields.at(-1);
		expect(notice).toMatchObject({
			id: 'customFieldsNotice',
			displayName: 'Custom Fields (500 listed)',
		});
		expect(notice?.defaultValue).toMatch(/Only the first 500 custom fields found are listed/);
	});
});

describe('Deal fields', () => {
	it('on Create: the spec required fields required, and a notice that deals cannot be listed, without a request', async () => {
		const { loadOptions } = context({ resource: 'deal', operation: 'create' });

		const { fields } = await getDealFields.call(loadOptions);

		const required = fields.filter((field) => field.required);
		expect(ids(required)).toEqual(['title', 'pipelineId', 'stageId', 'clientId']);
		const priorities = ['LOW', 'MEDIUM', 'HIGH'].map((value) => ({ name: value, value }));
		expect(fields.find((field) => field.id === 'priority')?.options).toEqual(priorities);
		expect(fields.find((field) => field.id === 'expectedCloseDate')?.type).toBe('dateTime');
		expect(ids(fields)).not.toContain('status');
		expect(String(fields.at(-1)?.defaultValue)).toMatch(/no deal list/);
	});

	it('on Update with a fixed Deal ID: the custom fields of that deal, status offered, nothing required', async () => {
		const { loadOptions, apiKey } = context({
			resource: 'deal',
			operation: 'update',
			dealId: 'deal_1',
		});
		nock(BASE)
			.matchHeader('x-api-key', apiKey)
			.get('/api/v1/deals/deal_1')
			.reply(200, { id: 'deal_1', title: 'T', customFields: { region: 'EMEA', seats: 3 } });

		const { fields } = await getDealFields.call(loadOptions);

		expect(fields.every((field) => !field.required)).toBe(true);
		expect(ids(fields)).toEqual(
			expect.arrayContaining(['status', 'customFields.region', 'customFields.seats']),
		);
		expect(ids(fields)).not.toContain('pipelineId');
	});
});

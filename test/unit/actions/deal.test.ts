import { setGlobalState } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { fromList, jsonOf, run, useNock } from './support';
import { answer, bodies } from '../../helpers/actions';

useNock();

beforeEach(() => setGlobalState({ defaultTimezone: 'UTC' }));

const deal = (id: string, extra: IDataObject = {}): IDataObject => ({
	id,
	title: 'Website redesign',
	createdAt: '2026-01-02T03:04:05.000Z',
	status: 'ACTIVE',
	...extra,
});

const required = {
	title: 'Website redesign',
	pipelineId: 'pip_sales',
	stageId: 'stg_new',
	clientId: 'cli_1',
};

describe('deal', () => {
	it('Create POSTs /deals with the required fields', async () => {
		const seen = answer('post', '/api/v1/deals', deal('deal_1'));

		const output = await run({ resource: 'deal', operation: 'create', ...required });

		expect(seen).toEqual([{ method: 'POST', path: '/api/v1/deals', body: required }]);
		expect(output).toEqual([{ json: deal('deal_1'), pairedItem: { item: 0 } }]);
	});

	it('Create sends the additional fields: a lead from the list, a Luxon date as ISO 8601, numbers, enums, custom and other fields', async () => {
		const seen = answer('post', '/api/v1/deals', deal('deal_2'));

		await run({
			resource: 'deal',
			operation: 'create',
			...required,
			additionalFields: {
				leadId: fromList('lead_9'),
				sourceId: 'src_referral',
				price: '={{ "2500.75" }}',
				expectedCloseDate:
					'={{ DateTime.fromISO("2026-06-30T17:00:00", { zone: "Europe/Berlin" }) }}',
				priority: 'HIGH',
				customFields: { field: [{ key: 'region', value: 'EMEA' }] },
				otherFields: { ownerId: 'usr_1' },
			},
		});

		expect(seen[0].body).toEqual({
			...required,
			leadId: 'lead_9',
			sourceId: 'src_referral',
			price: 2500.75,
			expectedCloseDate: '2026-06-30T15:00:00.000Z',
			priority: 'HIGH',
			customFields: { region: 'EMEA' },
			ownerId: 'usr_1',
		});
	});

	it('Update PATCHes /deals/{id} with only the fields that were set', async () => {
		const updated = deal('deal_1', { title: 'Bigger redesign', status: 'WON' });
		const seen = answer('patch', '/api/v1/deals/deal_1', updated);

		const output = await run({
			resource: 'deal',
			operation: 'update',
			dealId: 'deal_1',
			updateFields: {
				title: 'Bigger redesign',
				price: 9000,
				stageId: 'stg_proposal',
				status: 'WON',
				priority: 'LOW',
				sourceId: '',
				expectedCloseDate: '2026-07-01',
				customFields: { field: [{ key: 'region', value: 'APAC' }] },
				otherFields: '{"probability": 80}',
			},
		});

		expect(bodies(seen)).toEqual([
			{
				title: 'Bigger redesign',
				price: 9000,
				stageId: 'stg_proposal',
				status: 'WON',
				priority: 'LOW',
				expectedCloseDate: '2026-07-01T00:00:00.000Z',
				customFields: { region: 'APAC' },
				probability: 80,
			},
		]);
		expect(output).toEqual([{ json: updated, pairedItem: { item: 0 } }]);
	});

	it.each([
		['markWon', {}, { status: 'WON' }],
		['markLost', {}, { status: 'LOST' }],
		['moveToStage', { stageId: ' stg_won ' }, { stageId: 'stg_won' }],
	])('%s PATCHes %j', async (operation, more, body) => {
		const seen = answer('patch', '/api/v1/deals/deal_1', deal('deal_1', body));

		const output = await run({ resource: 'deal', operation, dealId: 'deal_1', ...more });

		expect(seen).toEqual([{ method: 'PATCH', path: '/api/v1/deals/deal_1', body }]);
		expect(jsonOf(output)).toEqual([deal('deal_1', body)]);
	});
});

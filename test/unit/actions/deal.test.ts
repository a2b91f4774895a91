import { setGlobalState } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { api, expectValidationError, fromList, jsonOf, logging, run, useNock } from './support';
import { answer } from '../../helpers/actions';
import type { SeenRequest } from './support';

useNock();

// Dates without a zone are read in the workflow's time zone; these tests run workflows in UTC unless they say otherwise.
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

describe('deal: create', () => {
	it('POSTs /deals with the required fields', async () => {
		const seen = answer('post', '/api/v1/deals', deal('deal_1'));

		const output = await run({ resource: 'deal', operation: 'create', ...required });

		expect(seen).toEqual([{ method: 'POST', path: '/api/v1/deals', body: required }]);
		expect(output).toEqual([{ json: deal('deal_1'), pairedItem: { item: 0 } }]);
	});

	it('sends the additional fields: a lead from the list, a Luxon date as ISO 8601, numbers, enums, custom and other fields', async () => {
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

	it('sends a date from the date picker or an ISO string as ISO 8601', async () => {
		const seen = answer('post', '/api/v1/deals', deal('deal_3'));

		await run({
			resource: 'deal',
			operation: 'create',
			...required,
			additionalFields: {
				expectedCloseDate: '2026-06-30T12:00:00.000Z',
				leadId: '={{ "lead_expr" }}',
			},
		});

		expect(seen[0].body).toMatchObject({
			expectedCloseDate: '2026-06-30T12:00:00.000Z',
			leadId: 'lead_expr',
		});
	});

	it('rejects an empty title (minimum length 1) and the other missing IDs before any request', async () => {
		await expectValidationError(
			{ resource: 'deal', operation: 'create', ...required, title: '  ' },
			'"Title" is required but is empty in item 0',
		);
		await expectValidationError(
			{ resource: 'deal', operation: 'create', ...required, clientId: '' },
			'"Client ID" is required but is empty in item 0',
		);
		await expectValidationError(
			{ resource: 'deal', operation: 'create', ...required, pipelineId: '' },
			'"Pipeline ID" is required but is empty in item 0',
		);
	});

	it('rejects a priority outside LOW, MEDIUM, HIGH and an invalid date before any request', async () => {
		await expectValidationError(
			{
				resource: 'deal',
				operation: 'create',
				...required,
				additionalFields: { priority: '={{ "URGENT" }}' },
			},
			'"Priority" must be one of LOW, MEDIUM, HIGH but is "URGENT" in item 0',
		);
		await expectValidationError(
			{
				resource: 'deal',
				operation: 'create',
				...required,
				additionalFields: { expectedCloseDate: '={{ "next week" }}' },
			},
			'"Expected Close Date" is not a valid date: "next week" in item 0',
		);
	});
});

describe('deal: update', () => {
	it('PATCHes /deals/{id} with only the fields that were set', async () => {
		const seen: SeenRequest[] = [];
		const updated = deal('deal_1', { title: 'Bigger redesign', status: 'WON' });
		const scope = api()
			.patch('/api/v1/deals/deal_1')
			.reply(logging(seen, 200, updated));

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

		expect(scope.isDone()).toBe(true);
		expect(seen).toEqual([
			{
				method: 'PATCH',
				path: '/api/v1/deals/deal_1',
				body: {
					title: 'Bigger redesign',
					price: 9000,
					stageId: 'stg_proposal',
					status: 'WON',
					priority: 'LOW',
					expectedCloseDate: '2026-07-01T00:00:00.000Z',
					customFields: { region: 'APAC' },
					probability: 80,
				},
			},
		]);
		expect(output).toEqual([{ json: updated, pairedItem: { item: 0 } }]);
	});

	it('rejects an update without fields, an empty title and an unknown status before any request', async () => {
		await expectValidationError(
			{ resource: 'deal', operation: 'update', dealId: 'deal_1', updateFields: {} },
			'"Update Fields" has no field to change in item 0',
		);
		await expectValidationError(
			{ resource: 'deal', operation: 'update', dealId: 'deal_1', updateFields: { title: '' } },
			'"Title" is required but is empty in item 0',
		);
		await expectValidationError(
			{
				resource: 'deal',
				operation: 'update',
				dealId: 'deal_1',
				updateFields: { status: '={{ "OPEN" }}' },
			},
			'"Status" must be one of ACTIVE, WON, LOST but is "OPEN" in item 0',
		);
		await expectValidationError(
			{ resource: 'deal', operation: 'update', dealId: ' ', updateFields: { price: 1 } },
			'"Deal ID" is required but is empty in item 0',
		);
	});

	it('with Continue on Fail, a 404 on one deal leaves the others updated', async () => {
		const scope = api()
			.patch('/api/v1/deals/deal_1')
			.reply(200, deal('deal_1', { price: 5 }))
			.patch('/api/v1/deals/deal_gone')
			.reply(404, { error: { code: 'NOT_FOUND', message: 'Deal deal_gone was not found' } })
			.patch('/api/v1/deals/deal_3')
			.reply(200, deal('deal_3', { price: 5 }));

		const output = await run(
			{
				resource: 'deal',
				operation: 'update',
				dealId: '={{ $json.id }}',
				updateFields: { price: 5 },
			},
			{
				items: [
					{ json: { id: 'deal_1' } },
					{ json: { id: 'deal_gone' } },
					{ json: { id: 'deal_3' } },
				],
				continueOnFail: true,
			},
		);

		expect(scope.isDone()).toBe(true);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json).toEqual(deal('deal_1', { price: 5 }));
		expect(output[1].json).toMatchObject({
			error: expect.stringContaining('404'),
			httpCode: '404',
		});
		expect(output[2].json).toEqual(deal('deal_3', { price: 5 }));
	});
});

describe('deal: mark as won, mark as lost, move to stage', () => {
	it('Mark as Won PATCHes { status: WON } for every item', async () => {
		const seen = answer('patch', /\/api\/v1\/deals\/deal_\d$/, deal('deal_x', { status: 'WON' }), {
			times: 2,
		});

		const output = await run(
			{ resource: 'deal', operation: 'markWon', dealId: '={{ $json.id }}' },
			{ items: [{ json: { id: 'deal_1' } }, { json: { id: 'deal_2' } }] },
		);

		expect(seen).toEqual([
			{ method: 'PATCH', path: '/api/v1/deals/deal_1', body: { status: 'WON' } },
			{ method: 'PATCH', path: '/api/v1/deals/deal_2', body: { status: 'WON' } },
		]);
		expect(jsonOf(output)).toEqual([
			deal('deal_x', { status: 'WON' }),
			deal('deal_x', { status: 'WON' }),
		]);
	});

	it('Mark as Lost PATCHes { status: LOST }', async () => {
		const seen = answer('patch', '/api/v1/deals/deal_1', deal('deal_1', { status: 'LOST' }));

		const output = await run({ resource: 'deal', operation: 'markLost', dealId: 'deal_1' });

		expect(seen).toEqual([
			{ method: 'PATCH', path: '/api/v1/deals/deal_1', body: { status: 'LOST' } },
		]);
		expect(jsonOf(output)).toEqual([deal('deal_1', { status: 'LOST' })]);
	});

	it('Move to Stage PATCHes { stageId }', async () => {
		const seen = answer('patch', '/api/v1/deals/deal_1', deal('deal_1', { stageId: 'stg_won' }));

		const output = await run({
			resource: 'deal',
			operation: 'moveToStage',
			dealId: 'deal_1',
			stageId: ' stg_won ',
		});

		expect(seen).toEqual([
			{ method: 'PATCH', path: '/api/v1/deals/deal_1', body: { stageId: 'stg_won' } },
		]);
		expect(jsonOf(output)).toEqual([deal('deal_1', { stageId: 'stg_won' })]);
	});

	it('Move to Stage rejects an empty stage before any request', async () => {
		await expectValidationError(
			{ resource: 'deal', operation: 'moveToStage', dealId: 'deal_1', stageId: '' },
			'"Stage ID" is required but is empty in item 0',
		);
	});
});

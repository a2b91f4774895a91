import type nock from 'nock';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { api, jsonOf, logging, newExecution, run, useNock } from './support';
import type { SeenRequest } from './support';
import { lead } from '../../helpers/records';

useNock();

beforeEach(() => newExecution());

const upsert = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'lead',
	operation: 'upsert',
	email: '  Jane.Doe@Example.COM ',
	name: 'Jane Doe',
	...extra,
});

const searchQuery = (email: string, cursor?: string) => ({
	search: email,
	archived: 'false',
	limit: '100',
	...(cursor ? { cursor } : {}),
});

describe('lead: create or update (upsert)', () => {
	it('finds the lead whose email differs only in case and spaces, and PATCHes it without touching its email', async () => {
		const seen: SeenRequest[] = [];
		const found = lead('lead_7', { email: 'jane.doe@example.com' });
		const updated = { ...found, name: 'Jane Q. Doe', title: 'Buyer' };
		const scope = api()
			.get('/api/v1/leads')
			.query(searchQuery('jane.doe@example.com'))
			.reply(
				logging(seen, 200, {
					// The API's search also matches parts and other fields: only the exact email (ignoring case) counts.
					items: [
						lead('lead_1', { email: 'xjane.doe@example.com' }),
						lead('lead_2', { name: 'jane.doe@example.com', email: null }),
						found,
					],
					hasMore: false,
					nextCursor: null,
				}),
			)
			.patch('/api/v1/leads/lead_7')
			.reply(logging(seen, 200, updated));

		const output = await run(
			upsert({ name: ' Jane Q. Doe ', additionalFields: { title: 'Buyer' } }),
		);

		expect(scope.isDone()).toBe(true);
		expect(seen.map((request) => `${request.method} ${request.path.split('?')[0]}`)).toEqual([
			'GET /api/v1/leads',
			'PATCH /api/v1/leads/lead_7',
		]);
		expect(seen[1].body).toEqual({ name: 'Jane Q. Doe', title: 'Buyer' });
		expect(jsonOf(output)).toEqual([
			{ ...updated, _upsert: { action: 'updated', matchedField: 'email' } },
		]);
		expect(output[0].pairedItem).toEqual({ item: 0 });
	});

	it('reads the lead back after a 204, and fails the item when the custom fields were not applied (as Update does)', async () => {
		const found = lead('lead_7', { email: 'jane.doe@example.com', customFields: {} });
		const afterUpdate = { ...found, value: 300 };
		const foundThenPatched = (readBack: IDataObject, sent?: nock.RequestBodyMatcher) =>
			api()
				.get('/api/v1/leads')
				.query(searchQuery('jane.doe@example.com'))
				.reply(200, { items: [found], hasMore: false })
				.patch('/api/v1/leads/lead_7', sent)
				.reply(204)
				.get('/api/v1/leads/lead_7')
				.reply(200, readBack);

		foundThenPatched(afterUpdate, { name: 'Jane Doe', value: 300 });
		expect(jsonOf(await run(upsert({ additionalFields: { value: 300 } })))).toEqual([
			{ ...afterUpdate, _upsert: { action: 'updated', matchedField: 'email' } },
		]);

		newExecution();
		const scope = foundThenPatched(found);
		const customFields = { field: [{ key: 'lastForm', value: 'Contact' }] };
		await expect(run(upsert({ additionalFields: { customFields } }))).rejects.toThrow(
			/did not update the custom fields lastForm of lead lead_7/,
		);
		expect(scope.isDone()).toBe(true);
	});

	const email = 'jane.doe@example.com';
	it.each([
		[
			'no lead has the email',
			[lead('lead_1', { email: `${email}.au` })],
			{ mobile: '+14155550123' },
			{ mobile: '+14155550123' },
		],
		[
			'the one that has it is archived (listed despite archived=false)',
			[lead('lead_old', { email, archived: true })],
			{},
			{},
		],
		[
			'none: an email in "Other Fields (JSON)" is not sent',
			[],
			{ otherFields: '{"email": "other@example.com", "ownerNote": "vip"}' },
			{ ownerNote: 'vip' },
		],
	])(
		'POSTs a new lead with the email as given (trimmed) when %s',
		async (_case, items, additionalFields, more) => {
			const created = lead('lead_9', { email: 'Jane.Doe@Example.COM' });
			const scope = api()
				.get('/api/v1/leads')
				.query(searchQuery(email))
				.reply(200, { items, hasMore: false, nextCursor: null })
				.post('/api/v1/leads', { name: 'Jane Doe', email: 'Jane.Doe@Example.COM', ...more })
				.reply(200, created);

			const output = await run(upsert({ additionalFields }));

			expect(scope.isDone()).toBe(true);
			expect(jsonOf(output)).toEqual([
				{ ...created, _upsert: { action: 'created', matchedField: null } },
			]);
		},
	);

	it('remembers across runs of the execution (e.g. loop batches, or a second node with the same credential)', async () => {
		const seen: SeenRequest[] = [];
		const created = lead('lead_loop', { email: 'loop@example.com' });
		const scope = api()
			.get('/api/v1/leads')
			.query(searchQuery('loop@example.com'))
			.reply(logging(seen, 200, { items: [], hasMore: false }))
			.post('/api/v1/leads')
			.reply(logging(seen, 200, created))
			.patch('/api/v1/leads/lead_loop')
			.reply(logging(seen, 200, created));

		// Two runs in the harness's one execution (the same execution id), as a loop runs a node once per batch.
		await run(upsert({ email: 'loop@example.com' }));
		await run(upsert({ email: 'LOOP@example.com' }));

		expect(scope.isDone()).toBe(true);
		expect(seen.map((request) => request.method)).toEqual(['GET', 'POST', 'PATCH']);
	});

	it('updates the oldest match by createdAt, reading every page of the search (and no more)', async () => {
		const seen: SeenRequest[] = [];
		const newer = lead('lead_a', {
			email: 'jane.doe@example.com',
			createdAt: '2026-03-01T00:00:00.000Z',
		});
		const oldest = lead('lead_b', {
			email: 'JANE.DOE@example.com',
			createdAt: '2025-12-31T23:59:59.000Z',
		});
		const scope = api()
			.get('/api/v1/leads')
			.query(searchQuery('jane.doe@example.com'))
			.reply(logging(seen, 200, { items: [newer], hasMore: true, nextCursor: 'c2' }))
			.get('/api/v1/leads')
			.query(searchQuery('jane.doe@example.com', 'c2'))
			.reply(logging(seen, 200, { items: [oldest], hasMore: false }))
			.patch('/api/v1/leads/lead_b')
			.reply(logging(seen, 200, oldest));

		const output = await run(upsert());

		expect(scope.isDone()).toBe(true);
		expect(seen).toHaveLength(3);
		expect(jsonOf(output)).toEqual([
			{ ...oldest, _upsert: { action: 'updated', matchedField: 'email' } },
		]);
	});

	it('fails the item naming the IDs when several leads match and the option says so, without reading further pages', async () => {
		const seen: SeenRequest[] = [];
		const scope = api()
			.get('/api/v1/leads')
			.query(searchQuery('jane.doe@example.com'))
			.reply(
				logging(seen, 200, {
					items: [
						lead('lead_a', { email: 'jane.doe@example.com' }),
						lead('lead_b', { email: 'Jane.Doe@example.com' }),
					],
					hasMore: true,
					nextCursor: 'c2',
				}),
			);

		await expect(run(upsert({ options: { severalMatches: 'error' } }))).rejects.toMatchObject({
			name: 'NodeOperationError',
			message: expect.stringMatching(
				/Several leads have the email "jane\.doe@example\.com": lead_a, lead_b and maybe more/,
			),
			description: expect.stringMatching(/Update the Oldest/),
		});
		expect(scope.isDone()).toBe(true);
		expect(seen).toHaveLength(1);
	});
});

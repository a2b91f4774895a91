/** Lead → Create or Update: the search by email, which lead it updates, when it creates, and its refusals. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { jsonOf, newExecution, run, useNock } from './support';
import { answer, bodies, servePages } from '../../helpers/actions';
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

/** The search of Create or Update: `pages` of leads answered to the search for `email`. */
const search = (email: string, pages: IDataObject[][]) =>
	servePages('/api/v1/leads', pages, { query: { search: email, archived: 'false', limit: '100' } });

it('finds the lead whose email differs only in case and spaces, and PATCHes it without touching its email', async () => {
	const found = lead('lead_7', { email: 'jane.doe@example.com' });
	const updated = { ...found, name: 'Jane Q. Doe', title: 'Buyer' };
	// The API's search also matches parts and other fields: only the exact email (ignoring case) counts.
	const searched = search('jane.doe@example.com', [
		[
			lead('lead_1', { email: 'xjane.doe@example.com' }),
			lead('lead_2', { name: 'jane.doe@example.com', email: null }),
			found,
		],
	]);
	const patched = answer('patch', '/api/v1/leads/lead_7', updated);

	const output = await run(upsert({ name: ' Jane Q. Doe ', additionalFields: { title: 'Buyer' } }));

	expect(searched).toHaveLength(1);
	expect(bodies(patched)).toEqual([{ name: 'Jane Q. Doe', title: 'Buyer' }]);
	expect(jsonOf(output)).toEqual([
		{ ...updated, _upsert: { action: 'updated', matchedField: 'email' } },
	]);
	expect(output[0].pairedItem).toEqual({ item: 0 });
});

it('reads the lead back after a 204, and fails the item when the custom fields were not applied (as Update does)', async () => {
	const found = lead('lead_7', { email: 'jane.doe@example.com', customFields: {} });
	const afterUpdate = { ...found, value: 300 };
	const foundThenPatched = (readBack: IDataObject) => {
		const seen = search('jane.doe@example.com', [[found]]);
		answer('patch', '/api/v1/leads/lead_7', undefined, { status: 204, log: seen });
		return answer('get', '/api/v1/leads/lead_7', readBack, { log: seen });
	};

	const first = foundThenPatched(afterUpdate);
	expect(jsonOf(await run(upsert({ additionalFields: { value: 300 } })))).toEqual([
		{ ...afterUpdate, _upsert: { action: 'updated', matchedField: 'email' } },
	]);
	expect(first[1].body).toEqual({ name: 'Jane Doe', value: 300 });

	newExecution();
	const second = foundThenPatched(found);
	const customFields = { field: [{ key: 'lastForm', value: 'Contact' }] };
	await expect(run(upsert({ additionalFields: { customFields } }))).rejects.toThrow(
		/did not update the custom fields lastForm of lead lead_7/,
	);
	expect(second).toHaveLength(3);
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
		search(email, [items]);
		const posted = answer('post', '/api/v1/leads', created);

		const output = await run(upsert({ additionalFields }));

		expect(bodies(posted)).toEqual([{ name: 'Jane Doe', email: 'Jane.Doe@Example.COM', ...more }]);
		expect(jsonOf(output)).toEqual([
			{ ...created, _upsert: { action: 'created', matchedField: null } },
		]);
	},
);

it('remembers across runs of the execution (e.g. loop batches, or a second node with the same credential)', async () => {
	const created = lead('lead_loop', { email: 'loop@example.com' });
	const seen = search('loop@example.com', [[]]);
	answer('post', '/api/v1/leads', created, { log: seen });
	answer('patch', '/api/v1/leads/lead_loop', created, { log: seen });

	// Two runs in the harness's one execution (the same execution id), as a loop runs a node once per batch.
	await run(upsert({ email: 'loop@example.com' }));
	await run(upsert({ email: 'LOOP@example.com' }));

	expect(seen.map((request) => request.method)).toEqual(['GET', 'POST', 'PATCH']);
});

it('without an execution id from n8n, remembers within a run only: the next run searches again', async () => {
	newExecution('');
	const created = lead('lead_noid', { email: 'noid@example.com' });
	const seen = search('noid@example.com', [[]]);
	answer('post', '/api/v1/leads', created, { log: seen });
	servePages('/api/v1/leads', [[created]], {
		query: { search: 'noid@example.com', archived: 'false', limit: '100' },
		log: seen,
	});
	answer('patch', '/api/v1/leads/lead_noid', created, { log: seen });

	await run(upsert({ email: 'noid@example.com' }));
	await run(upsert({ email: 'noid@example.com' }));

	expect(seen.map((request) => request.method)).toEqual(['GET', 'POST', 'GET', 'PATCH']);
});

it('updates the oldest match by createdAt, reading every page of the search (and no more)', async () => {
	const newer = lead('lead_a', {
		email: 'jane.doe@example.com',
		createdAt: '2026-03-01T00:00:00.000Z',
	});
	const oldest = lead('lead_b', {
		email: 'JANE.DOE@example.com',
		createdAt: '2025-12-31T23:59:59.000Z',
	});
	const seen = search('jane.doe@example.com', [[newer], [oldest]]);
	answer('patch', '/api/v1/leads/lead_b', oldest, { log: seen });

	const output = await run(upsert());

	expect(seen).toHaveLength(3);
	expect(jsonOf(output)).toEqual([
		{ ...oldest, _upsert: { action: 'updated', matchedField: 'email' } },
	]);
});

it('fails the item naming the IDs when several leads match and the option says so, without reading further pages', async () => {
	const seen = search('jane.doe@example.com', [
		[
			lead('lead_a', { email: 'jane.doe@example.com' }),
			lead('lead_b', { email: 'Jane.Doe@example.com' }),
		],
		// A second page is there to be read, and must not be.
		[lead('lead_c', { email: 'jane.doe@example.com' })],
	]);

	await expect(run(upsert({ options: { severalMatches: 'error' } }))).rejects.toMatchObject({
		name: 'NodeOperationError',
		message: expect.stringMatching(
			/Several leads have the email "jane\.doe@example\.com": lead_a, lead_b and maybe more/,
		),
		description: expect.stringMatching(/Update the Oldest/),
	});
	expect(seen).toHaveLength(1);
});

/** Where the spec leaves a choice open (issue 12), under both readings: it works, or an error names the point. */
import nock from 'nock';
import { setGlobalState } from 'n8n-workflow';
import type { INodeParameters } from 'n8n-workflow';

import { USER_SEARCH_QUERY_PARAMETER } from '../../../nodes/CrmInvoicing/shared/apiChoices';
import { api, byId, jsonOf, run, useNock } from './support';
import {
	answer,
	calls,
	v1Page,
	dealCreate,
	invoiceCreate,
	servePages,
} from '../../helpers/actions';
import { errorOf } from '../../helpers/harness';
import { lead } from '../../helpers/records';

useNock();

beforeEach(() => setGlobalState({ defaultTimezone: 'UTC' }));

const archive = { resource: 'lead', operation: 'archive', leadId: byId('lead_1') };
const archivedLead = lead('lead_1', { archived: true });

describe('archive / unarchive: the API may ignore `archived` in a PATCH', () => {
	it.each([
		['204, and the read-back still shows archived=false', 204, undefined, 2],
		['a 200 answer that is the lead, still unarchived (no read-back)', 200, false, 1],
	])('%s → an error that says so', async (_case, status, archived, requests) => {
		const answered = archived === undefined ? undefined : lead('lead_1', { archived });
		const seen = answer('patch', '/api/v1/leads/lead_1', answered, { status });
		if (requests === 2) answer('get', '/api/v1/leads/lead_1', lead('lead_1'), { log: seen });

		const error = await errorOf(run(archive));

		expect(calls(seen)).toHaveLength(requests);
		expect(error.message).toBe(
			'The API did not archive lead lead_1: it still answers archived=false',
		);
		expect(error.description).toMatch(/not among the fields PATCH \/leads\/\{id\} accepts/);
	});

	it.each([
		['archive answered with the archived lead: no read-back', 'archive', 200, archivedLead, true],
		['archive answered without `archived`: read back', 'archive', 200, { id: 'lead_1' }, true],
		['unarchive answered 204: read back', 'unarchive', 204, undefined, false],
	])('%s → success', async (_case, operation, status, answered, archived) => {
		const seen = answer('patch', '/api/v1/leads/lead_1', answered, { status });
		const after = lead('lead_1', { archived });
		if (answered?.archived === undefined)
			answer('get', '/api/v1/leads/lead_1', after, { log: seen });

		const output = await run({ ...archive, operation });

		expect(seen[0].body).toEqual({ archived });
		expect(calls(seen)).toHaveLength(answered?.archived === undefined ? 2 : 1);
		expect(jsonOf(output)).toEqual([after]);
	});

	it('unarchive says "did not unarchive"; with Continue on Fail the error is its item and the next item goes on', async () => {
		answer('patch', '/api/v1/leads/lead_1', undefined, { status: 204 });
		answer('get', '/api/v1/leads/lead_1', lead('lead_1', { archived: true }));
		answer('patch', '/api/v1/leads/lead_2', lead('lead_2'));
		const output = await run(
			{ resource: 'lead', operation: 'unarchive', leadId: byId('={{ $json.id }}') },
			{ items: [{ json: { id: 'lead_1' } }, { json: { id: 'lead_2' } }], continueOnFail: true },
		);
		expect(output[0]).toMatchObject({
			json: { error: 'The API did not unarchive lead lead_1: it still answers archived=true' },
			pairedItem: { item: 0 },
		});
		expect(output[1]).toEqual({ json: lead('lead_2'), pairedItem: { item: 1 } });
	});
});

describe('lead update: 204 answers and ignored custom fields', () => {
	const update = (updateFields: INodeParameters) => ({
		...archive,
		operation: 'update',
		updateFields,
	});
	const tierGold = { field: [{ key: 'tier', value: 'gold' }] };

	it.each([
		['204', 204, undefined],
		['200 with an answer that is not a lead', 200, { success: true }],
	])(
		'a %s is followed by a read-back whose lead is the output',
		async (_case, status, answered) => {
			const after = lead('lead_1', { title: 'CFO', customFields: { tier: 'gold', other: 1 } });
			const seen = answer('patch', '/api/v1/leads/lead_1', answered, { status });
			answer('get', '/api/v1/leads/lead_1', after, { log: seen });

			const output = await run(update({ title: 'CFO', customFields: tierGold }));

			expect(calls(seen)).toEqual(['PATCH /api/v1/leads/lead_1', 'GET /api/v1/leads/lead_1']);
			expect(seen[0].body).toEqual({ title: 'CFO', customFields: { tier: 'gold' } });
			expect(jsonOf(output)).toEqual([after]);
		},
	);

	it('custom fields the API did not apply → an error naming them', async () => {
		answer('patch', '/api/v1/leads/lead_1', undefined, { status: 204 });
		answer('get', '/api/v1/leads/lead_1', lead('lead_1', { title: 'CTO', customFields: null }));
		const error = await errorOf(run(update({ title: 'CTO', customFields: tierGold })));
		expect(error.message).toBe(
			'The API did not update the custom fields tier of lead lead_1: it answers customFields=null',
		);
	});

	it('custom fields answered with the same values (a number for a numeric text too) → success', async () => {
		const customFields = { tier: 'gold', seats: 5, other: true };
		answer('patch', '/api/v1/leads/lead_1', lead('lead_1', { customFields }));
		const field = [
			{ key: 'tier', value: 'gold' },
			{ key: 'seats', value: '5' },
		];
		const output = await run(update({ customFields: { field } }));
		expect(jsonOf(output)[0].customFields).toEqual(customFields);
	});
});

describe('ID fields accept numbers from expressions and send them as strings', () => {
	const n = '={{ $json.n }}';
	const item = { json: { n: 42 } };

	it.each([
		[
			{
				resource: 'lead',
				operation: 'create',
				name: 'Jane',
				additionalFields: { sourceId: n, stageId: '={{ $json.n + 1 }}' },
			},
			['post', '/api/v1/leads'],
			{ name: 'Jane', sourceId: '42', stageId: '43' },
		],
		[
			{
				resource: 'lead',
				operation: 'update',
				leadId: byId('={{ 7 }}'),
				updateFields: { stageId: n },
			},
			['patch', '/api/v1/leads/7'],
			{ stageId: '42' },
		],
		[
			// A lead ID saved as plain text (before the resource locator) is read too.
			dealCreate({
				pipelineId: n,
				stageId: n,
				clientId: n,
				additionalFields: { leadId: n, sourceId: n },
			}),
			['post', '/api/v1/deals'],
			{ title: 'T', pipelineId: '42', stageId: '42', clientId: '42', leadId: '42', sourceId: '42' },
		],
		[
			invoiceCreate({
				clientId: n,
				lineItems: { items: [{ name: 'A', quantity: 1, price: 1, taxRateId: n }] },
				additionalFields: { contactId: n, templateId: n, salesPersonId: byId(n) },
			}),
			['post', '/api/v1/invoices'],
			{
				clientId: '42',
				date: '2026-03-01T00:00:00.000Z',
				dueDate: '2026-03-31T00:00:00.000Z',
				contactId: '42',
				templateId: '42',
				salesPersonId: '42',
				lineItems: [{ name: 'A', quantity: 1, price: 1, taxRateId: '42' }],
			},
		],
	] as const)('%j', async (parameters, [method, path], body) => {
		const seen = answer(method, path, lead('1'));
		await run(parameters as unknown as INodeParameters, { items: [item] });
		expect(seen[0].body).toEqual(body);
	});
});

describe('webhook subscription delete is idempotent across retries', () => {
	const remove = { resource: 'webhook', operation: 'delete', webhookId: 'whk_1' };
	const notFound = { message: 'Webhook whk_1 was not found' };

	it.each([
		['a 502', (interceptor: nock.Interceptor) => interceptor.reply(502, 'Bad Gateway')],
		[
			'a dropped connection',
			(interceptor: nock.Interceptor) =>
				interceptor.replyWithError(
					Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
				),
		],
	])('%s, then 404 on the retry → deleted (the first attempt deleted it)', async (_case, first) => {
		const failed = first(api().delete('/api/v1/webhooks/whk_1'));
		const answered = api().delete('/api/v1/webhooks/whk_1').reply(404, notFound);
		const output = await run(remove);
		expect(failed.isDone()).toBe(true);
		expect(answered.isDone()).toBe(true);
		expect(jsonOf(output)).toEqual([{ deleted: true, id: 'whk_1' }]);
	});

	it('404 on the first attempt, or after a 429 (which means the first was not processed), stays an error', async () => {
		api().delete('/api/v1/webhooks/whk_1').reply(404, notFound);
		const first = await errorOf(run(remove));
		api()
			.delete('/api/v1/webhooks/whk_1')
			.reply(429, {}, { 'retry-after': '0' })
			.delete('/api/v1/webhooks/whk_1')
			.reply(404, notFound);
		const afterRateLimit = await errorOf(run(remove));
		for (const error of [first, afterRateLimit])
			expect(error.message).toBe('The CRM API answered 404: Webhook whk_1 was not found');
	});
});

describe('error bodies in the alternate shapes', () => {
	it('a plain-text 400: its text is the API message, in the error and its advice', async () => {
		const text = { 'Content-Type': 'text/plain; charset=utf-8' };
		api().post('/api/v1/leads').reply(400, 'name is required', text);
		const error = await errorOf(run({ resource: 'lead', operation: 'create', name: 'Jane' }));
		expect(error.message).toBe('The CRM API answered 400: name is required');
		expect(error.description).toMatch(/The API rejected a value: "name is required"/);
	});

	it('a { message } 404: the message', async () => {
		api().get('/api/v1/leads/lead_x').reply(404, { message: 'Lead lead_x was not found' });
		const error = await errorOf(
			run({ resource: 'lead', operation: 'get', leadId: byId('lead_x') }),
		);
		expect(error.message).toBe('The CRM API answered 404: Lead lead_x was not found');
		expect(error.description).toMatch(/Nothing was found at GET \/api\/v1\/leads\/lead_x/);
	});
});

describe('user search: the spec does not name the parameter; a server may ignore it', () => {
	const users = [
		{ id: 'usr_1', firstName: 'Ada', lastName: 'Admin', email: 'ada.admin@example.com' },
		{ id: 'usr_2', firstName: 'Rita', lastName: 'Reader', email: 'rita.reader@example.com' },
		{ id: 'usr_3', firstName: 'José', lastName: 'Núñez', email: 'jose@example.com' },
	];
	const found = async (filters: INodeParameters, limit?: number) =>
		jsonOf(await run({ resource: 'user', operation: 'getMany', limit, filters })).map(
			(user) => user.id,
		);

	it("standard reading (the server filters): one request under USER_SEARCH_QUERY_PARAMETER, Active as a boolean, the server's answer", async () => {
		const scope = api()
			.get('/api/v1/users')
			.query({ limit: '50', [USER_SEARCH_QUERY_PARAMETER]: 'rita', active: 'false' })
			.reply(200, v1Page([users[1]]));
		expect(await found({ search: 'rita', active: false })).toEqual(['usr_2']);
		expect(scope.isDone()).toBe(true);
	});

	it('alternate reading (the server ignores it): the node keeps only the matches, full names too, paging on until the limit', async () => {
		const pages = [users.slice(0, 2), users.slice(2)];
		const nunez = servePages('/api/v1/users', pages, { query: { limit: '2', search: 'nunez' } });
		const ada = servePages('/api/v1/users', [users], {
			query: { limit: '50', search: 'ada admin' },
		});
		expect(await found({ search: 'nunez' }, 2)).toEqual(['usr_3']);
		expect(await found({ search: 'ada admin' })).toEqual(['usr_1']);
		expect([nunez.length, ada.length]).toEqual([2, 1]);
	});
});

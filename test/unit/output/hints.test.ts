/** Execution hints: what a run cost (pages, requests, waits, 429s) and Create or Update's counts and `_upsert`. */
import nock from 'nock';
import { NodeHelpers, sleep } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeParameters,
	NodeExecutionHint,
} from 'n8n-workflow';

import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { addHints, costHint } from '../../../nodes/CrmInvoicing/actions/common/output';
import { describeDuration } from '../../../nodes/CrmInvoicing/shared/values';
import { createExecuteContext, TEST_CREDENTIALS } from '../../helpers/harness';
import { useNock } from '../actions/support';
import { v1Page } from '../../helpers/actions';
import { lead } from '../../helpers/records';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn().mockResolvedValue(undefined),
}));
const sleepMock = jest.mocked(sleep);

useNock();
beforeEach(() => {
	sleepMock.mockClear();
});

const nodeType = new CrmInvoicing();
let hostNumber = 0;

interface Run {
	items: INodeExecutionData[];
	hints: NodeExecutionHint[];
	base: string;
}

/** Runs the node against a host of its own (a 429 in one test then holds back no other); its output and hints. */
async function runWithHints(
	parameters: INodeParameters,
	mock: (scope: nock.Scope) => void,
	options: { typeVersion?: number; items?: INodeExecutionData[]; continueOnFail?: boolean } = {},
): Promise<Run> {
	const base = `https://crm-hints-${++hostNumber}.test`;
	mock(nock(base));
	const { context } = createExecuteContext({
		nodeType,
		parameters,
		credentials: { ...TEST_CREDENTIALS, baseUrl: base },
		// An execution of its own: Create or Update's email memory starts empty.
		executionId: `hints-execution-${hostNumber}`,
		...options,
	});
	const versioned = NodeHelpers.getVersionedNodeType(nodeType, context.getNode().typeVersion);
	const [items] = (await versioned.execute!.call(context)) as INodeExecutionData[][];
	return { items, hints: [...context.hints], base };
}

/** Answers `path` (any query) `times` times with `body`. */
const answers =
	(path: string, body: nock.Body, times = 1) =>
	(scope: nock.Scope) =>
		scope.get(path).query(true).times(times).reply(200, body);

describe('execution hints: what a run cost', () => {
	it('a run of single requests adds no hint (one page, no wait)', async () => {
		const client = { resource: 'client', operation: 'get', clientId: 'cli_1' };
		const get = await runWithHints(client, answers('/api/v1/clients/cli_1', { id: 'cli_1' }));
		expect(get.hints).toEqual([]);
		const users = { resource: 'user', operation: 'getMany', returnAll: true };
		const onePage = await runWithHints(users, answers('/api/v1/users', v1Page([{ id: 'u' }])));
		expect(onePage.hints).toEqual([]);
		// One page per item is still a run of single requests: no hint, however many items.
		const items = Array.from({ length: 3 }, () => ({ json: {} }));
		const pages = answers('/api/v1/users', v1Page([{ id: 'usr_1' }], 'c2'), 3);
		const perItem = await runWithHints({ ...users, returnAll: false, limit: 1 }, pages, { items });
		expect(perItem.items).toHaveLength(3);
		expect(perItem.hints).toEqual([]);
	});

	it('counts the pages and requests of every list of the run once one list took several; the next run from zero', async () => {
		const parameters = {
			resource: 'lead',
			operation: 'getMany',
			returnAll: '={{ $json.all }}',
			limit: 1,
		};
		const pages = (scope: nock.Scope) =>
			scope
				.get('/api/v1/leads')
				.query({ limit: '1' })
				.reply(200, v1Page([lead('1')], 'c2'))
				.get('/api/v1/leads')
				.query({ limit: '100' })
				.reply(200, v1Page([lead('1')], 'c2'))
				.get('/api/v1/leads')
				.query({ limit: '100', cursor: 'c2' })
				.reply(200, v1Page([lead('2')]));
		const items = [{ json: { all: false } }, { json: { all: true } }];
		const first = await runWithHints(parameters, pages, { items });
		const second = await runWithHints(parameters, pages, { items });
		expect(first.items).toHaveLength(3);
		const message = 'This run read 3 pages and sent 3 requests to the CRM.';
		expect(first.hints).toEqual([{ message, type: 'info', location: 'outputPane' }]);
		expect(second.hints).toEqual(first.hints);
	});

	it('a 429 waited out says so: requests, total wait and answers 429', async () => {
		const limited = { error: { code: 'RATE_LIMITED', message: 'Too many requests' } };
		const product = { resource: 'product', operation: 'get', productId: 'prd_1' };
		const run = await runWithHints(product, (scope) =>
			scope
				.get('/api/v1/products/prd_1')
				.reply(429, limited, { 'Retry-After': '2' })
				.get('/api/v1/products/prd_1')
				.reply(200, { id: 'prd_1', name: 'Hour' }),
		);
		expect(run.items).toHaveLength(1);
		expect(sleepMock).toHaveBeenCalledTimes(1);
		// The pacer counts the wait from when the retry queued to when its turn came, which includes the few ms between
		// queueing and setting the timer: on a busy machine 2,000 ms asked can count as "2.1 s".
		expect(run.hints).toHaveLength(1);
		expect(run.hints[0]).toMatchObject({ type: 'info', location: 'outputPane' });
		expect(run.hints[0].message).toMatch(
			/^This run sent 2 requests to the CRM, waited 2(\.\d)? s in total for its rate limit and absorbed 1 answer 429 \(Too Many Requests\) by waiting and retrying\.$/,
		);
	});

	it('formats waits for people', () => {
		expect(describeDuration(250)).toBe('250 ms');
		expect(describeDuration(1049)).toBe('1 s');
		expect(describeDuration(61_500)).toBe('61.5 s');
		expect(describeDuration(3_600_000)).toBe('1 h');
		expect(
			costHint({ requests: 1, pages: 1, mostPagesOfOneList: 1, rateLimited: 0, waitedMs: 0 }),
		).toBeUndefined();
		expect(
			costHint({ requests: 61, pages: 1, mostPagesOfOneList: 1, rateLimited: 0, waitedMs: 30_000 })
				?.message,
		).toBe('This run sent 61 requests to the CRM and waited 30 s in total for its rate limit.');
	});

	it('leaves a context without addExecutionHints (an older n8n) as it is', () => {
		const context = {} as IExecuteFunctions;
		expect(() => addHints(context, [{ message: 'x' }])).not.toThrow();
	});
});

describe('Create or Update: the marker and "Created N and updated M leads"', () => {
	const upsert: INodeParameters = {
		resource: 'lead',
		operation: 'upsert',
		email: '={{ $json.email }}',
		name: '={{ $json.name }}',
		additionalFields: {},
	};
	const people: INodeExecutionData[] = [
		{ json: { email: 'known@example.com', name: 'Known' } },
		{ json: { email: 'new@example.com', name: 'New' } },
		{ json: { email: 'NEW@example.com ', name: 'New Again' } },
	];
	const known = lead('lead_known', { email: 'known@example.com', secondaryMobile: '+1 555' });
	const created = lead('lead_new', { email: 'new@example.com' });
	const mock = (scope: nock.Scope) =>
		scope
			.get('/api/v1/leads')
			.query({ search: 'known@example.com', archived: 'false', limit: '100' })
			.reply(200, v1Page([known]))
			.patch('/api/v1/leads/lead_known')
			.reply(200, { ...known, name: 'Known' })
			.get('/api/v1/leads')
			.query({ search: 'new@example.com', archived: 'false', limit: '100' })
			.reply(200, v1Page([]))
			.post('/api/v1/leads')
			.reply(201, created)
			.patch('/api/v1/leads/lead_new')
			.reply(200, { ...created, name: 'New Again' });

	it.each([
		[
			'version 2: each item is the lead unchanged plus `_upsert` (created / updated, the field that matched)',
			2,
			[
				{ ...known, name: 'Known', _upsert: { action: 'updated', matchedField: 'email' } },
				{ ...created, _upsert: { action: 'created', matchedField: null } },
				{ ...created, name: 'New Again', _upsert: { action: 'updated', matchedField: 'email' } },
			],
		],
		[
			'version 1 (saved with 0.2): the leads exactly as before, no marker',
			1,
			[{ ...known, name: 'Known' }, created, { ...created, name: 'New Again' }],
		],
	])('%s; the hint counts them', async (_name, typeVersion, leads) => {
		const run = await runWithHints(upsert, mock, { items: people, typeVersion });
		expect(run.items.map((item) => item.json)).toEqual(leads);
		expect(run.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(run.hints.map((hint) => hint.message)).toEqual(['Created 1 and updated 2 leads']);
	});

	it('an item that failed (Continue on Fail) is in neither count', async () => {
		const run = await runWithHints(
			upsert,
			(scope) =>
				scope
					.get('/api/v1/leads')
					.query(true)
					.reply(200, v1Page([]))
					.post('/api/v1/leads')
					.reply(201, created),
			{
				items: [
					{ json: { email: '', name: 'No Email' } },
					{ json: { email: 'new@example.com', name: 'New' } },
				],
				continueOnFail: true,
			},
		);
		expect(run.items[0].json.error).toEqual(expect.any(String));
		expect(run.items[1].json._upsert).toEqual({ action: 'created', matchedField: null });
		expect(run.hints.map((hint) => hint.message)).toEqual(['Created 1 and updated 0 leads']);
	});
});

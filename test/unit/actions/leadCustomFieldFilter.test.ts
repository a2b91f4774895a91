/** Issue 43: Lead → Get Many (version 4) filters by custom field values, reading pages of 100 leads itself. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { expectValidationError, jsonOf, records, run, useNock } from './support';
import { queries, servePages } from '../../helpers/actions';

useNock();

const V4 = { typeVersion: 4 };

/** A page of `count` leads from `from` on; `custom` gives some of them (by number) their customFields. */
function page(
	count: number,
	from: number,
	custom: Record<number, IDataObject[string]> = {},
): IDataObject[] {
	return records(count, from, 'lead_').map((lead, index) =>
		from + index in custom ? { ...lead, customFields: custom[from + index] } : lead,
	);
}

/** One page of leads answered per entry of `pages`; the requests, in order. */
const serve = (pages: IDataObject[][]) => servePages('/api/v1/leads', pages);

const filterOf = (...pairs: Array<[string, unknown]>): INodeParameters => ({
	field: pairs.map(([key, value]) => ({ key, value })) as unknown as INodeParameters[],
});

const getMany = (more: INodeParameters): INodeParameters => ({
	resource: 'lead',
	operation: 'getMany',
	simplify: false,
	...more,
});

const ids = (items: Awaited<ReturnType<typeof run>>) => jsonOf(items).map((lead) => lead.id);

it('Limit 5 with the matches on page 2: two requests of 100 leads, the first 5 matches, and no third page', async () => {
	const matching = { externalId: 'EXT-0142' };
	const custom = Object.fromEntries([120, 130, 140, 150, 160, 170].map((n) => [n, matching]));
	// A third page is there to be read, and must not be: the node stops at the fifth match.
	const seen = serve([page(100, 1, { 5: { externalId: 'EXT-1' } }), page(100, 101, custom), []]);

	const output = await run(
		getMany({
			limit: 5,
			filters: { archived: false },
			customFieldFilter: filterOf(['externalId', 'EXT-0142']),
		}),
		V4,
	);

	expect(ids(output)).toEqual(['lead_120', 'lead_130', 'lead_140', 'lead_150', 'lead_160']);
	expect(queries(seen)).toEqual([
		{ limit: '100', archived: 'false' },
		{ limit: '100', archived: 'false', cursor: 'c2' },
	]);
});

it('Return All reads every page and outputs the leads that match every pair', async () => {
	const both = { vip: true, tier: 'gold' };
	const seen = serve([
		page(100, 1, {
			1: both,
			2: { vip: true, tier: 'silver' },
			3: { tier: 'gold' },
			4: { ...both, seats: 3 },
		}),
		page(100, 101),
		page(30, 201, { 230: both, 229: { vip: false, tier: 'gold' } }),
	]);
	const customFieldFilter = filterOf(['vip', 'true'], ['tier', 'gold']);

	const output = await run(getMany({ returnAll: true, customFieldFilter }), V4);

	expect(ids(output)).toEqual(['lead_1', 'lead_4', 'lead_230']);
	expect(queries(seen).map((query) => query.limit)).toEqual(['100', '100', '100']);
});

it('compares text as it is and other values as their JSON text; null, missing and inherited keys never match', async () => {
	const fields: Record<number, IDataObject[string]> = {
		1: { n: 42 },
		2: { n: '42' },
		3: { n: 42.5 },
		4: { n: null },
		5: {},
		6: null,
		7: { n: ' 42' },
		8: { n: [42] },
	};
	serve([page(9, 1, fields)]);
	const matches = async (value: unknown, key = 'n') =>
		ids(await run(getMany({ returnAll: true, customFieldFilter: filterOf([key, value]) }), V4));

	expect(await matches('42')).toEqual(['lead_1', 'lead_2']);

	serve([page(9, 1, fields)]);
	expect(await matches('[42]')).toEqual(['lead_8']);

	// Object's own members are not custom fields: __proto__ of {} would read as "{}".
	serve([page(3, 1, { 1: {}, 2: { constructor: 'Acme' }, 3: { toString: 'x' } })]);
	expect(await matches('{}', '__proto__')).toEqual([]);
	serve([page(3, 1, { 1: {}, 2: { constructor: 'Acme' }, 3: { toString: 'x' } })]);
	expect(await matches('Acme', 'constructor')).toEqual(['lead_2']);
});

it('a pair without a key fails the item before any request', async () => {
	await expectValidationError(
		getMany({ customFieldFilter: filterOf(['externalId', 'EXT-1'], ['  ', 'x']) }),
		'"Custom Field Filter" pair 2 has no key in item 0',
		V4,
	);
});

it('without pairs, or in a node saved with version 3, reads as before: one page of Limit leads, all output', async () => {
	for (const [version, filter] of [
		[4, {}],
		[3, filterOf(['externalId', 'EXT-0142'])],
	] as const) {
		const seen = serve([page(3, 1, { 2: { externalId: 'EXT-0142' } })]);
		const output = await run(getMany({ limit: 10, customFieldFilter: filter }), {
			typeVersion: version,
		});
		expect(ids(output)).toEqual(['lead_1', 'lead_2', 'lead_3']);
		expect(queries(seen)).toEqual([{ limit: '10' }]);
	}
});

/** Issue 40: custom fields named `constructor`, `prototype` and `__proto__` work on Create, Update and the merge. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { api, byId, run, useNock } from './support';
import { answer, customField, DEAL_REQUIRED, mapperColumns } from '../../helpers/actions';
import { lead } from '../../helpers/records';
import type { SeenRequest } from './support';

useNock();

const NAMES = ['constructor', 'prototype', '__proto__'];
/** The custom fields as JSON text: JSON.parse makes `__proto__` an own key, as the CRM's answers are read. */
const SENT = '{"constructor":"c","prototype":2,"__proto__":{"deep":true}}';
const sentFields = () => JSON.parse(SENT) as IDataObject;

/** The mapper's value, as the editor saves it (`customFields.<key>`, the fields untyped). */
function mapped(standard: IDataObject): INodeParameters {
	const value: IDataObject = { ...standard };
	for (const [key, field] of Object.entries(sentFields())) value[`customFields.${key}`] = field;
	return mapperColumns(
		value,
		NAMES.map((key) => customField(key)),
	);
}

/** The same fields as "Additional Fields" → "Custom Fields" pairs (versions 1 and 2, and next to the mapper). */
const pairs: INodeParameters = {
	customFields: {
		field: Object.entries(sentFields()).map(([key, value]) => ({ key, value }) as INodeParameters),
	},
};

/** The `customFields` a request carried, as JSON text in the order sent. */
const customSent = (request: SeenRequest) =>
	JSON.stringify((request.body as IDataObject).customFields);

const record = (id: string, customFields: IDataObject) => lead(id, { title: 'T', customFields });

describe.each([
	['lead', '/api/v1/leads', { name: 'Jane' }],
	['deal', '/api/v1/deals', DEAL_REQUIRED],
] as const)(
	'%s: custom fields named constructor, prototype and __proto__',
	(resource, path, standard) => {
		it.each([
			['the mapper (version 3)', { columns: mapped(standard) }, 3],
			['Custom Fields pairs (version 2)', { ...standard, additionalFields: pairs }, 2],
		])('Create through %s sends them all as own keys', async (_how, parameters, typeVersion) => {
			const seen = answer('post', path, record(`${resource}_1`, sentFields()));

			await run({ resource, operation: 'create', ...parameters }, { typeVersion });

			expect(customSent(seen[0])).toBe(SENT);
		});

		it('Update (version 3) merges them with the record’s other custom fields and sends them all', async () => {
			const seen: SeenRequest[] = [];
			const idParameter = resource === 'lead' ? { leadId: byId('r_1') } : { dealId: 'r_1' };
			const merged = `{"keep":1,${SENT.slice(1)}`;
			answer('get', `${path}/r_1`, record('r_1', { keep: 1, constructor: 'old' }), { log: seen });
			answer('patch', `${path}/r_1`, record('r_1', JSON.parse(merged) as IDataObject), {
				log: seen,
			});

			const [item] = await run(
				{ resource, operation: 'update', ...idParameter, columns: mapped({}) },
				{ typeVersion: 3 },
			);

			expect(customSent(seen[1])).toBe(merged);
			expect(item.json._update).toEqual({ changed: NAMES.map((key) => `customFields.${key}`) });
		});
	},
);

it('Lead → Update fails when the CRM answers without a sent "__proto__" (an own-key check, not the prototype)', async () => {
	api().get('/api/v1/leads/r_1').reply(200, record('r_1', {}));
	api()
		.patch('/api/v1/leads/r_1')
		.reply(200, record('r_1', { constructor: 'c', prototype: 2 }));

	const update = {
		resource: 'lead',
		operation: 'update',
		leadId: byId('r_1'),
		columns: mapped({}),
	};
	await expect(run(update, { typeVersion: 3 })).rejects.toThrow(
		'The API did not update the custom fields __proto__ of lead r_1',
	);
});

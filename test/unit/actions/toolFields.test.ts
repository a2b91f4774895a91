/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Issue 30: the `$fromAI()` calls users copy from docs/operations.md hold to the mapper: every field, read by n8n with
 * the field's key, a description and the type the node checks.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import {
	generateZodSchema,
	traverseNodeParameters,
	type FromAIArgument,
	type INodeParameters,
} from 'n8n-workflow';

import type { StandardField } from '../../../nodes/CrmInvoicing/actions/common/mapperFields';
import { DEAL_MAPPER_FIELDS } from '../../../nodes/CrmInvoicing/actions/deal/fields';
import { LEAD_MAPPER_FIELDS } from '../../../nodes/CrmInvoicing/actions/lead/fields';

const DOCS = readFileSync(path.join(__dirname, '../../../docs/operations.md'), 'utf8');

/** The table's rows: record, field label, and the `$fromAI()` call as n8n reads it from a parameter. */
const rows = DOCS.split('\n')
	.map((line) => /^\| (Lead|Deal|Either) \| ([^|]+) \| `(\$fromAI\(.*\))` \|$/.exec(line))
	.filter((match): match is RegExpExecArray => match !== null)
	.map(([, record, label, call]) => {
		const found: FromAIArgument[] = [];
		traverseNodeParameters({ value: `={{ ${call} }}` } as INodeParameters, found);
		return { record, label: label.trim(), call, argument: found[0] };
	});

const RECORDS: Array<[string, readonly StandardField[]]> = [
	['Lead', LEAD_MAPPER_FIELDS],
	['Deal', DEAL_MAPPER_FIELDS],
];

describe('the $fromAI() descriptions of the mapper fields (docs/operations.md)', () => {
	it('has one row per record field, in the mapper’s order, and one for custom fields', () => {
		for (const [record, fields] of RECORDS)
			expect(rows.filter((row) => row.record === record).map((row) => row.label)).toEqual(
				fields.map((field) => field.displayName),
			);
		expect(rows.filter((row) => row.record === 'Either').map((row) => row.label)).toEqual([
			'a custom field, e.g. industry',
		]);
	});

	it.each(RECORDS)(
		'%s: n8n reads each call with the field’s API key, a description and the checked type',
		(record, fields) => {
			for (const field of fields) {
				const row = rows.find(
					(candidate) => candidate.record === record && candidate.label === field.displayName,
				);
				const argument = row?.argument;
				expect(argument).toBeDefined();
				expect(argument?.key).toBe(field.id);
				// A description that says more than the label, and names the allowed values of a list.
				expect(argument?.description?.length).toBeGreaterThan(field.displayName.length + 10);
				for (const value of field.values ?? []) expect(argument?.description).toContain(value);
				expect(argument?.type).toBe(field.type === 'number' ? 'number' : 'string');
				// Required on Create: no default, so the model must give it. A number has no empty value to default to.
				if (field.required || field.type === 'number')
					expect(argument?.defaultValue).toBeUndefined();
				else expect(argument?.defaultValue).toBe('');
			}
		},
	);

	it('asks the model for a number where the node checks one, and for text elsewhere', () => {
		const value = rows.find((row) => row.record === 'Lead' && row.label === 'Value')?.argument;
		const schema = generateZodSchema(value as FromAIArgument);
		expect(schema.safeParse(1200).success).toBe(true);
		expect(schema.safeParse('1200').success).toBe(false);
		expect(schema.description).toMatch(/number/);
		const email = rows.find((row) => row.record === 'Lead' && row.label === 'Email')?.argument;
		expect(generateZodSchema(email as FromAIArgument).parse(undefined)).toBe('');
	});

	it('Lead → Get Many’s Custom Field Filter (node version 4): a row of the table, and n8n finds it in the filter’s Value, nested in the fixedCollection', () => {
		const row = /^\| Lead → Get Many \| Custom Field Filter → Value.*`(\$fromAI\(.*\))`/m;
		const call = row.exec(DOCS)?.[1];
		expect(call).toBeDefined();
		const found: FromAIArgument[] = [];
		const parameters = {
			customFieldFilter: { field: [{ key: 'externalId', value: `={{ ${call} }}` }] },
		} as unknown as INodeParameters;
		traverseNodeParameters(parameters, found);
		expect(found).toHaveLength(1);
		expect(found[0]).toMatchObject({ key: 'externalId', type: 'string' });
		expect(found[0].description).toMatch(/externalId/);
		// Required: a filter value the model may leave out would match only an empty field.
		expect(found[0].defaultValue).toBeUndefined();
		expect(generateZodSchema(found[0]).safeParse('EXT-0142').success).toBe(true);
	});
});

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** Records as the CRM answers them (spec §2), for the unit tests' nock answers. */
import type { IDataObject } from 'n8n-workflow';

/** A lead with the fields every answer carries (spec §2: id, number, name, archived, createdAt), and `extra`. */
export const lead = (id: string, extra: IDataObject = {}): IDataObject => ({
	id,
	number: 'L-0001',
	name: 'Jane Doe',
	archived: false,
	createdAt: '2026-01-02T03:04:05.000Z',
	...extra,
});

import type { ILoadOptionsFunctions } from 'n8n-workflow';

import type { SimplifiedResource } from '../../shared';
import { RECORD_FIELDS, valueOption } from '../common';
import { leadCustomFields } from './resourceMapping';

export async function getOutputFields(this: ILoadOptionsFunctions) {
	const resource = this.getCurrentNodeParameter('resource') as SimplifiedResource;
	const fields = RECORD_FIELDS[resource].map(valueOption);
	if (resource !== 'lead') return fields;
	const { custom } = await leadCustomFields(this);
	return [...fields, ...custom.map(({ id, displayName }) => ({ name: displayName, value: id }))];
}

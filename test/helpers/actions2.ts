/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** Parameter builders the action node's unit tests share (test/unit/actions/): required fields, the mapper's value. */
import type { IDataObject, INodeParameters, ResourceMapperField } from 'n8n-workflow';

/** Invoice → Create with its required fields (no line items), and `more`. */
export const invoiceCreate = (more: IDataObject = {}): INodeParameters =>
	({
		resource: 'invoice',
		operation: 'create',
		clientId: 'cli_1',
		date: '2026-03-01',
		dueDate: '2026-03-31',
		...more,
	}) as INodeParameters;

/** The fields Deal → Create requires. */
export const DEAL_REQUIRED = {
	title: 'T',
	pipelineId: 'pip_1',
	stageId: 'stg_1',
	clientId: 'cli_1',
};

/** Deal → Create with the required fields, and `more`. */
export const dealCreate = (more: IDataObject = {}): INodeParameters =>
	({ resource: 'deal', operation: 'create', ...DEAL_REQUIRED, ...more }) as INodeParameters;

/** A custom field of the mapper's schema, as the editor saved it (no `type`: untyped). */
export const customField = (
	key: string,
	type?: ResourceMapperField['type'],
): ResourceMapperField => ({
	id: `customFields.${key}`,
	displayName: `${key} (custom field)`,
	type,
	required: false,
	defaultMatch: false,
	display: true,
});

/** The mapper's `columns` value as the editor saves it; Map Automatically when `auto`, converting types when `convert`. */
export function mapperColumns(
	value: IDataObject | null,
	schema: ResourceMapperField[],
	options: { auto?: boolean; convert?: boolean } = {},
): INodeParameters {
	return {
		mappingMode: options.auto ? 'autoMapInputData' : 'defineBelow',
		value,
		matchingColumns: [],
		schema,
		attemptToConvertTypes: options.convert ?? false,
		convertFieldsToString: false,
	} as unknown as INodeParameters;
}

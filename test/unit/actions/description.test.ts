/** The node's public interface (names saved in users' workflows) and the UI conventions the linter cannot see. */
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { resources } from '../../../nodes/CrmInvoicing/actions/router';
import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';

const description = new CrmInvoicing().description;
const properties = description.properties;

const OPERATIONS: Record<string, string[]> = {
	lead: ['archive', 'create', 'get', 'getMany', 'unarchive', 'update', 'upsert'],
	deal: ['create', 'markLost', 'markWon', 'moveToStage', 'update'],
	invoice: ['create'],
	client: ['get'],
	product: ['get'],
	user: ['getMany'],
	contact: ['getMany'],
	webhook: ['create', 'delete', 'get', 'getMany'],
	customApiRequest: ['request'],
};

/** Whether a `@version` rule (a list of versions, or `{ _cnd: { gte } }`) shows a parameter in this version. */
function showsVersion(rule: unknown[] | undefined, version: number): boolean {
	if (!rule) return true;
	return rule.some((entry) =>
		typeof entry === 'number'
			? entry === version
			: version >= ((entry as { _cnd?: { gte?: number } })._cnd?.gte ?? Infinity),
	);
}

/** The properties shown for one resource and operation in a node version (2 unless said). */
function shownFor(resource: string, operation: string, version = 2): INodeProperties[] {
	return properties.filter((property) => {
		const show = property.displayOptions?.show;
		return (
			show?.resource?.includes(resource) &&
			show?.operation?.includes(operation) &&
			showsVersion(show['@version'] as unknown[] | undefined, version)
		);
	});
}

function property(resource: string, operation: string, name: string): INodeProperties {
	const found = shownFor(resource, operation).find((candidate) => candidate.name === name);
	if (!found) throw new Error(`No parameter ${name} for ${resource}/${operation}`);
	return found;
}

/** The option `name` of the collection `collection`. */
const optionOf = (resource: string, operation: string, collection: string, name: string) =>
	(property(resource, operation, collection).options as INodeProperties[]).find(
		(option) => option.name === name,
	)!;

const operationOf = (resource: string): INodeProperties =>
	properties.find(
		(candidate) =>
			candidate.name === 'operation' &&
			candidate.displayOptions?.show?.resource?.includes(resource),
	)!;

function optionNames(collection: INodeProperties): string[] {
	return ((collection.options ?? []) as INodeProperties[]).map((option) => option.name);
}

function isSorted(names: string[]): boolean {
	return names.every((name, index) => index === 0 || names[index - 1].localeCompare(name) <= 0);
}

describe('node description', () => {
	it('keeps the node type, version and credential', () => {
		expect(description).toMatchObject({
			name: 'crmInvoicing',
			version: [1, 2, 3, 4],
			defaultVersion: 4,
			usableAsTool: true,
		});
		expect(description.credentials).toEqual([{ name: 'crmInvoicingApi', required: true }]);
	});

	it('offers every resource and operation, each routed to its code', () => {
		const resource = properties.find((candidate) => candidate.name === 'resource')!;
		expect(resource.default).toBe('lead');
		expect(
			(resource.options as INodePropertyOptions[]).map((option) => option.value).sort(),
		).toEqual(Object.keys(OPERATIONS).sort());
		for (const [name, operations] of Object.entries(OPERATIONS)) {
			const operation = operationOf(name);
			const options = operation.options as INodePropertyOptions[];
			expect(options.map((option) => option.value).sort()).toEqual(operations);
			expect(isSorted(options.map((option) => option.name))).toBe(true);
			for (const option of options) {
				expect(option.action).toMatch(/^[A-Z][a-z]/);
				expect(option.description).toMatch(/./);
				expect(typeof resources[name][option.value as string].execute).toBe('function');
			}
			expect(Object.keys(resources[name]).sort()).toEqual(operations);
		}
		// Saved lead workflows omit default values: lead/create stays the default.
		expect(operationOf('lead').default).toBe('create');
	});

	// Version 3: Create and Update of leads and deals map their fields with the resource mapper ("columns"); version 4
	// (issue 43): Output instead of Simplify on Get and Get Many, and Lead → Get Many's Custom Field Filter.
	it.each([
		['lead', 'create', 2, 'name additionalFields'],
		['lead', 'create', 3, 'columns additionalFields'],
		['lead', 'update', 2, 'leadId updateFields'],
		['lead', 'update', 3, 'leadId columns additionalFields'],
		['lead', 'upsert', 2, 'upsertNotice email name additionalFields options'],
		['lead', 'upsert', 3, 'upsertNotice email name additionalFields options'],
		['lead', 'get', 2, 'leadId simplify'],
		['lead', 'get', 4, 'leadId output fields'],
		['lead', 'getMany', 2, 'returnAll limit simplify filters'],
		['lead', 'getMany', 3, 'returnAll limit simplify filters'],
		['lead', 'getMany', 4, 'returnAll limit output fields filters customFieldFilter'],
		['deal', 'create', 2, 'title pipelineId stageId clientId additionalFields'],
		['deal', 'create', 3, 'columns additionalFields'],
		['deal', 'update', 2, 'dealId updateFields'],
		['deal', 'update', 3, 'dealId columns additionalFields'],
		['deal', 'moveToStage', 2, 'dealId stageId'],
		[
			'invoice',
			'create',
			2,
			'clientId date dueDate lineItemsSource lineItems lineItemsJson additionalFields',
		],
		['client', 'get', 2, 'clientId simplify'],
		['client', 'get', 4, 'clientId output fields'],
		['product', 'get', 2, 'productId simplify'],
		['user', 'getMany', 2, 'returnAll limit simplify filters'],
		['user', 'getMany', 4, 'returnAll limit output fields filters'],
		['contact', 'getMany', 2, 'returnAll limit simplify filters'],
		['webhook', 'get', 2, 'webhookId'],
		['webhook', 'getMany', 2, 'returnAll limit'],
		['webhook', 'delete', 2, 'webhookId'],
		['webhook', 'create', 2, 'secretNotice name url events customEvents'],
	])(
		'keeps the parameter names of %s → %s in version %i: %s',
		(resource, operation, version, names) => {
			expect(shownFor(resource, operation, version).map((candidate) => candidate.name)).toEqual(
				names.split(' '),
			);
		},
	);

	it('keeps the option names of the public interface', () => {
		const options = (resource: string, operation: string, name: string) =>
			optionNames(property(resource, operation, name));
		expect(options('lead', 'getMany', 'filters')).toEqual(['archived', 'search', 'stageId']);
		expect(options('user', 'getMany', 'filters')).toEqual(['active', 'search']);
		const leadFields =
			'email mobile secondaryMobile title value sourceId stageId website customFields';
		expect(options('lead', 'create', 'additionalFields')).toEqual(
			expect.arrayContaining(leadFields.split(' ')),
		);
		expect(options('lead', 'upsert', 'additionalFields')).toEqual(
			options('lead', 'create', 'additionalFields').filter((name) => name !== 'email'),
		);
		const dealFields =
			'title price stageId status priority sourceId expectedCloseDate customFields otherFields';
		expect(options('deal', 'update', 'updateFields')).toEqual(
			expect.arrayContaining(dealFields.split(' ')),
		);
		const invoiceFields =
			'isInclusiveTax status contactId subject notes salesPersonId templateId tags customFields';
		expect(options('invoice', 'create', 'additionalFields')).toEqual(
			expect.arrayContaining(invoiceFields.split(' ')),
		);
	});

	it('makes lead and user IDs resource locators with a list search and an ID mode', () => {
		const leadId = property('lead', 'get', 'leadId');
		expect(leadId.type).toBe('resourceLocator');
		expect(leadId.modes!.map((mode) => mode.name)).toEqual(['list', 'id']);
		expect(leadId.modes![0].typeOptions).toEqual({
			searchListMethod: 'searchLeads',
			searchable: true,
		});

		expect(optionOf('deal', 'create', 'additionalFields', 'leadId').type).toBe('resourceLocator');
		const salesPerson = optionOf('invoice', 'create', 'additionalFields', 'salesPersonId');
		expect(salesPerson.type).toBe('resourceLocator');
		expect(salesPerson.modes![0].typeOptions).toEqual({
			searchListMethod: 'searchUsers',
			searchable: true,
		});
		expect(Object.keys(new CrmInvoicing().methods.listSearch).sort()).toEqual([
			'searchLeads',
			'searchUsers',
		]);
	});

	it.each([
		'lead getMany',
		'user getMany',
		'contact getMany',
		'webhook getMany',
		'customApiRequest request',
	])('%s: Limit from 1 without a maximum, default 50, shown only without Return All', (shown) => {
		const [resource, operation] = shown.split(' ');
		const limit = property(resource, operation, 'limit');
		expect(limit).toMatchObject({ type: 'number', default: 50, typeOptions: { minValue: 1 } });
		expect(limit.typeOptions).not.toHaveProperty('maxValue');
		expect(limit.displayOptions?.show?.returnAll).toEqual([false]);
	});

	it('sorts every options list and collection alphabetically and describes every field for AI agents', () => {
		const problems: string[] = [];
		const visit = (list: INodeProperties[], where: string) => {
			for (const item of list) {
				const at = `${where}/${item.name}`;
				if (item.type === 'options' || item.type === 'multiOptions') {
					// A list the node loads (Output's "Fields") has no options here.
					const names = ((item.options ?? []) as INodePropertyOptions[]).map(
						(option) => option.name,
					);
					if (item.name !== 'operation' && !isSorted(names))
						problems.push(`${at}: options not sorted: ${names.join(', ')}`);
				}
				if (item.type === 'collection') {
					const names = (item.options as INodeProperties[]).map((option) => option.displayName);
					if (!isSorted(names)) problems.push(`${at}: collection not sorted: ${names.join(', ')}`);
					visit(item.options as INodeProperties[], at);
				}
				// Invoice line items follow the order a user fills them in (issue 18; test/unit/output/lineItems.test.ts).
				const inOrderOfUse = ['customFields', 'queryParameters', 'lineItems'].includes(item.name);
				if (item.type === 'fixedCollection' && !inOrderOfUse) {
					for (const group of item.options as INodePropertyCollection[]) {
						const names = group.values.map((value) => value.displayName);
						if (!isSorted(names)) problems.push(`${at}: values not sorted: ${names.join(', ')}`);
					}
				}
				const describedElsewhere =
					['notice', 'collection', 'fixedCollection'].includes(item.type) ||
					['operation', 'resource', 'key', 'value', 'name'].includes(item.name);
				if (!describedElsewhere && !item.description && !item.placeholder)
					problems.push(`${at}: no description`);
			}
		};
		visit(properties, '');
		expect(problems).toEqual([]);
	});
});

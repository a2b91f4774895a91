/** The node's public interface (names saved in users' workflows) and the UI conventions the linter cannot see. */
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { resources } from '../../../nodes/CrmInvoicing/actions/router';
import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { USER_SEARCH_QUERY_PARAMETER } from '../../../nodes/CrmInvoicing/shared/apiChoices';

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
			const operation = properties.find(
				(candidate) =>
					candidate.name === 'operation' &&
					candidate.displayOptions?.show?.resource?.includes(name),
			)!;
			const options = operation.options as INodePropertyOptions[];
			expect(options.map((option) => option.value).sort()).toEqual(operations);
			for (const option of options) {
				expect(option.action).toEqual(expect.any(String));
				expect(option.description).toEqual(expect.any(String));
				expect(typeof resources[name][option.value as string].execute).toBe('function');
			}
			expect(Object.keys(resources[name]).sort()).toEqual(operations);
		}
		// Saved lead workflows omit default values: lead/create stays the default.
		expect(
			properties.find(
				(candidate) =>
					candidate.name === 'operation' &&
					candidate.displayOptions?.show?.resource?.includes('lead'),
			)!.default,
		).toBe('create');
	});

	it('keeps the parameter names of the public interface', () => {
		const names = (resource: string, operation: string) =>
			shownFor(resource, operation).map((candidate) => candidate.name);
		expect(names('lead', 'create')).toEqual(['name', 'additionalFields']);
		// Version 3: Create and Update of leads and deals map their fields with the resource mapper ("columns").
		const v3 = (resource: string, operation: string) =>
			shownFor(resource, operation, 3).map((candidate) => candidate.name);
		expect(v3('lead', 'create')).toEqual(['columns', 'additionalFields']);
		expect(v3('lead', 'update')).toEqual(['leadId', 'columns', 'additionalFields']);
		expect(v3('deal', 'create')).toEqual(['columns', 'additionalFields']);
		expect(v3('deal', 'update')).toEqual(['dealId', 'columns', 'additionalFields']);
		expect(v3('lead', 'upsert')).toEqual(names('lead', 'upsert'));
		expect(names('lead', 'update')).toEqual(['leadId', 'updateFields']);
		expect(names('lead', 'upsert')).toEqual([
			'upsertNotice',
			'email',
			'name',
			'additionalFields',
			'options',
		]);
		expect(names('lead', 'get')).toEqual(['leadId', 'simplify']);
		expect(names('lead', 'getMany')).toEqual(['returnAll', 'limit', 'simplify', 'filters']);
		// Version 4 (issue 43): Output instead of Simplify, and Lead → Get Many's Custom Field Filter; version 3 keeps its
		// parameters.
		expect(v3('lead', 'getMany')).toEqual(names('lead', 'getMany'));
		expect(shownFor('lead', 'getMany', 4).map((candidate) => candidate.name)).toEqual([
			'returnAll',
			'limit',
			'output',
			'fields',
			'filters',
			'customFieldFilter',
		]);
		expect(names('deal', 'create')).toEqual([
			'title',
			'pipelineId',
			'stageId',
			'clientId',
			'additionalFields',
		]);
		expect(names('deal', 'update')).toEqual(['dealId', 'updateFields']);
		expect(names('deal', 'moveToStage')).toEqual(['dealId', 'stageId']);
		expect(names('invoice', 'create')).toEqual([
			'clientId',
			'date',
			'dueDate',
			'lineItemsSource',
			'lineItems',
			'lineItemsJson',
			'additionalFields',
		]);
		expect(names('client', 'get')).toEqual(['clientId', 'simplify']);
		expect(names('product', 'get')).toEqual(['productId', 'simplify']);
		expect(names('user', 'getMany')).toEqual(['returnAll', 'limit', 'simplify', 'filters']);
		expect(names('contact', 'getMany')).toEqual(['returnAll', 'limit', 'simplify', 'filters']);
		// Version 4: Output (and the fields it selects) instead of Simplify on Get and Get Many.
		const v4 = (resource: string, operation: string) =>
			shownFor(resource, operation, 4).map((candidate) => candidate.name);
		expect(v4('lead', 'get')).toEqual(['leadId', 'output', 'fields']);
		expect(v4('client', 'get')).toEqual(['clientId', 'output', 'fields']);
		expect(v4('user', 'getMany')).toEqual(['returnAll', 'limit', 'output', 'fields', 'filters']);
		expect(v3('lead', 'getMany')).toEqual(names('lead', 'getMany'));
		expect(names('webhook', 'get')).toEqual(['webhookId']);
		expect(names('webhook', 'getMany')).toEqual(['returnAll', 'limit']);
		expect(names('webhook', 'delete')).toEqual(['webhookId']);
		expect(names('webhook', 'create')).toEqual([
			'secretNotice',
			'name',
			'url',
			'events',
			'customEvents',
		]);

		expect(optionNames(property('lead', 'getMany', 'filters'))).toEqual([
			'archived',
			'search',
			'stageId',
		]);
		expect(optionNames(property('user', 'getMany', 'filters'))).toEqual(['active', 'search']);
		expect(optionNames(property('lead', 'create', 'additionalFields'))).toEqual(
			expect.arrayContaining([
				'email',
				'mobile',
				'secondaryMobile',
				'title',
				'value',
				'sourceId',
				'stageId',
				'website',
				'customFields',
			]),
		);
		expect(optionNames(property('lead', 'upsert', 'additionalFields'))).toEqual(
			optionNames(property('lead', 'create', 'additionalFields')).filter(
				(name) => name !== 'email',
			),
		);
		expect(optionNames(property('deal', 'update', 'updateFields'))).toEqual(
			expect.arrayContaining([
				'title',
				'price',
				'stageId',
				'status',
				'priority',
				'sourceId',
				'expectedCloseDate',
				'customFields',
				'otherFields',
			]),
		);
		expect(optionNames(property('invoice', 'create', 'additionalFields'))).toEqual(
			expect.arrayContaining([
				'isInclusiveTax',
				'status',
				'contactId',
				'subject',
				'notes',
				'salesPersonId',
				'templateId',
				'tags',
				'customFields',
			]),
		);

		const lineItems = property('invoice', 'create', 'lineItems');
		const group = (lineItems.options as INodePropertyCollection[])[0];
		expect(group.name).toBe('items');
		expect(group.values.map((value) => value.name).sort()).toEqual(
			[
				'name',
				'productId',
				'quantity',
				'price',
				'description',
				'taxRateId',
				'discount',
				'discountType',
				'buyPrice',
			].sort(),
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

		const dealLead = (
			property('deal', 'create', 'additionalFields').options as INodeProperties[]
		).find((option) => option.name === 'leadId')!;
		expect(dealLead.type).toBe('resourceLocator');

		const salesPerson = (
			property('invoice', 'create', 'additionalFields').options as INodeProperties[]
		).find((option) => option.name === 'salesPersonId')!;
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

	it('has Limit from 1 without a maximum, default 50, shown only without Return All', () => {
		for (const [resource, operation] of [
			['lead', 'getMany'],
			['user', 'getMany'],
			['contact', 'getMany'],
			['webhook', 'getMany'],
			['customApiRequest', 'request'],
		]) {
			const limit = property(resource, operation, 'limit');
			expect(limit).toMatchObject({ type: 'number', default: 50, typeOptions: { minValue: 1 } });
			expect(limit.typeOptions).not.toHaveProperty('maxValue');
			expect(limit.displayOptions?.show?.returnAll).toEqual([false]);
		}
	});

	it('names the user search query parameter in the search field', () => {
		const search = (property('user', 'getMany', 'filters').options as INodeProperties[]).find(
			(option) => option.name === 'search',
		)!;
		expect(search.description).toContain(`"${USER_SEARCH_QUERY_PARAMETER}"`);
		expect(search.hint).toContain(`"${USER_SEARCH_QUERY_PARAMETER}"`);
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
				if (item.type === 'fixedCollection') {
					for (const group of item.options as INodePropertyCollection[]) {
						const names = group.values.map((value) => value.displayName);
						// Invoice line items follow the order a user fills them in (issue 18; test/unit/output/lineItems.test.ts).
						if (
							!isSorted(names) &&
							!['customFields', 'queryParameters', 'lineItems'].includes(item.name)
						) {
							problems.push(`${at}: values not sorted: ${names.join(', ')}`);
						}
					}
				}
				const needsDescription =
					!['notice', 'collection', 'fixedCollection'].includes(item.type) &&
					!['operation', 'resource'].includes(item.name);
				if (
					needsDescription &&
					!item.description &&
					!['key', 'value', 'name'].includes(item.name) &&
					!item.placeholder
				) {
					problems.push(`${at}: no description`);
				}
			}
		};
		visit(properties, '');
		expect(problems).toEqual([]);
	});

	it('names what the field mapper maps "field" and "fields", not n8n\'s default "column"', () => {
		const mappers = properties.filter((candidate) => candidate.type === 'resourceMapper');
		// Lead and Deal, Create and Update.
		expect(mappers).toHaveLength(4);
		for (const mapper of mappers)
			expect(mapper.typeOptions?.resourceMapper?.fieldWords).toEqual({
				singular: 'field',
				plural: 'fields',
			});
	});
});

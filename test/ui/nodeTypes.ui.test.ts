/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * What n8n's editor loads about the action node and its AI tool (`/types/nodes.json`, which a lean n8n without its
 * editor does not serve: the end-to-end suites start one, scripts/lib/runtime.ts, leanEnv).
 */
import type { INodeTypeDescription } from 'n8n-workflow';

import { ACTION_NODE_TYPE } from '../e2e/lib';
import { client, env } from './lib';

async function nodeTypes(): Promise<INodeTypeDescription[]> {
	const cookie = await client.login();
	const response = await fetch(`${env.n8nUrl}/types/nodes.json`, { headers: { cookie } });
	expect(response.status).toBe(200);
	return (await response.json()) as INodeTypeDescription[];
}

describe(`the editor's node types in real n8n ${env.n8nVersion}`, () => {
	it("the node as an AI Agent tool (n8n's generated crmInvoicingTool) is the node's newest version, 4, with Output Simplified by default (Simplify in 2 and 3)", async () => {
		const tool = (await nodeTypes()).find((type) => type.name === `${ACTION_NODE_TYPE}Tool`);
		expect(tool).toBeDefined();
		expect(tool?.defaultVersion).toBe(4);
		const properties = tool?.properties ?? [];
		const defaults = (name: string) =>
			properties.filter((property) => property.name === name).map((property) => property.default);
		expect(defaults('simplify')).toEqual(Array(6).fill(true));
		expect(defaults('output')).toEqual(Array(6).fill('simple'));
	});

	it("gets the filter from version 4 on, in the node and its AI tool, and the mapper's fieldWords are field and fields", async () => {
		const types = await nodeTypes();
		for (const name of [ACTION_NODE_TYPE, `${ACTION_NODE_TYPE}Tool`]) {
			const properties = types.find((candidate) => candidate.name === name)?.properties ?? [];
			const filter = properties.find((property) => property.name === 'customFieldFilter');
			expect(filter?.displayOptions?.show).toMatchObject({
				resource: ['lead'],
				operation: ['getMany'],
				'@version': [{ _cnd: { gte: 4 } }],
			});
			const mappers = properties.filter((property) => property.type === 'resourceMapper');
			expect(mappers).toHaveLength(4);
			for (const mapper of mappers)
				expect(mapper.typeOptions?.resourceMapper?.fieldWords).toEqual({
					singular: 'field',
					plural: 'fields',
				});
		}
	});
});

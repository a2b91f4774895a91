/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { EXAMPLE_IDS, seedSummaryLines } from './seedSummary';
import { createStore } from './store';

const EXAMPLES = path.join(__dirname, '..', '..', 'examples');

describe('the seeded ids the sandbox prints', () => {
	const store = createStore();

	it('are the ones the sandbox holds, on every start', () => {
		expect(store.clients.get(EXAMPLE_IDS.clientId)?.name).toBe('Acme Corporation');
		expect(store.products.get(EXAMPLE_IDS.productId)?.name).toBe('Consulting hour');
		expect(store.pipelines.get(EXAMPLE_IDS.pipelineId)?.stages.map((stage) => stage.id)).toContain(
			EXAMPLE_IDS.stageId,
		);
		expect(
			createStore()
				.clients.values()
				.map((client) => client.id),
		).toEqual(store.clients.values().map((client) => client.id));
	});

	it('lists every seeded client, product, pipeline stage and tax rate', () => {
		const text = seedSummaryLines(store).join('\n');
		for (const client of store.clients.values())
			expect(text).toContain(`${client.id} (${client.name})`);
		for (const product of store.products.values()) expect(text).toContain(product.id);
		expect(text).toContain('pip_sales (Sales), stages stg_new (New)');
		expect(text).toContain('tax_vat20 (VAT 20%)');
	});

	it('are what the example workflows use by default: every cli_/prd_/pip_/stg_ id in them exists in the sandbox', () => {
		const files = readdirSync(EXAMPLES).filter((file) => file.endsWith('.json'));
		expect(files.length).toBeGreaterThan(0);
		let checked = 0;
		for (const file of files) {
			const text = readFileSync(path.join(EXAMPLES, file), 'utf8');
			expect(text).not.toMatch(/REPLACE_WITH_YOUR_(CLIENT|PIPELINE|STAGE|PRODUCT)/);
			for (const [id] of text.matchAll(/\b(?:cli|prd|pip|stg)_[A-Za-z0-9_]+/g)) {
				const known =
					store.clients.has(id) ||
					store.products.has(id) ||
					store.pipelines.has(id) ||
					[...store.pipelines.values()].some((pipeline) =>
						pipeline.stages.some((stage) => stage.id === id),
					);
				expect({ file, id, known }).toEqual({ file, id, known: true });
				checked++;
			}
		}
		expect(checked).toBeGreaterThanOrEqual(3);
	});
});

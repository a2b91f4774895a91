/** The seeded ids (the same on every start) that the API cannot list, as `npm run sandbox` and `npm run dev` print them. */
import type { Store } from './store';

/** The ids the example workflows use, seeded by the sandbox on every start (see seedSummaryLines). */
export const EXAMPLE_IDS = {
	/** "Acme Corporation", the first seeded client. */
	clientId: 'cli_c98c6bc22dc8b8de',
	/** "Consulting hour", the first seeded product. */
	productId: 'prd_4e9169c6ab5a8135',
	pipelineId: 'pip_sales',
	stageId: 'stg_new',
} as const;

export function seedSummaryLines(state: Store, indent = '  '): string[] {
	const lines: string[] = [];
	lines.push(
		`${indent}Clients:   ${state.clients
			.values()
			.map((client) => `${client.id} (${client.name})`)
			.join(' · ')}`,
	);
	lines.push(
		`${indent}Products:  ${state.products
			.values()
			.map((product) => `${product.id} (${product.name}${product.isActive ? '' : ', inactive'})`)
			.join(' · ')}`,
	);
	for (const pipeline of state.pipelines.values()) {
		lines.push(
			`${indent}Pipeline:  ${pipeline.id} (${pipeline.name}), stages ${pipeline.stages.map((stage) => `${stage.id} (${stage.name})`).join(' · ')}`,
		);
	}
	lines.push(
		`${indent}Tax rates: ${[...state.taxRates.values()].map((rate) => `${rate.id} (${rate.name})`).join(' · ')}`,
	);
	return lines;
}

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Points the spec leaves open, where real n8n adds to them: the workflow's own time zone (its saved settings) read by a
 * Deal's date alone and date without zone, and examples/archive-stale-leads.json stopping at the first lead the
 * 'alternate' API does not archive. Each zone and both readings: test/unit/actions/ (inputs, specSilences.test.ts).
 */
import { randomUUID } from 'node:crypto';

import { seededId } from '../sandbox/store';
import {
	configureExample,
	e2eEnv,
	loadExample,
	nodeError,
	nodeOutput,
	replaceByWebhook,
	runAction,
	sandbox,
	waitForExecutions,
	withActiveWorkflow,
} from './lib';

const env = e2eEnv();
const crm = sandbox(env);

const ACME = seededId('cli_', 'client:1');
const JOHN_SMITH = seededId('lead_', 'seed-lead:1');
const MARIA_GARCIA = seededId('lead_', 'seed-lead:2');
const OLD_PROSPECT = seededId('lead_', 'seed-lead:3');

function expectSucceeded(run: { status: number; execution: any }): void {
	expect({ status: run.execution.status, error: nodeError(run.execution)?.message }).toEqual({
		status: 'success',
		error: undefined,
	});
}

describe(`the workflow's time zone, in real n8n ${env.n8nVersion}`, () => {
	beforeAll(async () => {
		await crm.reset();
	});

	it('Deal Create and Update: a date alone keeps its date in Europe/Berlin; numeric IDs are sent as strings', async () => {
		const created = await runAction(
			{
				workflowSettings: { timezone: 'Europe/Berlin' },
				parameters: {
					resource: 'deal',
					operation: 'create',
					title: 'Dated deal',
					pipelineId: '={{ $json.body.pipeline }}',
					stageId: 'stg_new',
					clientId: ACME,
					additionalFields: {
						expectedCloseDate: '2026-12-01',
						sourceId: '={{ $json.body.source }}',
					},
				},
			},
			{ pipeline: 12, source: 34 },
		);
		expectSucceeded(created);
		const deal = created.items[0];
		expect(deal).toMatchObject({
			pipelineId: '12',
			sourceId: '34',
			expectedCloseDate: '2026-12-01T00:00:00.000Z',
		});

		const updated = await runAction({
			workflowSettings: { timezone: 'Europe/Berlin' },
			parameters: {
				resource: 'deal',
				operation: 'update',
				dealId: deal.id,
				updateFields: { expectedCloseDate: '2027-01-15T09:00:00' },
			},
		});
		expectSucceeded(updated);
		// A value with a time is read in the workflow's time zone (UTC+1 in January).
		expect(updated.items[0]).toMatchObject({
			id: deal.id,
			expectedCloseDate: '2027-01-15T08:00:00.000Z',
		});
	});
});

describe('examples/archive-stale-leads.json against the alternate sandbox', () => {
	beforeAll(async () => {
		await crm.reset();
		await crm.personality('alternate');
	});

	afterAll(async () => {
		await crm.personality('standard');
		await crm.reset();
	});

	it('fails clearly at the first lead instead of "archiving" the same leads every morning', async () => {
		const workflow = configureExample(loadExample('archive-stale-leads.json'), {});
		const webhookPath = `e2e-stale-alt-${randomUUID()}`;
		replaceByWebhook(workflow, 'Every Morning', webhookPath);

		await withActiveWorkflow(workflow, async (workflowId) => {
			await crm.clearRequests();
			await fetch(`${env.webhookUrl ?? env.n8nUrl}/webhook/${webhookPath}`, { method: 'POST' });
			const [execution] = await waitForExecutions(workflowId, 1, env, 60_000);
			expect(execution.status).toBe('error');
			expect(nodeError(execution, 'Archive Lead')?.message).toBe(
				`The API did not archive lead ${JOHN_SMITH}: it still answers archived=false`,
			);
			expect(nodeOutput(execution, 'Get Active Leads').map((lead) => lead.id)).toEqual([
				JOHN_SMITH,
				MARIA_GARCIA,
			]);
		});
		const patches = (await crm.requests()).filter((request) => request.method === 'PATCH');
		expect(patches.map((request) => [request.path, request.status])).toEqual([
			[`/api/v1/leads/${JOHN_SMITH}`, 204],
		]);
		for (const id of [JOHN_SMITH, MARIA_GARCIA])
			expect((await crm.api('GET', `/leads/${id}`)).archived).toBe(false);
		expect((await crm.api('GET', `/leads/${OLD_PROSPECT}`)).archived).toBe(true);
	});
});

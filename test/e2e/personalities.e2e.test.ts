/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * The operations that touch a point the spec leaves open ("not shown"), run in the real n8n against both sandbox
 * personalities: 'standard' (our reading) and 'alternate' (the other plausible one). Under each, an operation either
 * works or fails with an error that names the point; none reports a success that did not happen.
 * Each describe block switches the sandbox and restores 'standard' afterwards.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { seededId } from '../sandbox/store';
import type { SandboxPersonality } from '../sandbox/types';
import { webhookNode } from '../../scripts/lib/n8n';
import {
	e2eEnv,
	nodeError,
	nodeOutput,
	runAction,
	sandbox,
	waitForExecutions,
	withActiveWorkflow,
	type SandboxRequest,
} from './lib';

const env = e2eEnv();
const crm = sandbox(env);

const ACME = seededId('cli_', 'client:1');
const CONSULTING_HOUR = seededId('prd_', 'product:1');
const JOHN_SMITH = seededId('lead_', 'seed-lead:1');
const MARIA_GARCIA = seededId('lead_', 'seed-lead:2');
const OLD_PROSPECT = seededId('lead_', 'seed-lead:3');

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

async function calls(): Promise<string[]> {
	const requests: SandboxRequest[] = (await crm.requests()).filter((request) =>
		request.path.startsWith('/api/'),
	);
	return requests.map((request) => `${request.method} ${request.path} ${request.status}`);
}

function expectSucceeded(run: { status: number; execution: any }): void {
	expect({ status: run.execution.status, error: nodeError(run.execution)?.message }).toEqual({
		status: 'success',
		error: undefined,
	});
}

function expectFailed(run: { execution: any }, message: string | RegExp): void {
	expect(run.execution.status).toBe('error');
	const error = nodeError(run.execution);
	if (typeof message === 'string') expect(error?.message).toBe(message);
	else expect(error?.message).toMatch(message);
}

describe.each<SandboxPersonality>(['standard', 'alternate'])(
	`Points the spec leaves open, in real n8n ${env.n8nVersion}: %s sandbox`,
	(personality) => {
		const alternate = personality === 'alternate';

		beforeAll(async () => {
			await crm.reset();
			await crm.personality(personality);
		});

		afterAll(async () => {
			await crm.personality('standard');
			await crm.reset();
		});

		beforeEach(async () => {
			await crm.clearRequests();
		});

		describe('Lead Archive / Unarchive / Update (PATCH answer, `archived` and customFields in a PATCH)', () => {
			it(
				alternate
					? 'Archive fails, naming the lead and archived=false; nothing is archived'
					: 'Archive archives',
				async () => {
					const lead = await crm.api('POST', '/leads', { name: `Archive ${personality}` });
					await crm.clearRequests();
					const run = await runAction({
						parameters: { resource: 'lead', operation: 'archive', leadId: byId(lead.id) },
					});
					if (alternate) {
						expectFailed(
							run,
							`The API did not archive lead ${lead.id}: it still answers archived=false`,
						);
						expect(nodeError(run.execution)?.description).toMatch(/not among the fields PATCH/);
						expect(await calls()).toEqual([
							`PATCH /api/v1/leads/${lead.id} 204`,
							`GET /api/v1/leads/${lead.id} 200`,
						]);
						expect((await crm.api('GET', `/leads/${lead.id}`)).archived).toBe(false);
					} else {
						expectSucceeded(run);
						expect(run.items).toEqual([expect.objectContaining({ id: lead.id, archived: true })]);
						expect(await calls()).toEqual([`PATCH /api/v1/leads/${lead.id} 200`]);
						expect((await crm.api('GET', `/leads/${lead.id}`)).archived).toBe(true);
					}
				},
			);

			it(
				alternate
					? 'Unarchive fails with archived=true; the lead stays archived'
					: 'Unarchive unarchives',
				async () => {
					const lead = await crm.api('POST', '/leads', {
						name: `Unarchive ${personality}`,
						archived: true,
					});
					await crm.clearRequests();
					const run = await runAction({
						parameters: { resource: 'lead', operation: 'unarchive', leadId: byId(lead.id) },
					});
					if (alternate) {
						expectFailed(
							run,
							`The API did not unarchive lead ${lead.id}: it still answers archived=true`,
						);
						expect((await crm.api('GET', `/leads/${lead.id}`)).archived).toBe(true);
					} else {
						expectSucceeded(run);
						expect(run.items).toEqual([expect.objectContaining({ id: lead.id, archived: false })]);
					}
				},
			);

			it('Update outputs the updated lead (read back after a 204)', async () => {
				const lead = await crm.api('POST', '/leads', { name: `Update ${personality}` });
				await crm.clearRequests();
				const run = await runAction({
					parameters: {
						resource: 'lead',
						operation: 'update',
						leadId: byId(lead.id),
						updateFields: { title: 'CTO' },
					},
				});
				expectSucceeded(run);
				expect(run.items).toEqual([
					expect.objectContaining({ id: lead.id, title: 'CTO', name: `Update ${personality}` }),
				]);
				expect(await calls()).toEqual(
					alternate
						? [`PATCH /api/v1/leads/${lead.id} 204`, `GET /api/v1/leads/${lead.id} 200`]
						: [`PATCH /api/v1/leads/${lead.id} 200`],
				);
			});

			it(
				alternate
					? 'Update of custom fields the API ignores fails, naming them'
					: 'Update of custom fields applies them',
				async () => {
					const lead = await crm.api('POST', '/leads', { name: `Custom ${personality}` });
					const run = await runAction({
						parameters: {
							resource: 'lead',
							operation: 'update',
							leadId: byId(lead.id),
							updateFields: { customFields: { field: [{ key: 'tier', value: 'gold' }] } },
						},
					});
					if (alternate) {
						expectFailed(
							run,
							`The API did not update the custom fields tier of lead ${lead.id}: it answers customFields=null`,
						);
					} else {
						expectSucceeded(run);
						expect(run.items[0].customFields).toEqual({ tier: 'gold' });
					}
				},
			);
		});

		describe('Invoice Create (line items, date-only values, numeric IDs)', () => {
			it('a product and a quantity alone make a line; a date alone keeps its date in Pacific/Auckland', async () => {
				const run = await runAction({
					workflowSettings: { timezone: 'Pacific/Auckland' },
					parameters: {
						resource: 'invoice',
						operation: 'create',
						clientId: ACME,
						date: '2026-12-01',
						dueDate: '={{ "2026-12-31" }}',
						lineItems: {
							items: [
								{
									name: '',
									productId: CONSULTING_HOUR,
									quantity: 3,
									price: 0,
									description: '',
									taxRateId: '',
									discount: 0,
									discountType: '',
									buyPrice: 0,
								},
								{
									name: 'Travel',
									productId: '',
									quantity: 1,
									price: 80,
									description: '',
									taxRateId: '',
									discount: 0,
									discountType: '',
									buyPrice: 0,
								},
							],
						},
						additionalFields: {},
					},
				});
				expectSucceeded(run);
				const [post] = (await crm.requests()).filter(
					(request) => request.method === 'POST' && request.path === '/api/v1/invoices',
				);
				expect(post.body).toMatchObject({
					date: '2026-12-01T00:00:00.000Z',
					dueDate: '2026-12-31T00:00:00.000Z',
					lineItems: [
						{ productId: CONSULTING_HOUR, quantity: 3 },
						{ name: 'Travel', quantity: 1, price: 80 },
					],
				});
				const invoice = run.items[0];
				expect(invoice.date).toBe('2026-12-01T00:00:00.000Z');
				// The product's own price was used for the first line.
				const product = await crm.api('GET', `/products/${CONSULTING_HOUR}`);
				expect(invoice.lineItems[0]).toMatchObject({
					name: product.name,
					quantity: 3,
					price: product.price,
				});
			});

			it('line items copied from an invoice response: without a product they are valid; a numeric productId is refused', async () => {
				const first = await crm.api('POST', '/invoices', {
					clientId: ACME,
					date: '2026-12-01T00:00:00Z',
					dueDate: '2026-12-31T00:00:00Z',
					lineItems: [
						{ name: 'Hours', quantity: 2, price: 100 },
						{ productId: CONSULTING_HOUR, quantity: 1 },
					],
				});
				const parameters = {
					resource: 'invoice',
					operation: 'create',
					clientId: '={{ $json.body.clientId }}',
					date: '2026-12-01',
					dueDate: '2026-12-31',
					lineItemsSource: 'json',
					lineItemsJson: '={{ $json.body.lineItems }}',
					additionalFields: {},
				};
				const copied = await runAction(
					{ parameters },
					{
						clientId: ACME,
						lineItems: first.lineItems.filter((line: any) => line.productId === null),
					},
				);
				expectSucceeded(copied);
				expect(copied.items[0].lineItems).toEqual([
					expect.objectContaining({ name: 'Hours', quantity: 2, price: 100, amount: 200 }),
				]);

				await crm.clearRequests();
				const refused = await runAction(
					{ parameters },
					{ clientId: ACME, lineItems: first.lineItems },
				);
				expectFailed(
					refused,
					/^Line item 2 of item 0: "productId" is the number \d+, not a product's public ID$/,
				);
				expect(nodeError(refused.execution)?.description).toMatch(/Use the product's public ID/);
				expect(await calls()).toEqual([]);
			});
		});

		it('ID fields take numbers from expressions and send them as strings (Lead Create)', async () => {
			const run = await runAction(
				{
					parameters: {
						resource: 'lead',
						operation: 'create',
						name: 'Numeric ids',
						additionalFields: {
							sourceId: '={{ $json.body.source }}',
							stageId: '={{ $json.body.stage }}',
						},
					},
				},
				{ source: 42, stage: 7 },
			);
			expectSucceeded(run);
			const [post] = (await crm.requests()).filter((request) => request.method === 'POST');
			expect(post.body).toEqual({ name: 'Numeric ids', sourceId: '42', stageId: '7' });
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

		describe('Webhook Subscription Delete (404 on a retry) and Create (event names)', () => {
			it('a 502 whose DELETE went through, then 404 on the retry → deleted', async () => {
				const subscription = await crm.api('POST', '/webhooks', {
					name: 'gone',
					url: 'https://example.com/hook',
					events: ['lead.created'],
				});
				// The first attempt deleted it but its answer was lost: the API deletes it, then the node's first attempt gets a 502.
				await crm.api('DELETE', `/webhooks/${subscription.id}`);
				await crm.fault({
					method: 'DELETE',
					pathPrefix: '/api/v1/webhooks/',
					status: 502,
					count: 1,
				});
				await crm.clearRequests();
				const run = await runAction({
					parameters: { resource: 'webhook', operation: 'delete', webhookId: subscription.id },
				});
				expectSucceeded(run);
				expect(run.items).toEqual([{ deleted: true, id: subscription.id }]);
				expect(await calls()).toEqual([
					`DELETE /api/v1/webhooks/${subscription.id} 502`,
					`DELETE /api/v1/webhooks/${subscription.id} 404`,
				]);
			});

			it("Get Many reads the list in this personality's shape, without secrets", async () => {
				await crm.reset();
				for (const name of ['one', 'two', 'three'])
					await crm.api('POST', '/webhooks', {
						name,
						url: 'https://example.com/hook',
						events: ['lead.created'],
					});
				await crm.clearRequests();
				const all = await runAction({
					parameters: { resource: 'webhook', operation: 'getMany', returnAll: true },
				});
				expectSucceeded(all);
				expect(all.items.map((hook: any) => hook.name)).toEqual(['one', 'two', 'three']);
				for (const hook of all.items)
					expect(Object.keys(hook).filter((key) => /secret/i.test(key))).toEqual([]);
				const two = await runAction({
					parameters: { resource: 'webhook', operation: 'getMany', returnAll: false, limit: 2 },
				});
				expectSucceeded(two);
				expect(two.items.map((hook: any) => hook.name)).toEqual(['one', 'two']);
			});

			it('a 404 on the first attempt is an error with the API message', async () => {
				const run = await runAction({
					parameters: { resource: 'webhook', operation: 'delete', webhookId: 'whk_never_existed' },
				});
				expectFailed(
					run,
					`The CRM API answered 404${alternate ? '' : ' NOT_FOUND'}: Webhook whk_never_existed was not found`,
				);
				expect(await calls()).toEqual(['DELETE /api/v1/webhooks/whk_never_existed 404']);
			});

			it(
				alternate
					? 'Create with an event the API does not know fails with the 400 text'
					: 'Create with an assumed event name works',
				async () => {
					const run = await runAction({
						parameters: {
							resource: 'webhook',
							operation: 'create',
							name: `events ${personality}`,
							url: 'https://example.com/hook',
							events: ['invoice.paid'],
						},
					});
					if (alternate) {
						expectFailed(run, /400.*invoice\.paid/);
						expect(
							(await crm.webhooks()).filter((hook) => hook.name === `events ${personality}`),
						).toEqual([]);
					} else {
						expectSucceeded(run);
						expect(run.items[0]).toMatchObject({ events: ['invoice.paid'] });
					}
				},
			);
		});

		describe('Error bodies (400 and 404)', () => {
			it('a refused value gives the API message', async () => {
				const run = await runAction({
					parameters: {
						resource: 'lead',
						operation: 'create',
						name: 'Bad email',
						additionalFields: { email: 'not-an-email' },
					},
				});
				expectFailed(
					run,
					`The CRM API answered 400${alternate ? '' : ' VALIDATION_ERROR'}: email must be a valid email address`,
				);
				expect(nodeError(run.execution)?.description).toMatch(
					/email must be a valid email address/,
				);
			});

			it('an unknown ID gives the API message', async () => {
				const run = await runAction({
					parameters: { resource: 'lead', operation: 'get', leadId: byId('lead_missing') },
				});
				expectFailed(
					run,
					`The CRM API answered 404${alternate ? '' : ' NOT_FOUND'}: Lead lead_missing was not found`,
				);
			});
		});

		it('User Get Many with a search returns only the matching users', async () => {
			const run = await runAction({
				parameters: {
					resource: 'user',
					operation: 'getMany',
					returnAll: true,
					filters: { search: 'rita' },
				},
			});
			expectSucceeded(run);
			expect(run.items.map((user: any) => user.email)).toEqual(['rita.reader@example.com']);
		});
	},
);

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
		const example = JSON.parse(
			readFileSync(
				path.join(__dirname, '..', '..', 'examples', 'archive-stale-leads.json'),
				'utf8',
			),
		);
		for (const node of example.nodes) {
			if (node.credentials?.crmInvoicingApi)
				node.credentials.crmInvoicingApi = {
					id: env.credentials.admin.id,
					name: env.credentials.admin.name,
				};
		}
		// As in examples.e2e.test.ts: the Schedule Trigger becomes a Webhook trigger of the same name.
		const index = example.nodes.findIndex((node: any) => node.name === 'Every Morning');
		const webhookPath = `e2e-stale-alt-${randomUUID()}`;
		example.nodes[index] = webhookNode(webhookPath, {}, example.nodes[index]);
		const workflow = {
			name: 'Archive stale leads (alternate e2e)',
			nodes: example.nodes,
			connections: example.connections,
			settings: example.settings ?? {},
		};

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

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Each workflow in examples/, unedited, as a user brings it in: "Import from File" into a new workflow, then Execute
 * workflow against the sandbox (whose seeded ids the files carry). n8n drops the file's credential reference and binds
 * the CRM credential saved most recently ("Credentials auto-added"): the test saves a fresh one first.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { Page } from 'playwright-core';

import { ACTION_NODE_TYPE, PACKAGE, TRIGGER_NODE_TYPE } from '../e2e/lib';
import { EXAMPLE_IDS } from '../sandbox/seedSummary';
import {
	awaitSubscription,
	canvasNode,
	client,
	closeBrowser,
	crm,
	env,
	eventually,
	expectIcon,
	inEditor,
} from './lib';

afterAll(closeBrowser);

const EXAMPLES = path.join(__dirname, '..', '..', 'examples');
const FILES = readdirSync(EXAMPLES)
	.filter((file) => file.endsWith('.json'))
	.sort();

interface ExampleNode {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
}

let credential: { id: string; name: string };

beforeAll(async () => {
	credential = await client.createCredential('UI examples: sandbox admin key', {
		baseUrl: env.sandboxUrl,
		apiKey: env.sandboxKeys.admin,
	});
});

/** Imports the file into a new workflow; returns the saved workflow's id once n8n has given it one. */
async function importExample(page: Page, file: string, nodes: ExampleNode[]): Promise<void> {
	await page.goto(`${env.n8nUrl}/workflow/new`, { waitUntil: 'domcontentloaded' });
	await page.getByTestId('canvas-add-button').waitFor({ state: 'visible' });
	// What "⋯ → Import from File…" opens: the editor's file input.
	await page.getByTestId('workflow-import-input').setInputFiles(path.join(EXAMPLES, file));
	for (const node of nodes) await canvasNode(page, node.name).waitFor({ state: 'visible' });
}

/** A sticky note whose text is taller than the note is cut off at its bottom edge. */
async function clippedStickies(page: Page): Promise<string[]> {
	const stickies = page.locator('[data-node-name]').filter({ has: page.locator('.n8n-sticky') });
	expect(await stickies.count()).toBeGreaterThan(0);
	const clipped: string[] = [];
	for (let index = 0; index < (await stickies.count()); index++) {
		const sticky = stickies.nth(index);
		const overflow = await sticky
			.locator('.n8n-sticky > div')
			.first()
			.evaluate((element) => {
				const box = element as unknown as { scrollHeight: number; clientHeight: number };
				return box.scrollHeight - box.clientHeight;
			});
		if (overflow > 1)
			clipped.push(`${await sticky.getAttribute('data-node-name')} (${overflow}px hidden)`);
	}
	return clipped;
}

async function executeWorkflow(page: Page): Promise<void> {
	await page.getByTestId('execute-workflow-button').click();
}

async function savedWorkflowId(page: Page): Promise<string> {
	return await eventually(
		'the imported workflow to be saved',
		async () => /\/workflow\/([^/?#]+)/.exec(page.url())?.[1]?.replace(/^new$/, '') || undefined,
	);
}

/** A request the sandbox answered with 2xx for which `match` holds. */
async function answered(
	what: string,
	match: (request: Awaited<ReturnType<typeof crm.requests>>[number]) => boolean,
	timeoutMs = 60_000,
) {
	return await eventually(
		what,
		async () =>
			(await crm.requests()).find(
				(request) => request.status >= 200 && request.status < 300 && match(request),
			),
		timeoutMs,
	);
}

type Run = (page: Page) => Promise<void>;

/**
 * A trigger example: Execute workflow subscribes the test URL, a lead created in the CRM runs it, and its POST to
 * `endpoint` is answered; the test event ends the listening, which deletes the subscription.
 */
async function onLeadCreated(page: Page, lead: { name: string; value: number }, endpoint: string) {
	await executeWorkflow(page);
	await awaitSubscription('/webhook-test/', true);
	const created = await crm.api<{ id: string; name: string }>('POST', '/leads', lead);
	const posted = await answered(
		`the POST ${endpoint} for the new lead`,
		(request) => request.method === 'POST' && request.path === endpoint,
	);
	await awaitSubscription('/webhook-test/', false);
	return { lead: created, body: posted.body };
}

/** How each example is run, and what it must have done in the CRM. */
const RUNS: Record<string, Run> = {
	'new-leads-to-invoices.json': async (page) => {
		const lead = { name: 'UI Example Invoice Lead', value: 900 };
		const invoice = await onLeadCreated(page, lead, '/api/v1/invoices');
		expect(invoice.body).toMatchObject({ clientId: EXAMPLE_IDS.clientId });
		expect(JSON.stringify(invoice.body)).toContain(lead.name);
	},
	'lead-created-enrich-create-deal.json': async (page) => {
		const { lead, body } = await onLeadCreated(
			page,
			{ name: 'UI Example Deal Lead', value: 20_000 },
			'/api/v1/deals',
		);
		expect(body).toMatchObject({
			title: lead.name,
			pipelineId: EXAMPLE_IDS.pipelineId,
			stageId: EXAMPLE_IDS.stageId,
			clientId: EXAMPLE_IDS.clientId,
			leadId: lead.id,
		});
	},
	'archive-stale-leads.json': async (page) => {
		const archiving = (request: { method: string; path: string; body?: unknown }) =>
			request.method === 'PATCH' &&
			request.path.startsWith('/api/v1/leads/') &&
			JSON.stringify(request.body).includes('"archived":true');
		await executeWorkflow(page);
		await answered('a stale lead archived', archiving);
		// Put the seed data back for the other editor tests (the picker lists these leads).
		for (const request of (await crm.requests()).filter(archiving))
			await crm.api('PATCH', request.path.replace('/api/v1', ''), { archived: false });
	},
	'updated-lead-notify.json': async (page) => {
		// Execute workflow fetches a test event: the polling trigger reads the leads and hands the most recent on.
		await executeWorkflow(page);
		await answered(
			'the polling trigger reading the leads',
			(request) => request.method === 'GET' && request.path === '/api/v1/leads',
		);
		await page
			.getByText(/Workflow executed successfully/i)
			.first()
			.waitFor({ state: 'visible', timeout: 60_000 });
	},
	'web-form-to-lead-upsert.json': async (page) => {
		await executeWorkflow(page);
		const email = 'ui.example.form@example.com';
		// The Webhook node listens for one test call once Execute workflow has registered it.
		const reply = await eventually('the form webhook to answer', async () => {
			const response = await fetch(`${env.n8nUrl}/webhook-test/lead-capture`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ name: 'UI Example Form Lead', email }),
			});
			return response.status === 404
				? undefined
				: { status: response.status, body: await response.text() };
		});
		expect(reply.status === 200 ? reply.status : reply).toBe(200);
		expect(JSON.parse(reply.body)).toEqual({ received: true });
		await answered(
			'the lead from the form',
			(request) =>
				request.method === 'POST' &&
				request.path === '/api/v1/leads' &&
				JSON.stringify(request.body).includes(email),
		);
	},
};

describe('example workflows imported from file', () => {
	it('has a run for every example file', () => {
		expect(FILES.length).toBeGreaterThan(0);
		expect(Object.keys(RUNS).sort()).toEqual(FILES);
	});

	it.each(FILES)(
		'%s renders with icons, no clipped sticky note, binds a credential, and runs against the sandbox',
		async (file) => {
			const example = JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as {
				nodes: ExampleNode[];
			};
			const nodes = example.nodes.filter((node) => node.type !== 'n8n-nodes-base.stickyNote');
			const crmNodes = nodes.filter(
				(node) =>
					node.type === ACTION_NODE_TYPE ||
					node.type === TRIGGER_NODE_TYPE ||
					node.type === `${PACKAGE}.crmInvoicingPollingTrigger`,
			);
			await crm.clearRequests();
			await inEditor(`example-${file}`, async (page) => {
				await importExample(page, file, nodes);
				for (const node of crmNodes) await expectIcon(page, node.name);
				expect(await clippedStickies(page)).toEqual([]);
				// n8n tells the user it chose a credential for the CRM nodes.
				await page.getByText('Credentials auto-added').first().waitFor({ state: 'visible' });

				await RUNS[file](page);
				await expect(page.getByText('Problem running workflow').isVisible()).resolves.toBe(false);

				// What n8n saved: every CRM node bound to the credential saved last.
				const saved = await client.api<{
					nodes: Array<ExampleNode & { credentials?: Record<string, { id: string }> }>;
				}>('GET', `/workflows/${await savedWorkflowId(page)}`);
				for (const node of crmNodes) {
					const savedNode = saved.nodes.find((candidate) => candidate.name === node.name);
					expect({
						node: node.name,
						credential: savedNode?.credentials?.crmInvoicingApi?.id,
					}).toEqual({ node: node.name, credential: credential.id });
				}
			});
		},
	);
});

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * The demo a reviewer watches (`npm run demo`, and in `npm run test:ui`): one WebM video of the real editor against the
 * sandbox: the credential tested on save, a lead then an invoice created, the trigger receiving `lead.created`, each
 * after a title card. The page holds still where a viewer reads (the suite's only fixed waits, for the viewer; every
 * step still waits on the page). ffprobe then decodes the file: it must play and last 30 s to 5 min.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import type { BrowserContext, Page } from 'playwright-core';

import { probeVideo } from '../../scripts/lib/video';
import { ACTION_NODE_TYPE } from '../e2e/lib';
import { EXAMPLE_IDS } from '../sandbox/seedSummary';
import {
	awaitSubscription,
	client,
	closeNode,
	createCredential,
	crm,
	crmNode,
	env,
	launchChromium,
	MANUAL,
	manualTriggerNode,
	openNode,
	openWorkflow,
	outputShowing,
	signIn,
	STEP_TIMEOUT_MS,
	TRIGGER,
	triggerWorkflow,
} from './lib';

/** What the issue allows a demo to last. */
const MIN_SECONDS = 30;
const MAX_SECONDS = 5 * 60;
const SIZE = { width: 1280, height: 800 };

jest.setTimeout(10 * 60_000);

const CREATE_LEAD = 'Create Lead';
const CREATE_INVOICE = 'Create Invoice';

/** Holds the picture still for a viewer. */
async function beat(page: Page, seconds = 2): Promise<void> {
	await page.waitForTimeout(seconds * 1000);
}

/** A title card between chapters (a page of its own, so nothing of n8n's has to be covered). */
async function titleCard(page: Page, title: string, subtitle: string, seconds = 3): Promise<void> {
	await page.setContent(
		`<body style="margin:0;height:100vh;display:flex;flex-direction:column;justify-content:center;align-items:center;
			background:#1f2937;color:#f9fafb;font-family:sans-serif;text-align:center">
			<h1 style="font-size:44px;margin:0 48px 24px">${title}</h1>
			<p style="font-size:24px;margin:0 96px;color:#d1d5db">${subtitle}</p></body>`,
	);
	await beat(page, seconds);
}

async function leadAndInvoiceWorkflow(): Promise<string> {
	const { id } = await client.createWorkflow({
		name: 'Demo: a lead and an invoice for it',
		nodes: [
			manualTriggerNode(),
			crmNode(
				ACTION_NODE_TYPE,
				CREATE_LEAD,
				{ resource: 'lead', operation: 'create', name: '', additionalFields: {} },
				{ typeVersion: 2, position: [320, 0] },
			),
			crmNode(
				ACTION_NODE_TYPE,
				CREATE_INVOICE,
				{
					resource: 'invoice',
					operation: 'create',
					clientId: EXAMPLE_IDS.clientId,
					date: '={{ $now.toISO() }}',
					dueDate: '={{ $now.plus({ days: 14 }).toISO() }}',
					lineItemsSource: 'fields',
					lineItems: {
						items: [{ name: '=Onboarding for {{ $json.name }}', quantity: 1, price: 500 }],
					},
					additionalFields: { subject: '=Onboarding {{ $json.name }}' },
				},
				{ typeVersion: 2, position: [640, 0] },
			),
		],
		connections: {
			[MANUAL]: { main: [[{ node: CREATE_LEAD, type: 'main', index: 0 }]] },
			[CREATE_LEAD]: { main: [[{ node: CREATE_INVOICE, type: 'main', index: 0 }]] },
		},
		settings: {},
	});
	return id;
}

let context: BrowserContext | undefined;

afterAll(async () => {
	await context?.close().catch(() => undefined);
	await context
		?.browser()
		?.close()
		.catch(() => undefined);
});

describe('the demo video', () => {
	it('records the credential test, a lead and an invoice, and the trigger, and plays for 30 s to 5 min', async () => {
		const videoDir = path.join(path.dirname(env.demoVideo), 'recording');
		rmSync(videoDir, { recursive: true, force: true });
		mkdirSync(videoDir, { recursive: true });
		const browser = await launchChromium();
		context = await browser.newContext({
			viewport: SIZE,
			locale: 'en-US',
			colorScheme: 'light',
			recordVideo: { dir: videoDir, size: SIZE },
		});
		context.setDefaultTimeout(STEP_TIMEOUT_MS);
		const page = await context.newPage();
		const video = page.video();
		if (!video) throw new Error('Playwright is not recording the page');
		const [workflowId, trigger] = await Promise.all([
			leadAndInvoiceWorkflow(),
			triggerWorkflow('Demo: the trigger receives lead.created'),
		]);
		await record(page, workflowId, trigger).catch(async (error: unknown) => {
			const file = path.join(env.failureDir, 'demo.png');
			await page.screenshot({ path: file, timeout: 10_000 }).catch(() => undefined);
			if (error instanceof Error) error.message += `\n(the page: ${file})`;
			throw error;
		});
		await context.close();
		rmSync(env.demoVideo, { force: true });
		await video.saveAs(env.demoVideo);
		await video.delete();
		rmSync(videoDir, { recursive: true, force: true });

		const probe = probeVideo(env.ffprobePath, env.demoVideo);
		console.log(
			`[demo] ${path.relative(process.cwd(), env.demoVideo)}: ${probe.seconds.toFixed(1)} s, ${probe.frames} frames, ${probe.codec} ${probe.width}×${probe.height}`,
		);
		expect(probe.codec).toBe('vp9');
		expect(probe.frames).toBeGreaterThan(0);
		expect(probe.seconds).toBeGreaterThanOrEqual(MIN_SECONDS);
		expect(probe.seconds).toBeLessThanOrEqual(MAX_SECONDS);
	});
});

/** The three chapters, on the recorded page. */
async function record(
	page: Page,
	workflowId: string,
	trigger: { id: string; webhookId: string },
): Promise<void> {
	const leadName = `Ada Demo ${randomUUID().slice(0, 4)}`;
	const triggerLead = `Grace Demo ${randomUUID().slice(0, 4)}`;
	await titleCard(
		page,
		'n8n-nodes-crm-invoicing',
		`CRM Invoicing nodes in n8n ${env.n8nVersion}, against the sandbox CRM: the credential, a lead and an invoice, and the trigger`,
	);
	await signIn(page);

	// 1. The credential, tested by n8n on save.
	await titleCard(page, '1 · The credential', 'Base URL and API key; n8n tests them on save');
	const saved = await createCredential(
		page,
		'CRM Sandbox (demo)',
		env.sandboxUrl,
		env.sandboxKeys.admin,
	);
	expect(saved.banner).toContain('Connection tested successfully');
	await beat(page, 3);
	await page.keyboard.press('Escape');

	// 2. A lead, then an invoice for it, with the action node.
	await titleCard(
		page,
		'2 · The action node',
		'Create a lead, then an invoice for it: Manual Trigger → Lead: Create → Invoice: Create',
	);
	await openWorkflow(page, workflowId, [MANUAL, CREATE_LEAD, CREATE_INVOICE]);
	await beat(page);
	const leadNode = await openNode(page, CREATE_LEAD);
	await leadNode
		.getByTestId('parameter-input-name')
		.locator('input')
		.pressSequentially(leadName, { delay: 60 });
	await beat(page);
	await closeNode(page);
	await page.getByTestId('execute-workflow-button').click();
	await openNode(page, CREATE_LEAD);
	const leadOutput = await outputShowing(page, /"id":\s*"lead_/);
	expect(leadOutput).toContain(leadName);
	await beat(page, 3);
	await closeNode(page);
	await openNode(page, CREATE_INVOICE);
	const invoiceOutput = await outputShowing(page, /"id":\s*"inv_/);
	const invoiceId = /"id":\s*"(inv_\w+)"/.exec(invoiceOutput)?.[1];
	await beat(page, 4);
	await closeNode(page);
	// The invoice the panel shows is the one the CRM now holds, for the lead just created.
	await expect(crm.api('GET', `/invoices/${invoiceId}`)).resolves.toMatchObject({
		id: invoiceId,
		subject: `Onboarding ${leadName}`,
	});

	// 3. The trigger receives lead.created.
	await titleCard(
		page,
		'3 · The trigger',
		'“Test this trigger” subscribes to the CRM; a lead created there arrives as lead.created',
	);
	await openWorkflow(page, trigger.id, [TRIGGER]);
	await openNode(page, TRIGGER);
	await page.getByRole('button', { name: 'Test this trigger' }).click();
	await awaitSubscription(trigger.webhookId, true);
	await beat(page, 3);
	await crm.api('POST', '/leads', { name: triggerLead });
	const event = await outputShowing(page, new RegExp(triggerLead), 60_000);
	expect(event).toContain('lead.created');
	// One test event ends the listening, and the trigger deletes its subscription (none is left for the next test).
	await awaitSubscription(trigger.webhookId, false);
	await beat(page, 5);

	await titleCard(
		page,
		'Done',
		'Credential tested · lead and invoice created · lead.created received',
		2,
	);
}

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * `npm run screenshots`: starts the sandbox CRM and a real n8n with the packed package installed (user folder
 * .tmp/screenshots, emptied first), creates two workflows through n8n's public API, then drives Debian's chromium
 * with playwright-core to take the pictures in .github/images/ as a user sees the editor (there, not in docs/: n8n's build copies
 * every .png and .svg outside dist/ and node_modules/ into dist/, and would ship them):
 *
 *   canvas.png              the trigger and the action node on the canvas, with their icons
 *   action-node.png         the action node's parameters (Lead → Create)
 *   trigger-node.png        the trigger node's parameters (events lead.created)
 *   action-node-invoice.png the action node on Invoice → Create, with its line items
 *
 * Every wait is bounded, and chromium, n8n and the sandbox are stopped at the end, also on failure.
 * Environment: CHROMIUM_PATH (default: `command -v chromium`, installed with apt-get when missing), SCREENSHOTS_N8N_PORT (default 5693).
 * When a step fails, the page as it was is saved to .tmp/screenshots/failure.png.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { chromium, selectors, type Browser, type Locator, type Page } from 'playwright-core';

import { OWNER, PACKAGE_NAME } from './lib/n8n';
import { ROOT } from './lib/runtime';
import { ensureChromium } from './lib/services';
import { startStack, type Stack } from './lib/stack';
import { EXAMPLE_IDS } from '../test/sandbox/seedSummary';

const ACTION_NODE_TYPE = `${PACKAGE_NAME}.crmInvoicing`;
const TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.crmInvoicingTrigger`;

const DOCS = path.join(ROOT, '.github', 'images');
const VIEWPORT = { width: 1440, height: 900 };
/** The tallest window the invoice picture may use. */
const MAX_HEIGHT = 2600;
/** The longest any single browser step may take. */
const STEP_TIMEOUT_MS = 30_000;
/** The whole run, stack start-up included; past it everything is stopped and the script fails. */
const OVERALL_TIMEOUT_MS = 10 * 60_000;

const TRIGGER_NAME = 'New Lead in CRM';
const ACTION_NAME = 'Create Lead';
const INVOICE_NAME = 'Create Invoice';

function log(message: string): void {
	console.log(`[screenshots] ${message}`);
}

/**
 * Workflow 1: "CRM trigger → CRM action (Lead → Create)". Workflow 2: one action node on Invoice → Create. Both at the
 * node version a user gets when adding the nodes now (2), so the pictures show what a new workflow shows.
 */
async function createWorkflows(stack: Stack): Promise<{ main: string; invoice: string }> {
	const credential = {
		crmInvoicingApi: { id: stack.credentials.admin.id, name: stack.credentials.admin.name },
	};
	const main = await stack.client.createWorkflow({
		name: 'CRM Invoicing: trigger and action',
		nodes: [
			{
				id: randomUUID(),
				name: TRIGGER_NAME,
				type: TRIGGER_NODE_TYPE,
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { events: ['lead.created'], options: {} },
				credentials: credential,
			},
			{
				id: randomUUID(),
				name: ACTION_NAME,
				type: ACTION_NODE_TYPE,
				typeVersion: 2,
				position: [320, 0],
				parameters: {
					resource: 'lead',
					operation: 'create',
					name: 'Jane Doe',
					additionalFields: { email: 'jane.doe@example.com', title: 'Head of Operations' },
				},
				credentials: credential,
			},
		],
		connections: { [TRIGGER_NAME]: { main: [[{ node: ACTION_NAME, type: 'main', index: 0 }]] } },
	});
	const invoice = await stack.client.createWorkflow({
		name: 'Invoice with line items',
		nodes: [
			{
				id: randomUUID(),
				name: INVOICE_NAME,
				type: ACTION_NODE_TYPE,
				typeVersion: 2,
				position: [0, 0],
				parameters: {
					resource: 'invoice',
					operation: 'create',
					clientId: EXAMPLE_IDS.clientId,
					// Full date-times: n8n's date picker shows a date-only value such as '2026-12-01' as empty.
					date: '2026-12-01T00:00:00',
					dueDate: '2026-12-31T00:00:00',
					lineItemsSource: 'fields',
					lineItems: {
						items: [
							{
								name: 'Consulting hours',
								description: 'Workshop, December',
								quantity: 8,
								price: 120,
							},
							{ productId: EXAMPLE_IDS.productId, quantity: 1, price: 450, taxRateId: 'tax_vat20' },
						],
					},
					additionalFields: {},
				},
				credentials: credential,
			},
		],
		connections: {},
	});
	return { main: main.id, invoice: invoice.id };
}

/** Closes whatever onboarding tip, "what's new" or other modal dialog n8n put over the editor. */
async function dismissDialogs(page: Page): Promise<void> {
	const tip = page.getByRole('button', { name: 'Got it' });
	for (let index = (await tip.count()) - 1; index >= 0; index--) {
		await tip
			.nth(index)
			.click({ timeout: 5_000 })
			.catch(() => undefined);
	}
	for (let round = 0; round < 4; round++) {
		const dialog = page.locator('.el-dialog:visible, [role="dialog"]:visible').first();
		if (!(await dialog.isVisible().catch(() => false))) return;
		// The node details view is a dialog too; it is not ours to dismiss here.
		if (
			await page
				.getByTestId('ndv')
				.isVisible()
				.catch(() => false)
		)
			return;
		const close = dialog
			.locator(
				'.el-dialog__headerbtn, [aria-label="Close"], button:has-text("Skip"), button:has-text("Close")',
			)
			.first();
		if (await close.isVisible().catch(() => false))
			await close.click({ timeout: 5_000 }).catch(() => undefined);
		else await page.keyboard.press('Escape');
		await page.waitForTimeout(400);
	}
}

async function signIn(page: Page, url: string): Promise<void> {
	await page.goto(`${url}/signin`, { waitUntil: 'domcontentloaded' });
	const email = page.locator('input[name="emailOrLdapLoginId"], input[type="email"]').first();
	await email.waitFor({ state: 'visible' });
	await email.fill(OWNER.email);
	await page.locator('input[name="password"], input[type="password"]').first().fill(OWNER.password);
	await page.getByTestId('form-submit-button').click();
	await page.waitForURL((target) => !target.pathname.startsWith('/signin'));
}

function canvasNode(page: Page, name: string): Locator {
	return page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
}

async function openWorkflow(
	page: Page,
	url: string,
	id: string,
	nodeNames: string[],
): Promise<void> {
	await page.goto(`${url}/workflow/${id}`, { waitUntil: 'domcontentloaded' });
	for (const name of nodeNames) await canvasNode(page, name).waitFor({ state: 'visible' });
	await dismissDialogs(page);
	// Zoom to fit, then let the icons (fetched from /types/… and /icons/…) and the fit animation settle.
	await page
		.getByTestId('zoom-to-fit')
		.click({ timeout: 5_000 })
		.catch(() => undefined);
	await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
	await page.waitForTimeout(800);
}

/** Fails when a node on the canvas is drawn without its icon (n8n's grey "?" fallback). */
async function checkIcon(page: Page, name: string): Promise<void> {
	const node = canvasNode(page, name);
	const image = node.locator('img');
	if ((await image.count()) === 0) {
		throw new Error(`the canvas node "${name}" has no icon image (n8n draws a grey "?")`);
	}
	// tsconfig has no DOM library: describe the little of HTMLImageElement used here.
	const loaded = await image.first().evaluate((element) => {
		const img = element as unknown as { complete: boolean; naturalWidth: number };
		return img.complete && img.naturalWidth > 0;
	});
	if (!loaded) throw new Error(`the icon of the canvas node "${name}" did not load`);
}

async function openNode(page: Page, name: string): Promise<Locator> {
	await canvasNode(page, name).dblclick();
	const ndv = page.getByTestId('ndv');
	await ndv.waitFor({ state: 'visible' });
	await page.getByTestId('node-parameters').first().waitFor({ state: 'visible' });
	await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
	// Move the mouse out of the way so no tooltip covers the parameters.
	await page.mouse.move(5, VIEWPORT.height - 5);
	await page.waitForTimeout(800);
	return ndv;
}

async function closeNode(page: Page): Promise<void> {
	const close = page.getByTestId('ndv-close-button');
	if (await close.isVisible().catch(() => false)) await close.click();
	else await page.keyboard.press('Escape');
	await page.getByTestId('ndv').waitFor({ state: 'hidden' });
}

async function shoot(page: Page, file: string, written: string[]): Promise<void> {
	const target = path.join(DOCS, file);
	await page.screenshot({ path: target, animations: 'disabled' });
	written.push(target);
	log(`wrote ${path.relative(ROOT, target)}`);
}

async function takeScreenshots(
	browser: Browser,
	stack: Stack,
	ids: { main: string; invoice: string },
): Promise<string[]> {
	const written: string[] = [];
	const context = await browser.newContext({
		viewport: VIEWPORT,
		deviceScaleFactor: 1,
		locale: 'en-US',
		colorScheme: 'light',
	});
	context.setDefaultTimeout(STEP_TIMEOUT_MS);
	context.setDefaultNavigationTimeout(STEP_TIMEOUT_MS);
	const page = await context.newPage();
	page.on('pageerror', (error) => log(`page error: ${error.message}`));
	try {
		await takeAll(page, stack, ids, written);
	} catch (error) {
		const failure = path.join(ROOT, '.tmp', 'screenshots', 'failure.png');
		await page.screenshot({ path: failure, timeout: 10_000 }).then(
			() => log(`the page when it failed: ${path.relative(ROOT, failure)}`),
			() => undefined,
		);
		throw error;
	} finally {
		await context.close().catch(() => undefined);
	}
	return written;
}

async function takeAll(
	page: Page,
	stack: Stack,
	ids: { main: string; invoice: string },
	written: string[],
): Promise<void> {
	const url = stack.n8n.url;
	log('signing in');
	await signIn(page, url);
	await dismissDialogs(page);

	log(`opening workflow ${ids.main}`);
	await openWorkflow(page, url, ids.main, [TRIGGER_NAME, ACTION_NAME]);
	await checkIcon(page, TRIGGER_NAME);
	await checkIcon(page, ACTION_NAME);
	await shoot(page, 'canvas.png', written);

	await openNode(page, ACTION_NAME);
	await shoot(page, 'action-node.png', written);
	await closeNode(page);

	await openNode(page, TRIGGER_NAME);
	await shoot(page, 'trigger-node.png', written);
	await closeNode(page);

	log(`opening workflow ${ids.invoice}`);
	await openWorkflow(page, url, ids.invoice, [INVOICE_NAME]);
	await checkIcon(page, INVOICE_NAME);
	await openNode(page, INVOICE_NAME);
	// The invoice form (two line items of nine fields each) is taller than the window: grow the window until the
	// parameter panel no longer scrolls, so the picture shows the whole form from Credential to Additional Fields.
	const hidden = await page
		.getByTestId('node-parameters')
		.first()
		.evaluate((element) => {
			type Box = { scrollHeight: number; clientHeight: number; parentElement: Box | null };
			let current: Box | null = element as unknown as Box;
			while (current && current.scrollHeight <= current.clientHeight + 1)
				current = current.parentElement;
			return current ? current.scrollHeight - current.clientHeight : 0;
		});
	if (hidden > 0) {
		const height = Math.min(VIEWPORT.height + hidden + 24, MAX_HEIGHT);
		await page.setViewportSize({ width: VIEWPORT.width, height });
		await page.mouse.move(5, height - 5);
		await page.waitForTimeout(600);
	}
	await shoot(page, 'action-node-invoice.png', written);
	await closeNode(page);
	await page.setViewportSize(VIEWPORT);
}

async function main(): Promise<void> {
	const executablePath = ensureChromium();
	mkdirSync(DOCS, { recursive: true });

	let stack: Stack | undefined;
	let browser: Browser | undefined;
	let stopping: Promise<void> | undefined;
	const stopAll = async (): Promise<void> => {
		stopping ??= (async () => {
			await browser
				?.close()
				.catch((error: unknown) => log(`closing chromium failed: ${String(error)}`));
			await stack
				?.stop()
				.catch((error: unknown) => log(`stopping n8n/sandbox failed: ${String(error)}`));
		})();
		await stopping;
	};
	const watchdog = setTimeout(() => {
		log(`gave up after ${OVERALL_TIMEOUT_MS / 1000} s`);
		void stopAll().finally(() => process.exit(1));
	}, OVERALL_TIMEOUT_MS);
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		process.once(signal, () => void stopAll().finally(() => process.exit(130)));
	}

	try {
		const started = Date.now();
		stack = await startStack({
			runtime: 'current',
			userFolder: path.join(ROOT, '.tmp', 'screenshots'),
			fresh: true,
			n8nPort: Number(process.env.SCREENSHOTS_N8N_PORT ?? 5693),
			sandbox: { port: 0, rateLimit: false },
		});
		log(
			`n8n ${stack.runtime.n8nVersion} and the sandbox are up in ${((Date.now() - started) / 1000).toFixed(1)} s`,
		);
		const ids = await createWorkflows(stack);

		// n8n marks its elements with data-test-id (playwright's getByTestId looks for data-testid by default).
		selectors.setTestIdAttribute('data-test-id');
		log(`launching ${executablePath}`);
		browser = await chromium.launch({
			executablePath,
			headless: true,
			timeout: STEP_TIMEOUT_MS,
			args: [
				'--headless',
				'--no-sandbox',
				'--disable-gpu',
				'--disable-quic',
				'--no-first-run',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
			],
		});
		const written = await takeScreenshots(browser, stack, ids);
		console.log(
			`\nScreenshots written:\n${written.map((file) => `  ${path.relative(ROOT, file)}`).join('\n')}`,
		);
	} finally {
		clearTimeout(watchdog);
		await stopAll();
	}
}

main().catch((error: unknown) => {
	console.error(
		'[screenshots] failed:',
		error instanceof Error ? (error.stack ?? error.message) : error,
	);
	process.exit(1);
});

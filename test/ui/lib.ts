/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * What the editor tests share: Debian's chromium driven by playwright-core against the n8n and sandbox that
 * scripts/ui.ts started. Every wait is on something the page shows, bounded by the step timeout; a failing test
 * leaves a screenshot of the page in .tmp/ui/failures/.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';

import {
	chromium,
	selectors,
	type Browser,
	type BrowserContext,
	type Locator,
	type Page,
} from 'playwright-core';

import type { UiEnv } from '../../scripts/ui';
import { OWNER } from '../../scripts/lib/n8n';
import { ACTION_NODE_TYPE, e2eEnv, n8nClient, sandbox, TRIGGER_NODE_TYPE } from '../e2e/lib';

export const env = e2eEnv() as UiEnv;
export const client = n8nClient(env);
export const crm = sandbox(env);

/** The longest one browser step (a click, a wait for text) may take on a busy 2-core machine. */
export const STEP_TIMEOUT_MS = 30_000;
const VIEWPORT = { width: 1440, height: 900 };

let browser: Browser | undefined;

/** Debian's chromium, headless, as the runtime notes found it renders n8n's editor. */
export async function launchChromium(): Promise<Browser> {
	// n8n marks its elements with data-test-id (playwright looks for data-testid by default).
	selectors.setTestIdAttribute('data-test-id');
	return await chromium.launch({
		executablePath: env.chromiumPath,
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
}
let session: { context: BrowserContext; page: Page } | undefined;

/** One chromium, one signed-in page per test file (the editor's scripts load once); closeBrowser() in afterAll. */
async function editorPage(): Promise<Page> {
	browser ??= await launchChromium();
	if (!session) {
		const context = await browser.newContext({
			viewport: VIEWPORT,
			locale: 'en-US',
			colorScheme: 'light',
		});
		context.setDefaultTimeout(STEP_TIMEOUT_MS);
		context.setDefaultNavigationTimeout(STEP_TIMEOUT_MS);
		const page = await context.newPage();
		session = { context, page };
		await signIn(page);
	}
	return session.page;
}

export async function closeBrowser(): Promise<void> {
	await session?.context.close().catch(() => undefined);
	session = undefined;
	await browser?.close().catch(() => undefined);
	browser = undefined;
}

/** Runs `journey` on the file's signed-in editor page; when it throws, saves the page to failures/<name>.png. */
export async function inEditor(
	name: string,
	journey: (page: Page) => Promise<void>,
): Promise<void> {
	const page = await editorPage();
	try {
		await journey(page);
	} catch (error) {
		const file = path.join(env.failureDir, `${name.replace(/[^\w.-]+/g, '_')}.png`);
		await page.screenshot({ path: file, fullPage: true, timeout: 10_000 }).catch(() => undefined);
		if (error instanceof Error) error.message += `\n(the page: ${file})`;
		throw error;
	}
}

export async function signIn(page: Page): Promise<void> {
	await page.goto(`${env.n8nUrl}/signin`, { waitUntil: 'domcontentloaded' });
	const email = page.locator('input[name="emailOrLdapLoginId"], input[type="email"]').first();
	await email.fill(OWNER.email);
	await page.locator('input[name="password"], input[type="password"]').first().fill(OWNER.password);
	await page.getByTestId('form-submit-button').click();
	await page.waitForURL((target) => !target.pathname.startsWith('/signin'));
}

export function canvasNode(page: Page, name: string): Locator {
	return page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
}

/** Closes n8n's onboarding tips and "what's new" dialogs when they cover the editor (none is a node's dialog). */
export async function dismissDialogs(page: Page): Promise<void> {
	const tips = page.getByRole('button', { name: 'Got it' });
	for (let index = (await tips.count()) - 1; index >= 0; index--)
		await tips
			.nth(index)
			.click({ timeout: 5_000 })
			.catch(() => undefined);
	const visible = async (locator: Locator) => await locator.isVisible().catch(() => false);
	for (let round = 0; round < 4; round++) {
		const dialog = page.locator('.el-dialog:visible').first();
		if (!(await visible(dialog)) || (await visible(page.getByTestId('ndv')))) return;
		await page.keyboard.press('Escape');
		await dialog.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
	}
}

/** Opens a saved workflow and waits until the named nodes are drawn. */
export async function openWorkflow(page: Page, id: string, nodeNames: string[]): Promise<void> {
	await page.goto(`${env.n8nUrl}/workflow/${id}`, { waitUntil: 'domcontentloaded' });
	for (const name of nodeNames) await canvasNode(page, name).waitFor({ state: 'visible' });
	await dismissDialogs(page);
}

/** The node's icon is an image that loaded (n8n draws a grey "?" for a node type without one). */
export async function expectIcon(page: Page, name: string): Promise<void> {
	const image = canvasNode(page, name).locator('img').first();
	await image.waitFor({ state: 'attached' });
	await eventually(`the icon of the canvas node "${name}" to load`, async () => {
		const loaded = await image.evaluate((element) => {
			const img = element as unknown as { complete: boolean; naturalWidth: number };
			return img.complete && img.naturalWidth > 0;
		});
		return loaded ? true : undefined;
	});
}

/** Opens a node's details view (NDV) by double-clicking it on the canvas. */
export async function openNode(page: Page, name: string): Promise<Locator> {
	await canvasNode(page, name).dblclick();
	const ndv = page.getByTestId('ndv');
	await ndv.waitFor({ state: 'visible' });
	return ndv;
}

export async function closeNode(page: Page): Promise<void> {
	const close = page.getByTestId('ndv-close-button');
	if (await close.isVisible().catch(() => false)) await close.click();
	else await page.keyboard.press('Escape');
	await page.getByTestId('ndv').waitFor({ state: 'hidden' });
}

/** Polls `probe` until it returns something other than undefined; fails with `what` after timeoutMs. */
export async function eventually<T>(
	what: string,
	probe: () => Promise<T | undefined>,
	timeoutMs = STEP_TIMEOUT_MS,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let last: unknown;
	for (;;) {
		try {
			const value = await probe();
			if (value !== undefined) return value;
		} catch (error) {
			last = error;
		}
		if (Date.now() > deadline)
			throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/**
 * Creates a credential as a new user does (Credentials page → Create credential → CRM Invoicing API, filled in,
 * named, saved); returns the test n8n runs on save: its banner, and the message behind "More details" on failure.
 */
export async function createCredential(
	page: Page,
	name: string,
	baseUrl: string,
	apiKey: string,
): Promise<{ banner: string; details: string }> {
	await page.goto(`${env.n8nUrl}/home/credentials`, { waitUntil: 'domcontentloaded' });
	await page.getByTestId('add-resource-credential').click();
	await page.getByTestId('new-credential-type-select').click();
	await page.keyboard.type('CRM Invoicing');
	await page
		.getByTestId('new-credential-type-select-option')
		.filter({ hasText: 'CRM Invoicing API' })
		.click();
	await page.getByTestId('new-credential-type-button').click();

	const modal = page.getByTestId('editCredential-modal');
	const baseUrlInput = modal.getByTestId('parameter-input-baseUrl').locator('input');
	// The Base URL starts empty, with an example address as placeholder (not a value to delete by hand).
	await expect(baseUrlInput.inputValue()).resolves.toBe('');
	await expect(baseUrlInput.getAttribute('placeholder')).resolves.toMatch(/^https:\/\//);
	await baseUrlInput.fill(baseUrl);
	await modal.getByTestId('parameter-input-apiKey').locator('input').fill(apiKey);
	await modal.getByTestId('credential-name').click();
	// The name's inline editor is an <input> itself on some n8n versions and wraps one on others: fill whichever it is
	// (trying the inner one first cost a whole step timeout where there is none).
	const inlineEdit = modal.getByTestId('inline-edit-input');
	await inlineEdit.waitFor({ state: 'visible' });
	const inner = inlineEdit.locator('input');
	await ((await inner.count()) > 0 ? inner : inlineEdit).fill(name);
	await page.keyboard.press('Enter');
	await modal.getByTestId('credential-save-button').click();

	const success = modal.getByTestId('credentials-config-container-test-success');
	const failure = modal.locator('.el-tag--danger').filter({ hasText: 'Couldn’t connect' });
	await success.or(failure).first().waitFor({ state: 'visible' });
	if (await success.isVisible()) return { banner: (await success.innerText()).trim(), details: '' };
	// A failed test: n8n's banner, and behind "More details" the package's own message (the credential's test rules).
	const banner = (await failure.locator('[class*="_messageRow_"]').innerText()).trim();
	await failure.getByText('More details').click();
	const details = failure.locator('[class*="_details_"]');
	await details.waitFor({ state: 'visible' });
	return { banner, details: (await details.innerText()).trim() };
}

/** The Manual Trigger's name, as the editor names it. */
export const MANUAL = 'When clicking ‘Execute workflow’';
/** The trigger's name in the workflows the tests make. */
export const TRIGGER = 'On Lead Created';

/** n8n's Manual Trigger, at the canvas's origin. */
export function manualTriggerNode() {
	return {
		id: randomUUID(),
		name: MANUAL,
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters: {},
	};
}

/** A CRM node of `type` on the admin credential: version 1 at the canvas's origin unless `at` says otherwise. */
export function crmNode(
	type: string,
	name: string,
	parameters: Record<string, unknown>,
	at: { typeVersion?: number; position?: [number, number] } = {},
) {
	return {
		id: randomUUID(),
		name,
		type,
		typeVersion: at.typeVersion ?? 1,
		position: at.position ?? ([0, 0] as [number, number]),
		parameters,
		credentials: { crmInvoicingApi: env.credentials.admin },
	};
}

/** Saves "Manual Trigger → CRM Invoicing" (the admin credential) and returns the workflow's id. */
export async function manualWorkflow(
	name: string,
	nodeName: string,
	parameters: Record<string, unknown>,
	typeVersion = 1,
): Promise<string> {
	const { id } = await client.createWorkflow({
		name,
		nodes: [
			manualTriggerNode(),
			crmNode(ACTION_NODE_TYPE, nodeName, parameters, { typeVersion, position: [320, 0] }),
		],
		connections: { [MANUAL]: { main: [[{ node: nodeName, type: 'main', index: 0 }]] } },
		settings: {},
	});
	return id;
}

/** Saves a workflow of one CRM Invoicing Trigger on `lead.created` (the admin credential). */
export async function triggerWorkflow(name: string): Promise<{ id: string; webhookId: string }> {
	const webhookId = randomUUID();
	const parameters = { events: ['lead.created'], options: {} };
	const { id } = await client.createWorkflow({
		name,
		nodes: [{ ...crmNode(TRIGGER_NODE_TYPE, TRIGGER, parameters), webhookId }],
		connections: {},
		settings: {},
	});
	return { id, webhookId };
}

/** Waits until the CRM holds a subscription whose URL contains `part` (`present`), or until it holds none. */
export async function awaitSubscription(part: string, present: boolean): Promise<void> {
	const what = present
		? `a subscription to ${part} in the CRM`
		: `no subscription to ${part} left in the CRM`;
	await eventually(what, async () => {
		const subscriptions: Array<{ url: string }> = await crm.webhooks();
		return subscriptions.some((s) => s.url.includes(part)) === present ? true : undefined;
	});
}

/** The Output panel's JSON view, once it shows `pattern`. */
export async function outputShowing(
	page: Page,
	pattern: RegExp,
	timeoutMs = STEP_TIMEOUT_MS,
): Promise<string> {
	const output = page.getByTestId('output-panel');
	const json = output.getByTestId('radio-button-json');
	await json.waitFor({ state: 'visible', timeout: timeoutMs });
	await json.click();
	return await eventually(
		`${pattern} in the Output panel`,
		async () => {
			const text = await output.innerText();
			return pattern.test(text) ? text : undefined;
		},
		timeoutMs,
	);
}

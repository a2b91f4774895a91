/**
 * The credential as a new user creates it: Credentials page → Create credential → CRM Invoicing API, fill in Base
 * URL and API Key, Save. n8n tests the connection on save and shows the result in the dialog.
 */
import type { Page } from 'playwright-core';

import { closeBrowser, env, inEditor } from './lib';

afterAll(closeBrowser);

interface Saved {
	/** What the dialog's test banner says. */
	banner: string;
	/** The message behind "More details", when the test failed. */
	details: string;
}

async function createCredential(
	page: Page,
	name: string,
	baseUrl: string,
	apiKey: string,
): Promise<Saved> {
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

describe('credential in the editor', () => {
	it('is created from the Credentials page and its Test reports success', async () => {
		await inEditor('credential-success', async (page) => {
			const saved = await createCredential(
				page,
				'UI test: sandbox admin key',
				env.sandboxUrl,
				env.sandboxKeys.admin,
			);
			expect(saved.banner).toContain('Connection tested successfully');
			// Saved, and listed on the Credentials page under its name and type.
			await page.keyboard.press('Escape');
			await page.goto(`${env.n8nUrl}/home/credentials`, { waitUntil: 'domcontentloaded' });
			await expect(
				page
					.getByTestId('resources-list-item')
					.filter({ hasText: 'UI test: sandbox admin key' })
					.innerText(),
			).resolves.toContain('CRM Invoicing API');
		});
	});

	it("with a wrong key shows the package's own message about the key", async () => {
		await inEditor('credential-wrong-key', async (page) => {
			const saved = await createCredential(
				page,
				'UI test: wrong key',
				env.sandboxUrl,
				'sk_not_a_key_of_this_crm',
			);
			expect(saved.banner).toContain('Couldn’t connect');
			expect(saved.details).toMatch(/\b401\b/);
			expect(saved.details).toMatch(/key/i);
		});
	});

	it("with a wrong Base URL shows the package's own message about the Base URL", async () => {
		await inEditor('credential-wrong-base-url', async (page) => {
			// Something answers there, but it is not the API: /not-the-crm/api/v1/users is 404.
			const saved = await createCredential(
				page,
				'UI test: wrong Base URL',
				`${env.sandboxUrl}/not-the-crm`,
				env.sandboxKeys.admin,
			);
			expect(saved.banner).toContain('Couldn’t connect');
			expect(saved.details).toMatch(/Base URL/);
		});
	});
});

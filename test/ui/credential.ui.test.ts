/**
 * The credential as a new user creates it: Credentials page → Create credential → CRM Invoicing API, fill in Base
 * URL and API Key, Save. n8n tests the connection on save and shows the result in the dialog.
 */
import { closeBrowser, createCredential, env, inEditor } from './lib';

afterAll(closeBrowser);

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

	it.each([
		['key', env.sandboxUrl, 'sk_not_a_key_of_this_crm', [/\b401\b/, /key/i]],
		// Something answers there, but it is not the API: /not-the-crm/api/v1/users is 404.
		['Base URL', `${env.sandboxUrl}/not-the-crm`, env.sandboxKeys.admin, [/Base URL/]],
	])(
		"with a wrong %s shows the package's own message about it",
		async (what, url, key, messages) => {
			await inEditor(`credential-wrong-${what}`, async (page) => {
				const saved = await createCredential(page, `UI test: wrong ${what}`, url, key);
				expect(saved.banner).toContain('Couldn’t connect');
				for (const message of messages) expect(saved.details).toMatch(message);
			});
		},
	);
});

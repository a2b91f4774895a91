/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** n8n's credential tester: 2.x shows the credential's own messages (`test.rules`), 1.123 its generic text. */
import { freePort } from '../../scripts/lib/system';
import { e2eEnv, sandbox, testCredential } from './lib';

const env = e2eEnv();
const crm = sandbox(env);
const usesOwnMessages = env.runtime === 'current';

describe(`"CRM Invoicing API" credential test in real n8n ${env.n8nVersion}`, () => {
	afterEach(async () => {
		await crm.control('DELETE', '/faults');
	});

	it('passes with a valid key, also when the Base URL ends in /api/v1/', async () => {
		expect(await testCredential()).toMatchObject({ status: 'OK' });
		const withPath = { baseUrl: `${env.sandboxUrl}/api/v1/`, apiKey: env.sandboxKeys.readOnly };
		expect(await testCredential(withPath)).toMatchObject({ status: 'OK' });
	});

	it('says clearly that the key was rejected', async () => {
		const result = await testCredential({ apiKey: 'sk_not_a_real_key' });
		expect(result.status).toBe('Error');
		expect(result.message).toContain(
			usesOwnMessages
				? 'The API rejected the key (401)'
				: 'Authorization failed - please check your credentials',
		);
		expect(result.message).not.toContain('sk_not_a_real_key');
	});

	it('says clearly that the Base URL does not point at the API', async () => {
		const result = await testCredential({ baseUrl: `${env.sandboxUrl}/not-the-api` });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(usesOwnMessages ? /Check the Base URL/ : /could not be found/);
	});

	it('a valid key whose user may not list users (403) says the key is valid', async () => {
		await crm.fault({ status: 403, pathPrefix: '/api/v1/users' });

		const result = await testCredential(
			{ apiKey: env.sandboxKeys.readOnly },
			env.credentials.readOnly,
		);

		expect(result.status).toBe('Error');
		if (usesOwnMessages)
			expect(result.message).toMatch(/^The key is valid, but its user may not list users \(403/);
		expect(result.message).not.toContain(env.sandboxKeys.readOnly);
	});

	it('nothing listening at the Base URL fails the test (n8n words it: the declarative test cannot)', async () => {
		const result = await testCredential({ baseUrl: `http://127.0.0.1:${await freePort()}` });

		expect(result.status).toBe('Error');
		// n8n's words, not the package's: 2.x shows the bare code, 1.x its own sentence.
		expect(result.message).toMatch(usesOwnMessages ? /ECONNREFUSED/ : /refused the connection/);
		expect(result.message).not.toContain(env.sandboxKeys.admin);
	});
});

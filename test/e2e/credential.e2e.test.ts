import { e2eEnv, n8nClient } from './lib';

const env = e2eEnv();
const n8n = n8nClient(env);
/**
 * n8n 2.x shows the credential's own messages (its `test.rules`); n8n 1.123's credential tester does not find the
 * status in the errors its routing node throws, so it shows its generic text for the status instead.
 */
const usesOwnMessages = env.runtime === 'current';

describe(`"CRM Invoicing API" credential test in real n8n ${env.n8nVersion}`, () => {
	it('passes with a valid key, also when the Base URL ends in /api/v1/', async () => {
		expect(await n8n.testCredential(env.credentials.admin, 'crmInvoicingApi', { baseUrl: env.sandboxUrl, apiKey: env.sandboxKeys.admin })).toMatchObject({ status: 'OK' });
		expect(
			await n8n.testCredential(env.credentials.admin, 'crmInvoicingApi', { baseUrl: `${env.sandboxUrl}/api/v1/`, apiKey: env.sandboxKeys.readOnly }),
		).toMatchObject({ status: 'OK' });
	});

	it('says clearly that the key was rejected', async () => {
		const result = await n8n.testCredential(env.credentials.admin, 'crmInvoicingApi', { baseUrl: env.sandboxUrl, apiKey: 'sk_not_a_real_key' });
		expect(result.status).toBe('Error');
		expect(result.message).toContain(usesOwnMessages ? 'The API rejected the key (401)' : 'Authorization failed - please check your credentials');
		expect(result.message).not.toContain('sk_not_a_real_key');
	});

	it('says clearly that the Base URL does not point at the API', async () => {
		const result = await n8n.testCredential(env.credentials.admin, 'crmInvoicingApi', { baseUrl: `${env.sandboxUrl}/not-the-api`, apiKey: env.sandboxKeys.admin });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(usesOwnMessages ? /Check the Base URL/ : /could not be found/);
	});
});

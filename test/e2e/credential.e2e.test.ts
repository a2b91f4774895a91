/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
import { e2eEnv, n8nClient, sandbox } from './lib';

const env = e2eEnv();
const n8n = n8nClient(env);
/**
 * n8n 2.x shows the credential's own messages (its `test.rules`); n8n 1.123's credential tester does not find the
 * status in the errors its routing node throws, so it shows its generic text for the status instead.
 */
const usesOwnMessages = env.runtime === 'current';

describe(`"CRM Invoicing API" credential test in real n8n ${env.n8nVersion}`, () => {
	it('passes with a valid key, also when the Base URL ends in /api/v1/', async () => {
		expect(
			await n8n.testCredential(env.credentials.admin, 'crmInvoicingApi', {
				baseUrl: env.sandboxUrl,
				apiKey: env.sandboxKeys.admin,
			}),
		).toMatchObject({ status: 'OK' });
		expect(
			await n8n.testCredential(env.credentials.admin, 'crmInvoicingApi', {
				baseUrl: `${env.sandboxUrl}/api/v1/`,
				apiKey: env.sandboxKeys.readOnly,
			}),
		).toMatchObject({ status: 'OK' });
	});

	it('says clearly that the key was rejected', async () => {
		const result = await n8n.testCredential(env.credentials.admin, 'crmInvoicingApi', {
			baseUrl: env.sandboxUrl,
			apiKey: 'sk_not_a_real_key',
		});
		expect(result.status).toBe('Error');
		expect(result.message).toContain(
			usesOwnMessages
				? 'The API rejected the key (401)'
				: 'Authorization failed - please check your credentials',
		);
		expect(result.message).not.toContain('sk_not_a_real_key');
	});

	it('says clearly that the Base URL does not point at the API', async () => {
		const result = await n8n.testCredential(env.credentials.admin, 'crmInvoicingApi', {
			baseUrl: `${env.sandboxUrl}/not-the-api`,
			apiKey: env.sandboxKeys.admin,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(usesOwnMessages ? /Check the Base URL/ : /could not be found/);
	});
});

describe(`"CRM Invoicing API" credential test: the other cases, in real n8n ${env.n8nVersion}`, () => {
	const crm = sandbox(env);

	afterEach(async () => {
		await crm.control('DELETE', '/faults');
	});

	it('a valid key whose user may not list users (403) says the key is valid', async () => {
		await crm.fault({ status: 403, pathPrefix: '/api/v1/users' });

		const result = await n8n.testCredential(env.credentials.readOnly, 'crmInvoicingApi', {
			baseUrl: env.sandboxUrl,
			apiKey: env.sandboxKeys.readOnly,
		});

		expect(result.status).toBe('Error');
		if (usesOwnMessages)
			expect(result.message).toMatch(/^The key is valid, but its user may not list users \(403/);
		expect(result.message).not.toContain(env.sandboxKeys.readOnly);
	});

	it('nothing listening at the Base URL fails the test (n8n words it: the declarative test cannot)', async () => {
		const closedPort = await freePort();

		const result = await n8n.testCredential(env.credentials.admin, 'crmInvoicingApi', {
			baseUrl: `http://127.0.0.1:${closedPort}`,
			apiKey: env.sandboxKeys.admin,
		});

		expect(result.status).toBe('Error');
		// n8n's words, not the package's: 2.x shows the bare code, 1.x its own sentence.
		expect(result.message).toMatch(usesOwnMessages ? /ECONNREFUSED/ : /refused the connection/);
		expect(result.message).not.toContain(env.sandboxKeys.admin);
	});
});

/** A port nothing listens on: bound once by us, then released. */
async function freePort(): Promise<number> {
	const { createServer } = await import('node:net');
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}

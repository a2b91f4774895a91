/** Issue 11: a list search (the editor's "From List" picker) never follows a redirect to another origin either. */
import { e2eEnv, leadPicker, sandbox } from './lib';

const env = e2eEnv();
const crm = sandbox(env);

describe(`lead picker (list search) in real n8n ${env.n8nVersion}`, () => {
	let catcherUrl: string;

	beforeAll(async () => {
		catcherUrl = (await crm.control<{ url: string }>('POST', '/catcher')).url;
	});

	afterEach(async () => {
		await crm.control('DELETE', '/faults');
	});

	it('a 302 to another host fails the search, and the other host receives nothing', async () => {
		await crm.control('DELETE', '/catcher');
		await crm.fault({
			status: 302,
			redirectTo: 'catcher',
			method: 'GET',
			pathPrefix: '/api/v1/leads',
		});

		await expect(leadPicker()).rejects.toThrow(/redirect/);

		const { caught } = await crm.control<{ caught: unknown[] }>('GET', '/catcher');
		expect(caught).toEqual([]);
		expect(new URL(catcherUrl).port).not.toBe(new URL(env.sandboxUrl).port);
	});
});

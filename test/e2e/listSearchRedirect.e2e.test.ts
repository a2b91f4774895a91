/** Issue 11: a list search (the editor's "From List" picker) never follows a redirect to another origin either. */
import { ACTION_NODE_TYPE, e2eEnv, n8nClient, sandbox } from './lib';

const env = e2eEnv();
const crm = sandbox(env);
const n8n = n8nClient(env);

const search = () =>
	n8n.listSearch({
		nodeType: ACTION_NODE_TYPE,
		methodName: 'searchLeads',
		parameterPath: 'parameters.leadId',
		parameters: {
			resource: 'lead',
			operation: 'get',
			leadId: { __rl: true, mode: 'list', value: '' },
		},
		credentials: { crmInvoicingApi: env.credentials.admin },
	});

describe(`lead picker (list search) in real n8n ${env.n8nVersion}`, () => {
	let catcherUrl: string;

	beforeAll(async () => {
		catcherUrl = (await crm.control<{ url: string }>('POST', '/catcher')).url;
	});

	afterEach(async () => {
		await crm.control('DELETE', '/faults');
	});

	it('lists leads through n8n (the request that the redirect case then breaks)', async () => {
		await crm.api('POST', '/leads', { name: 'Picker Lead' });
		const found = await search();
		expect(found.results.length).toBeGreaterThan(0);
	});

	it('a 302 to another host fails the search, and the other host receives nothing', async () => {
		await crm.control('DELETE', '/catcher');
		await crm.fault({
			status: 302,
			redirectTo: 'catcher',
			method: 'GET',
			pathPrefix: '/api/v1/leads',
		});

		await expect(search()).rejects.toThrow(/redirect/);

		const { caught } = await crm.control<{ caught: unknown[] }>('GET', '/catcher');
		expect(caught).toEqual([]);
		expect(new URL(catcherUrl).port).not.toBe(new URL(env.sandboxUrl).port);
	});
});

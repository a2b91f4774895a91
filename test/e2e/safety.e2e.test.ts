/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Issue 11 (transport side) in real n8n: redirects to another origin are refused inside each n8n's HTTP helper (key and
 * body sent nowhere else), a 429 asking for an hour holds no later execution back, and a huge error page fails fast
 * while n8n stays responsive. The rest of the transport's rules: test/unit/transport/ and test/unit/actions/.
 */
import {
	e2eEnv,
	getLead,
	nodeError,
	runAction,
	sandbox,
	testCredential,
	whileProbing,
} from './lib';

const env = e2eEnv();
const crm = sandbox(env);

jest.setTimeout(240_000);

interface Caught {
	method: string;
	path: string;
	apiKeyReceived: boolean;
	body: string;
}

let catcherUrl: string;

async function caught(): Promise<Caught[]> {
	return (await crm.control<{ caught: Caught[] }>('GET', '/catcher')).caught;
}

beforeAll(async () => {
	catcherUrl = (await crm.control<{ url: string }>('POST', '/catcher')).url;
});

beforeEach(async () => {
	await crm.control('DELETE', '/faults');
	await crm.control('DELETE', '/catcher');
	await crm.clearRequests();
});

afterAll(async () => {
	await crm.control('DELETE', '/faults');
	await crm.config({ rateLimit: { limit: 600, windowMs: 60_000 }, personality: 'standard' });
});

describe(`redirects to another origin, in real n8n ${env.n8nVersion}`, () => {
	it('GET answered 302 to another host: the execution fails naming the status and host; the other host got nothing', async () => {
		const lead = await crm.api('POST', '/leads', { name: 'Redirected' });
		await crm.fault({
			status: 302,
			redirectTo: 'catcher',
			method: 'GET',
			pathPrefix: '/api/v1/leads/',
		});

		const run = await runAction({ parameters: getLead(lead.id) });

		expect(run.execution.status).toBe('error');
		const error = nodeError(run.execution);
		expect(error?.message).toContain(
			`The CRM API answered 302 with a redirect to ${new URL(catcherUrl).host}`,
		);
		expect(error?.message).toContain('the API key was not sent there');
		expect(await caught()).toEqual([]);
		expect(JSON.stringify(run.execution)).not.toContain(env.sandboxKeys.admin);
	});

	it('POST answered 307 to another host: neither key nor lead reach it, and nothing is created twice', async () => {
		await crm.fault({
			status: 307,
			redirectTo: 'catcher',
			method: 'POST',
			pathPrefix: '/api/v1/leads',
		});

		const run = await runAction({
			parameters: {
				resource: 'lead',
				operation: 'create',
				name: 'Must not travel',
				additionalFields: {},
			},
		});

		expect(run.execution.status).toBe('error');
		expect(nodeError(run.execution)?.message).toMatch(
			/answered 307 with a redirect to .*the API key and the request body were not sent there/,
		);
		expect(await caught()).toEqual([]);
		const posts = (await crm.requests()).filter((request) => request.method === 'POST');
		expect(posts.map((request) => request.status)).toEqual([307]);
	});

	it('the credential Test against a redirecting Base URL fails with its message and sends the key nowhere else', async () => {
		await crm.fault({ status: 302, redirectTo: 'catcher', pathPrefix: '/api/v1/users' });

		const result = await testCredential();

		expect(result.status).toBe('Error');
		if (env.runtime === 'current')
			expect(result.message).toMatch(
				/answered with a redirect \(302\).*the key was not sent anywhere else/,
			);
		expect(await caught()).toEqual([]);
	});
});

describe('waits', () => {
	it('429 with Retry-After: 3600 fails at once, and the next execution with the same credential is not held back', async () => {
		const lead = await crm.api('POST', '/leads', { name: 'Limited' });
		await crm.fault({
			status: 429,
			headers: { 'retry-after': '3600', 'ratelimit-remaining': '0', 'ratelimit-reset': '3600' },
			count: 1,
		});

		const limited = await runAction({ parameters: getLead(lead.id) });
		expect(limited.execution.status).toBe('error');

		const started = Date.now();
		const next = await runAction({ parameters: getLead(lead.id) });
		// Bounded, not timed: a remembered wait would hold this execution for the 60 s cap or the whole hour.
		expect(Date.now() - started).toBeLessThan(30_000);
		expect(next.execution.status).toBe('success');
		expect(next.items).toEqual([expect.objectContaining({ id: lead.id })]);
		expect(
			(await crm.requests())
				.filter((request) => request.path === `/api/v1/leads/${lead.id}`)
				.map((request) => request.status),
		).toEqual([429, 200]);
	});
});

describe('bounded work on bad answers', () => {
	it('a 2 MB HTML error page fails with a short stored execution while n8n keeps answering /healthz', async () => {
		await crm.fault({
			status: 502,
			html: true,
			htmlBytes: 2_000_000,
			method: 'POST',
			pathPrefix: '/api/v1/leads',
		});

		const { result: run, health } = await whileProbing(
			async () =>
				await runAction({
					parameters: {
						resource: 'lead',
						operation: 'create',
						name: 'Behind a proxy',
						additionalFields: {},
					},
				}),
		);

		expect(run.execution.status).toBe('error');
		expect(JSON.stringify(run.execution).length).toBeLessThan(200_000);
		expect(health.length).toBeGreaterThan(0);
		expect(health.every((status) => status === 200)).toBe(true);
	});
});

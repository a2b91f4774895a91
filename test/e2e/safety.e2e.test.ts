/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Issue 11 (transport side) and issue 12's pacing, in real n8n: the key and bodies never reach another origin, no
 * answer holds a key back, huge error pages fail fast while n8n stays responsive, looping lists stop, unsafe IDs and
 * paths never leave the node, and a headerless 60/min API is paced instead of hammered.
 */
import { e2eEnv, n8nClient, nodeError, runAction, sandbox } from './lib';

const env = e2eEnv();
const crm = sandbox(env);
const n8n = n8nClient(env);

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

const getLead = (id: unknown) => ({
	resource: 'lead',
	operation: 'get',
	leadId: { __rl: true, mode: 'id', value: id },
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
		expect(JSON.stringify(run.items)).not.toContain('caught_by_other_host');
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

		const result = await n8n.testCredential(env.credentials.admin, 'crmInvoicingApi', {
			baseUrl: env.sandboxUrl,
			apiKey: env.sandboxKeys.admin,
		});

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
		expect(nodeError(limited.execution)?.message).toBe(
			'The CRM API answered 429 (rate limit) and asked to wait 1 h before the next request; the node waits at most 60 s, so it did not wait',
		);

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
	it('a 2 MB HTML error page fails with a short error while n8n keeps answering /healthz', async () => {
		await crm.fault({
			status: 502,
			html: true,
			htmlBytes: 2_000_000,
			method: 'POST',
			pathPrefix: '/api/v1/leads',
		});

		const health: number[] = [];
		let running = true;
		const probe = (async () => {
			while (running) {
				const response = await fetch(`${env.n8nUrl}/healthz`, {
					signal: AbortSignal.timeout(5_000),
				});
				health.push(response.status);
				await new Promise((resolve) => setTimeout(resolve, 100));
			}
		})();
		let run;
		try {
			run = await runAction({
				parameters: {
					resource: 'lead',
					operation: 'create',
					name: 'Behind a proxy',
					additionalFields: {},
				},
			});
		} finally {
			running = false;
			await probe;
		}

		expect(run.execution.status).toBe('error');
		const error = nodeError(run.execution);
		expect(error?.message).toBe(
			'The CRM API answered 502 with a page that is not JSON: "502 Bad Gateway"',
		);
		expect(JSON.stringify(run.execution).length).toBeLessThan(200_000);
		expect(health.length).toBeGreaterThan(0);
		expect(health.every((status) => status === 200)).toBe(true);
	});

	it('Return All against a repeating cursor stops with the error instead of looping', async () => {
		const page = {
			items: [
				{
					id: 'lead_loop',
					number: 'L-1',
					name: 'Loop',
					archived: false,
					createdAt: '2026-01-01T00:00:00Z',
				},
			],
			hasMore: true,
			nextCursor: 'same',
		};
		await crm.fault({
			status: 200,
			method: 'GET',
			pathPrefix: '/api/v1/leads',
			body: page,
			count: 20,
		});

		const run = await runAction({
			parameters: { resource: 'lead', operation: 'getMany', returnAll: true, filters: {} },
		});

		expect(run.execution.status).toBe('error');
		expect(nodeError(run.execution)?.message).toBe(
			'The CRM API\'s list /api/v1/leads did not advance: page 2 handed back a cursor it had already given ("same"). The node stopped reading it',
		);
		expect(
			(await crm.requests()).filter((request) => request.path === '/api/v1/leads'),
		).toHaveLength(2);
	});
});

describe('paths and IDs', () => {
	it('an ID of ".." is refused before any request', async () => {
		const run = await runAction({ parameters: getLead('={{ $json.body.id }}') }, { id: '..' });

		expect(run.execution.status).toBe('error');
		expect(nodeError(run.execution)?.message).toMatch(
			/^The node refused to send GET \/api\/v1\/leads\/\.\.: it has a "\.\." segment/,
		);
		expect(await crm.requests()).toEqual([]);
	});

	it('a Custom API Request path with a control character is refused before any request', async () => {
		const run = await runAction(
			{
				parameters: {
					resource: 'customApiRequest',
					operation: 'request',
					method: 'GET',
					apiVersion: 'v1',
					path: '={{ $json.body.path }}',
				},
			},
			{ path: '/.\n./users' },
		);

		expect(run.execution.status).toBe('error');
		expect(nodeError(run.execution)?.message).toMatch(
			/"Path" is refused in item 0: it contains a control character/,
		);
		expect(await crm.requests()).toEqual([]);
	});
});

describe('pacing without RateLimit-* headers (alternate personality)', () => {
	it('Return All of 6,500 leads against a server enforcing 60 per minute without announcing it: every lead, at most one 429', async () => {
		const credential = await n8n.createCredential(`CRM Sandbox (documented 60/min) ${Date.now()}`, {
			baseUrl: env.sandboxUrl,
			apiKey: env.sandboxKeys.admin,
			requestsPerMinute: 60,
		});
		await crm.reset();
		const existing = (await crm.control<{ counts: { leads: number } }>('GET', '/health')).counts
			.leads;
		expect(
			(await crm.control<{ total: number }>('POST', '/seed', { leads: 6_500 - existing })).total,
		).toBe(6_500);
		await crm.config({ rateLimit: { limit: 60, windowMs: 60_000 }, personality: 'alternate' });
		try {
			const withCredential = { ...env, credentials: { ...env.credentials, admin: credential } };
			const run = await runAction(
				{ parameters: { resource: 'lead', operation: 'getMany', returnAll: true, filters: {} } },
				{},
				withCredential,
			);

			expect(run.execution.status).toBe('success');
			expect(run.items).toHaveLength(6_500);
			expect(new Set(run.items.map((lead) => lead.id)).size).toBe(6_500);
			const pages = (await crm.requests()).filter((request) => request.path === '/api/v1/leads');
			expect(pages.filter((request) => request.status === 429).length).toBeLessThanOrEqual(1);
			expect(pages.filter((request) => request.status === 200)).toHaveLength(65);
			// Paced, not sent into the limit: the 61st request reached the server a window after the first. (Unpaced, it
			// went at once, drew a 429 and waited for its Retry-After: also "at most one 429", so this is what tells.)
			expect(Date.parse(pages[60].at) - Date.parse(pages[0].at)).toBeGreaterThanOrEqual(59_000);
		} finally {
			await crm.config({ rateLimit: { limit: 600, windowMs: 60_000 }, personality: 'standard' });
			await crm.reset();
			await n8n.api('DELETE', `/credentials/${credential.id}`).catch(() => undefined);
		}
	});
});

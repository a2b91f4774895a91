/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Issue 23 in real n8n: the transport keeps its promises at the edges.
 * - A key holding `/`, `+` and `=`, echoed JSON-escaped (`\/`, `\u002b`, `\u003d`) in an error and in a record: no
 *   spelling of it in the error, the Continue On Fail output, the stored execution or n8n's log.
 * - A redirect to an API path where a malformed escape sits beside an encoded "..": refused, not followed.
 * - A redirect whose Location splits the key with a TAB: no spelling of the key in the stored execution.
 * The same-host redirect out of the API, a CRM clock 30 s behind and `Retry-After: 0.001` are proved in
 * test/unit/transport/redirectRule.test.ts and rateLimit.test.ts, through n8n-core's HTTP helper.
 */
import { readFileSync } from 'node:fs';

import {
	e2eEnv,
	n8nClient,
	nodeError,
	nodeOutput,
	pollingWorkflow,
	runAction,
	sandbox,
	waitFor,
} from './lib';

const env = e2eEnv();
const crm = sandbox(env);
const n8n = n8nClient(env);

jest.setTimeout(240_000);

/** A key with the characters encoders escape; its fragments `R3dact`, `Me9`, `Pl3ase` are what no escape changes. */
const KEY = 'sk_e2e_R3dact/Me9+Pl3ase==';
const FRAGMENTS = ['R3dact', 'Me9+', 'Pl3ase'];
const shows = (text: string): string[] => FRAGMENTS.filter((fragment) => text.includes(fragment));

const getLead = (id: unknown) => ({
	resource: 'lead',
	operation: 'get',
	leadId: { __rl: true, mode: 'id', value: id },
});

beforeEach(async () => {
	await crm.control('DELETE', '/faults');
	await crm.clearRequests();
});

afterAll(async () => {
	await crm.control('DELETE', '/faults');
});

describe(`a key echoed JSON-escaped, in real n8n ${env.n8nVersion}`, () => {
	let credential: { id: string; name: string };
	let logFrom = 0;

	beforeAll(async () => {
		credential = await n8n.createCredential(`e2e escaped key ${Date.now()}`, {
			baseUrl: env.sandboxUrl,
			apiKey: KEY,
			requestsPerMinute: 600,
		});
		logFrom = readFileSync(env.logFile).length;
	});

	const withKey = () => ({ ...env, credentials: { ...env.credentials, admin: credential } });

	it('a 401 echoing it: redacted in the Continue On Fail output and the stored execution', async () => {
		await crm.fault({
			status: 401,
			echoKey: 'escaped',
			method: 'GET',
			pathPrefix: '/api/v1/leads/lead_echo_401',
		});

		const run = await runAction(
			{ parameters: getLead('lead_echo_401'), continueOnFail: true },
			{},
			withKey(),
		);

		// The sandbox did echo it, escaped: the answer carried the key the node sent.
		const request = (await crm.requests()).find(
			(entry) => entry.path === '/api/v1/leads/lead_echo_401',
		);
		expect(request?.status).toBe(401);
		expect(request?.headers['x-api-key']).toBe(KEY);
		expect(JSON.stringify(run.items)).toContain(
			'The API key [redacted] is not valid for this workspace.',
		);
		expect(shows(JSON.stringify(run.items))).toEqual([]);
		expect(shows(JSON.stringify(run.execution))).toEqual([]);
	});

	it("a 401 echoing it without Continue On Fail: the execution's error is redacted", async () => {
		await crm.fault({
			status: 401,
			echoKey: 'escaped',
			method: 'GET',
			pathPrefix: '/api/v1/leads/lead_echo_err',
		});

		const run = await runAction({ parameters: getLead('lead_echo_err') }, {}, withKey());

		expect(run.execution.status).toBe('error');
		expect(nodeError(run.execution)?.message).toBe(
			'The CRM API answered 401 UNAUTHORIZED: The API key [redacted] is not valid for this workspace.',
		);
		expect(shows(JSON.stringify(run.execution))).toEqual([]);
	});

	it('a 200 record echoing it: output with the field redacted, the record otherwise as sent', async () => {
		await crm.fault({
			status: 200,
			echoKey: 'escaped',
			method: 'GET',
			pathPrefix: '/api/v1/leads/lead_echo_200',
		});

		const run = await runAction({ parameters: getLead('lead_echo_200') }, {}, withKey());

		expect(run.execution.status).toBe('success');
		expect(nodeOutput(run.execution, 'CRM Invoicing')).toEqual([
			expect.objectContaining({
				id: 'lead_echo',
				name: 'Echo',
				title: 'Key [redacted]',
				customFields: { apiKey: '[redacted]' },
			}),
		]);
		expect(shows(JSON.stringify(run.execution))).toEqual([]);
	});

	it("a polling trigger on it: its warning in n8n's log, and its failed poll, show it redacted; the log has no spelling of it", async () => {
		// Each poll's list holds one lead without an id whose name echoes the key: the trigger names it in a warning.
		await crm.fault({
			status: 200,
			echoKey: 'escaped',
			method: 'GET',
			pathPrefix: '/api/v1/leads',
			count: 1_000,
		});
		const workflow = await n8n.createWorkflow(
			pollingWorkflow(`e2e escaped key poll ${Date.now()}`, ['newLead'], {}, withKey()),
		);
		const logText = () => readFileSync(env.logFile).subarray(logFrom).toString('utf8');
		try {
			await n8n.activate(workflow.id);
			await waitFor(
				async () => logText().includes('without an id ("Key [redacted]")'),
				30_000,
				"the trigger's warning in n8n's log",
			);
			// Then the polls fail on a 401 that echoes the key: n8n logs the error (2.41) or stores it as an execution (1.x).
			await crm.control('DELETE', '/faults');
			await crm.fault({
				status: 401,
				echoKey: 'escaped',
				method: 'GET',
				pathPrefix: '/api/v1/leads',
				count: 1_000,
			});
			const failed = await waitFor(
				async () => {
					const stored = JSON.stringify(await n8n.executions(workflow.id));
					return logText().includes('The API key [redacted] is not valid') ||
						stored.includes('The API key [redacted] is not valid')
						? stored
						: undefined;
				},
				40_000,
				"the failed poll's error",
			);
			expect(shows(failed)).toEqual([]);
		} finally {
			await crm.control('DELETE', '/faults');
			await n8n.deactivate(workflow.id).catch(() => undefined);
			await n8n.deleteWorkflow(workflow.id);
		}
		expect(shows(logText())).toEqual([]);
	});
});

describe(`a redirect of the same host to a malformed API path, in real n8n ${env.n8nVersion}`, () => {
	it('Lead → Get answered 302 to an API path where a malformed escape (%E0) sits beside an encoded "..": refused, not followed', async () => {
		const lead = await crm.api('POST', '/leads', { name: 'Redirected inside' });
		const location = '/api/v1/leads/x%E0%2F..%2Fusers';
		await crm.fault({
			status: 302,
			location,
			method: 'GET',
			pathPrefix: `/api/v1/leads/${lead.id}`,
		});

		const run = await runAction({ parameters: getLead(lead.id) });

		expect(run.execution.status).toBe('error');
		expect(nodeError(run.execution)?.message).toBe(
			`The CRM API answered 302 with a redirect to ${location}, outside the API (/api/v1 or /api/v2). The node did not follow it: the API key was not sent there`,
		);
		const gets = (await crm.requests()).filter((request) => request.method === 'GET');
		expect(gets.map((request) => request.path)).toEqual([`/api/v1/leads/${lead.id}`]);
	});
});

describe(`a redirect whose Location splits the key with a TAB, in real n8n ${env.n8nVersion}`, () => {
	const key = env.sandboxKeys.admin;
	const split = `${key.slice(0, 10)}\t${key.slice(10)}`;

	it.each([
		['in a path of the same host', `/admin/${split}`],
		['upper-cased in another host', `https://${split.toUpperCase()}.example.test/x`],
	])(
		'%s: URL parsing drops the TAB, and the error still shows no key',
		async (_where, location) => {
			const lead = await crm.api('POST', '/leads', { name: 'Tab in the key' });
			await crm.fault({
				status: 302,
				location,
				method: 'GET',
				pathPrefix: `/api/v1/leads/${lead.id}`,
			});

			const run = await runAction({ parameters: getLead(lead.id) });

			expect(run.execution.status).toBe('error');
			expect(nodeError(run.execution)?.message).toMatch(/redirect to .*\[redacted\]/);
			expect(JSON.stringify(run.execution).toLowerCase()).not.toContain(key.slice(10));
			expect((await crm.requests()).filter((request) => !request.path.startsWith('/api/'))).toEqual(
				[],
			);
		},
	);
});

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Issue 23 in real n8n: a key holding `/`, `+` and `=`, echoed JSON-escaped in an error: no spelling of it in the stored
 * execution or n8n's log. Every spelling in the node's errors and output, and the redirect and clock edges:
 * test/unit/transport/redactEscapes.test.ts, redirectRule.test.ts and rateLimit.test.ts.
 */
import { readFileSync } from 'node:fs';

import {
	e2eEnv,
	getLead,
	n8nClient,
	nodeError,
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
			pollingWorkflow(`e2e escaped key poll ${Date.now()}`, ['newLead'], {}, credential),
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

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Issue 17, point 5, in real n8n: many executions at once on one key against the sandbox's rate limit: none fails and
 * no window of the CRM receives more than its limit, also when another client spends part of it (speed: bench/pacer.ts).
 */
import { e2eEnv, n8nClient, sandbox } from './lib';
import { concurrentLeadGets, requestsPerWindow } from './pacerLoad';

const env = e2eEnv();
const crm = sandbox(env);
const n8n = n8nClient(env);

const LIMIT = 10;
const WINDOW_MS = 2_000;

/** A credential of its own: the pacer is per base URL, key and rate, so it starts fresh in n8n's process. */
async function freshCredential(requestsPerMinute: number): Promise<{ id: string; name: string }> {
	return await n8n.createCredential(`CRM Sandbox (pacer e2e ${requestsPerMinute}/min)`, {
		baseUrl: env.sandboxUrl,
		apiKey: env.sandboxKeys.admin,
		requestsPerMinute,
	});
}

describe(`the pacer in n8n ${env.n8nVersion}: several executions at once on one key`, () => {
	afterAll(async () => {
		await crm.config({ rateLimit: { limit: 600, windowMs: 60_000 } });
	});

	it.each([
		{ executions: 24, spentByOthers: 0, requestsPerMinute: 300 },
		{ executions: 12, spentByOthers: 4, requestsPerMinute: 299 },
	])(
		`$executions executions of Lead → Get at ${LIMIT} requests / ${WINDOW_MS / 1000} s, $spentByOthers of each window spent by another client: none fails, no 429, no window over what is left`,
		async ({ executions, spentByOthers, requestsPerMinute }) => {
			await crm.reset();
			const lead = await crm.api<{ id: string }>('POST', '/leads', { name: 'Paced Lead' });
			// (after the lead is made: a new limit starts with fresh windows)
			await crm.config({ rateLimit: { limit: LIMIT, windowMs: WINDOW_MS, spentByOthers } });
			const credential = await freshCredential(requestsPerMinute);

			const result = await concurrentLeadGets({
				client: n8n,
				webhookUrl: env.webhookUrl ?? env.n8nUrl,
				credential,
				control: crm.control,
				executions,
				leadId: lead.id,
			});

			expect(result.statuses).toEqual(Array(executions).fill(200));
			expect(result.failed).toBe(0);
			expect(result.refused).toBe(0);
			expect(result.requests).toHaveLength(executions);
			const perWindow = requestsPerWindow(result.requests, WINDOW_MS);
			expect(Math.max(...perWindow)).toBeLessThanOrEqual(LIMIT - spentByOthers);
		},
		120_000,
	);
});

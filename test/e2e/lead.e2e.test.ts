import { e2eEnv, getLead, nodeError, runAction, sandbox } from './lib';

const env = e2eEnv();
const crm = sandbox(env);

describe(`Lead in real n8n ${env.n8nVersion}`, () => {
	beforeEach(async () => {
		await crm.clearRequests();
	});

	it("creates a lead in the sandbox and reads it back, sending the credential's x-api-key", async () => {
		const created = await runAction(
			{
				parameters: {
					resource: 'lead',
					operation: 'create',
					name: '={{ $json.body.name }}',
					additionalFields: { email: 'ada@example.com', value: 1200 },
				},
			},
			{ name: 'Ada Lovelace' },
		);
		expect(created.status).toBe(200);
		expect(created.items).toHaveLength(1);
		const lead = created.items[0];
		expect(lead).toMatchObject({
			name: 'Ada Lovelace',
			email: 'ada@example.com',
			value: 1200,
			archived: false,
		});
		expect(lead.id).toEqual(expect.any(String));

		const fetched = await runAction({ parameters: getLead(lead.id) });
		expect(fetched.items).toEqual([lead]);

		const requests = (await crm.requests()).filter((request) => request.path.startsWith('/api/'));
		expect(
			requests.map((request) => `${request.method} ${request.path} ${request.status}`),
		).toEqual(['POST /api/v1/leads 200', `GET /api/v1/leads/${lead.id} 200`]);
		expect(requests[0].body).toEqual({
			name: 'Ada Lovelace',
			email: 'ada@example.com',
			value: 1200,
		});
		for (const request of requests)
			expect(request.headers['x-api-key']).toBe(env.sandboxKeys.admin);
	});

	it('fails the execution with a clear 401 error when the key is wrong, without showing the key', async () => {
		const run = await runAction({ credential: 'badKey', parameters: getLead('lead_1') });
		expect(run.execution.status).toBe('error');
		expect(nodeError(run.execution)?.message).toMatch(/401 UNAUTHORIZED/);
		expect(JSON.stringify(run.execution)).not.toContain('sk_wrong_key_for_tests');
		const requests = await crm.requests();
		expect(requests.at(-1)).toMatchObject({ method: 'GET', status: 401 });
	});
});

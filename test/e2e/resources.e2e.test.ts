/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Invoice → Create in real n8n: line items saved as a user leaves them (one without Quantity), n8n filling in the
 * parameters' defaults before the node reads them. Each operation's requests and output: test/unit/actions/.
 */
import { seededId } from '../sandbox/store';
import { e2eEnv, runAction, sandbox, type SandboxRequest } from './lib';

const env = e2eEnv();
const crm = sandbox(env);

const ACME = seededId('cli_', 'client:1');
const SOFTWARE_LICENCE = seededId('prd_', 'product:2');

/** The API requests the sandbox received since the last clearRequests() (not its control calls). */
async function apiRequests(): Promise<SandboxRequest[]> {
	return (await crm.requests()).filter((request) => request.path.startsWith('/api/'));
}

/** The API requests, each with the admin credential's key, as "METHOD path status". */
async function calls(): Promise<string[]> {
	const requests = await apiRequests();
	for (const request of requests) expect(request.headers['x-api-key']).toBe(env.sandboxKeys.admin);
	return requests.map((request) => `${request.method} ${request.path} ${request.status}`);
}

function expectSucceeded(run: { status: number; execution: any }): void {
	expect(run.execution.status).toBe('success');
	expect(run.status).toBe(200);
}

describe(`A resource in real n8n ${env.n8nVersion}`, () => {
	beforeAll(async () => {
		await crm.reset();
	});

	beforeEach(async () => {
		await crm.clearRequests();
	});

	afterAll(async () => {
		await crm.reset();
	});

	describe('Invoice', () => {
		it('creates an invoice from line items entered in the form, n8n filling in a missing Quantity', async () => {
			const run = await runAction({
				parameters: {
					resource: 'invoice',
					operation: 'create',
					clientId: ACME,
					date: '2026-03-01T09:00:00.000Z',
					dueDate: '2026-03-31T09:00:00.000Z',
					lineItemsSource: 'fields',
					lineItems: {
						items: [
							// Every field of the form, as shown after filling it in ...
							{
								name: 'Consulting',
								quantity: 2,
								price: 150,
								taxRateId: 'tax_vat20',
								description: 'Workshop',
								discount: 0,
								buyPrice: 0,
								discountType: '',
								productId: '',
							},
							// ... and only the fields that differ from their defaults (quantity 1 is n8n's to fill in).
							{ productId: SOFTWARE_LICENCE, price: 1200 },
						],
					},
					additionalFields: {},
				},
			});
			expectSucceeded(run);
			expect(await calls()).toEqual(['POST /api/v1/invoices 200']);
			expect((await apiRequests())[0].body).toEqual({
				clientId: ACME,
				date: '2026-03-01T09:00:00.000Z',
				dueDate: '2026-03-31T09:00:00.000Z',
				lineItems: [
					{
						name: 'Consulting',
						quantity: 2,
						price: 150,
						taxRateId: 'tax_vat20',
						description: 'Workshop',
					},
					{ productId: SOFTWARE_LICENCE, quantity: 1, price: 1200 },
				],
			});
			expect(run.items).toHaveLength(1);
		});
	});
});

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** The sandbox switch "a delivery sent while the subscription is being created", and the retry schedule it relies on. */
import { startSandbox } from './server';
import type { Sandbox } from './types';
import { call, type Receiver, startReceiver, waitFor } from './helpers';

jest.setTimeout(20_000);

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
	await Promise.all(opened.splice(0).map((item) => item.close()));
});

async function setUp(
	respond?: Receiver['respond'],
): Promise<{ sandbox: Sandbox; receiver: Receiver }> {
	const sandbox = await startSandbox({ rateLimit: false, timeScale: 0.001 });
	const receiver = await startReceiver(respond);
	opened.push(sandbox, receiver);
	return { sandbox, receiver };
}

describe('deliverOnCreate', () => {
	it('is off by default: creating a subscription sends nothing', async () => {
		const { sandbox, receiver } = await setUp();
		expect(sandbox.config.deliverOnCreate).toBe(false);
		await call(sandbox, 'POST', '/api/v1/webhooks', {
			body: { name: 'h', url: receiver.url, events: ['lead.created'] },
		});
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(receiver.received).toEqual([]);
	});

	it('queues one delivery to the new subscription only, sent after the creation was answered', async () => {
		const { sandbox, receiver } = await setUp();
		const other = await call(sandbox, 'POST', '/api/v1/webhooks', {
			body: { name: 'other', url: `${receiver.url}/other`, events: ['lead.created'] },
		});
		const config = await call(sandbox, 'POST', '/__sandbox/config', {
			body: { deliverOnCreate: { payload: { id: 'lead_x' } } },
		});
		expect(config.body.deliverOnCreate).toEqual({ payload: { id: 'lead_x' } });

		let answeredAt = 0;
		const created = await call(sandbox, 'POST', '/api/v1/webhooks', {
			body: { name: 'h', url: receiver.url, events: ['deal.updated', 'lead.created'] },
		});
		answeredAt = Date.now();
		expect(created.status).toBe(200);
		const [delivery] = await waitFor(
			() => (receiver.received.length > 0 ? receiver.received : undefined),
			3_000,
			'the delivery',
		);
		expect(delivery.path).toBe('/hook');
		expect(JSON.parse(delivery.rawBody)).toMatchObject({
			event: 'deal.updated',
			payload: { id: 'lead_x' },
		});
		expect(delivery.receivedAt).toBeGreaterThanOrEqual(answeredAt - 50);
		await sandbox.deliveriesSettled(3_000);
		expect(sandbox.deliveries.map((entry) => entry.subscriptionId)).toEqual([created.body.id]);
		expect(sandbox.deliveries.some((entry) => entry.subscriptionId === other.body.id)).toBe(false);
	});

	it('a 503 answer is retried on the (time-scaled) schedule until 2xx; a 401 would not be', async () => {
		const { sandbox, receiver } = await setUp((index) => (index < 2 ? 503 : 200));
		await call(sandbox, 'POST', '/__sandbox/config', { body: { deliverOnCreate: true } });
		await call(sandbox, 'POST', '/api/v1/webhooks', {
			body: { name: 'h', url: receiver.url, events: ['lead.created'] },
		});
		await waitFor(
			() => sandbox.deliveries.some((entry) => entry.outcome === 'delivered'),
			5_000,
			'delivered',
		);
		expect(sandbox.deliveries.map((entry) => [entry.status, entry.outcome])).toEqual([
			[503, 'retrying'],
			[503, 'retrying'],
			[200, 'delivered'],
		]);
		await call(sandbox, 'POST', '/__sandbox/config', { body: { deliverOnCreate: false } });
		expect(sandbox.config.deliverOnCreate).toBe(false);
	});

	it('refuses a malformed setting', async () => {
		const { sandbox } = await setUp();
		const response = await call(sandbox, 'POST', '/__sandbox/config', {
			body: { deliverOnCreate: { event: 3 } },
		});
		expect(response.status).toBe(400);
	});
});

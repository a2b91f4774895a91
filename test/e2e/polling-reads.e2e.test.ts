/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * What the CRM Invoicing Polling Trigger reads and emits in real n8n, polling the sandbox every 5 s: any lead id, the
 * requests of an idle poll in both list orders, a lead it cannot emit, and the full read that finds a lead listed out
 * of order. The poller's own code decides these, the same on every n8n version: n8n 2.41.0 runs this file, plainly and
 * under its durable scheduler (polling.e2e.test.ts has what n8n's scheduling decides).
 */
import { readFileSync } from 'node:fs';

import {
	e2eEnv,
	finishedExecutions,
	leadListPolls,
	POLL_MS,
	polledItems,
	pollingWorkflow,
	polls,
	sandbox,
	sleep,
	waitFor,
	withActiveWorkflow,
} from './lib';

const env = e2eEnv();
const crm = sandbox(env);

jest.setTimeout(240_000);

const emitted = async (workflowId: string) => await polledItems(workflowId, env);

/**
 * Waits for the first poll, which reads the whole list (3 pages of the 250 leads seeded), then clears the request log.
 * Under the durable scheduler n8n keeps nothing of the poll at activation, so the first scheduled poll reads the whole
 * list again (docs/polling-trigger.md).
 */
async function afterFirstFullRead(): Promise<void> {
	const fullReads = env.scheduler ? 2 : 1;
	await waitFor(
		async () => (await leadListPolls(env)).filter((requests) => requests >= 3).length >= fullReads,
		40_000,
		'the poll that reads the whole list',
	);
	await crm.clearRequests();
}

const under = env.scheduler ? ' under its durable poll scheduler with durable cursors' : '';

describe(`What the CRM Invoicing Polling Trigger reads and emits in real n8n ${env.n8nVersion}${under}`, () => {
	afterAll(async () => {
		await crm.config({ listOrder: 'oldest' });
		await crm.reset();
	});

	// Issue 40 point 12 (the memory keyed by any id) and issue 43 (an update lost under the durable scheduler).
	it('a lead whose id is "constructor": New Lead once; two changes of it, each polled: two Updated Lead items', async () => {
		await crm.reset();
		await crm.config({ listOrder: 'newest' });
		await withActiveWorkflow(
			pollingWorkflow('e2e polling any id', ['newLead', 'updatedLead']),
			async (workflowId) => {
				await crm.clearRequests();
				await polls(2, env);
				// The API gives leads ids of its own: the sandbox's import keeps the id it is given.
				await crm.control('POST', '/import', {
					leads: [
						{ id: 'constructor', name: 'Object Prototype', createdAt: new Date().toISOString() },
					],
				});
				const itemsOf = async () =>
					(await emitted(workflowId)).map((item) => [item.id, item._event, item.title]);
				const until = async (count: number, what: string) =>
					await waitFor(async () => (await emitted(workflowId)).length >= count, 40_000, what);
				await until(1, 'the New Lead item');
				for (const title of ['First Title', 'Second Title']) {
					await crm.api('PATCH', '/leads/constructor', { title });
					await until(title === 'First Title' ? 2 : 3, `the Updated Lead item for "${title}"`);
				}
				await sleep(POLL_MS + 3_000);
				expect(await itemsOf()).toEqual([
					['constructor', 'newLead', null],
					['constructor', 'updatedLead', 'First Title'],
					['constructor', 'updatedLead', 'Second Title'],
				]);
			},
		);
	});

	it.each(['newest', 'oldest'])(
		'an idle poll of 250 leads, New Lead only, listed %s first: 1 request newest first, 3 oldest first',
		async (order) => {
			await crm.reset();
			await crm.control('POST', '/seed', { leads: 247 });
			await crm.config({ listOrder: order });
			await withActiveWorkflow(
				pollingWorkflow(`e2e polling idle ${order}`, ['newLead']),
				async (workflowId) => {
					// Let the first poll (which reads everything) pass, then count the requests of the next idle polls.
					await afterFirstFullRead();
					await sleep(2 * POLL_MS + 5_000);
					const counts = await leadListPolls(env);
					expect(counts.length).toBeGreaterThanOrEqual(2);
					for (const requests of counts) expect(requests).toBe(order === 'newest' ? 1 : 3);
					expect(await finishedExecutions(workflowId)).toEqual([]);
				},
			);
		},
	);

	// Issue 23: no lead stops the trigger, and a lead listed out of order is found within the documented bound.
	it("a lead nested 10,000 levels deep among new ones: the others are emitted, it is named in n8n's log, polls go on", async () => {
		await crm.reset();
		await crm.config({ listOrder: 'newest' });
		const logFrom = readFileSync(env.logFile).length;
		await withActiveWorkflow(
			pollingWorkflow('e2e polling deep lead', ['newLead']),
			async (workflowId) => {
				await crm.clearRequests();
				await polls(2, env);
				const before = await crm.api('POST', '/leads', { name: 'Before The Deep One' });
				// The body written by hand: JSON.stringify itself cannot write 10,000 levels.
				const depth = 10_000;
				const response = await fetch(`${env.sandboxUrl}/api/v1/leads`, {
					method: 'POST',
					headers: { 'content-type': 'application/json', 'x-api-key': env.sandboxKeys.admin },
					body: `{"name":"Deep","customFields":{"tree":${'['.repeat(depth)}"leaf"${']'.repeat(depth)}}}`,
				});
				expect(response.status).toBe(200);
				const deepId = ((await response.json()) as { id: string }).id;
				const after = await crm.api('POST', '/leads', { name: 'After The Deep One' });

				await waitFor(
					async () => (await emitted(workflowId)).length >= 2,
					40_000,
					'the two readable leads',
				);
				await crm.clearRequests();
				await polls(2, env);
				const items = await emitted(workflowId);
				expect(items.map((item) => item.id)).toEqual([before.id, after.id]);
				expect(items.some((item) => item.id === deepId)).toBe(false);
				const log = readFileSync(env.logFile).subarray(logFrom).toString('utf8');
				expect(log).toContain(
					`lead ${deepId} ("Deep") was not emitted: its field "customFields" is nested more than 512 levels deep`,
				);
				// Named once, not at every poll.
				expect(log.split(`lead ${deepId} ("Deep") was not emitted`)).toHaveLength(2);
			},
		);
	});

	it('a lead imported with an old createdAt, listed on page 3 (newest first by createdAt): emitted once, by the full read within Full Read Interval (1 minute) plus one poll', async () => {
		await crm.reset();
		await crm.control('POST', '/seed', { leads: 247 });
		await crm.config({ listOrder: 'newestCreated' });
		await withActiveWorkflow(
			pollingWorkflow('e2e polling backdated lead', ['newLead'], { fullReadInterval: 1 }),
			async (workflowId) => {
				// The first poll reads the whole list: the last full read is no later than now.
				await afterFirstFullRead();
				const lastFullRead = Date.now();
				await polls(2, env);
				expect(await leadListPolls(env)).toEqual([1, 1]);
				const [imported] = await crm.control<Array<{ id: string }>>('POST', '/import', {
					leads: [{ name: 'Imported 2019', createdAt: '2019-06-01T00:00:00Z' }],
				});

				// The documented bound: Full Read Interval (60 s) after the last full read, plus one poll interval (5 s),
				// plus the time a poll and its execution take here (a busy 2-core machine: up to 20 s).
				const bound = 60_000 + POLL_MS + 20_000;
				const found = await waitFor(
					async () => (await emitted(workflowId)).find((item) => item.id === imported.id),
					lastFullRead + bound - Date.now(),
					'the imported lead',
				);
				expect(found).toMatchObject({ name: 'Imported 2019', _event: 'newLead' });
				// Found by a full read (3 pages), not by the head (1 page), which cannot see page 3.
				expect(
					(await leadListPolls(env)).filter((requests) => requests === 3).length,
				).toBeGreaterThanOrEqual(1);
				await sleep(POLL_MS + 3_000);
				expect((await emitted(workflowId)).filter((item) => item.id === imported.id)).toHaveLength(
					1,
				);
			},
		);
	});
});

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * The CRM Invoicing Polling Trigger in real n8n, polling every 5 s: what n8n's scheduling decides (the poll at
 * activation, the poll after a restart), on both versions and under 2.41's durable scheduler, and there the poll's time
 * budget (a whole read that outlasts it). Items are counted per lead across executions, so the tests hold however
 * n8n's polls fall.
 */
import {
	e2eEnv,
	finishedExecutions,
	POLL_MS,
	emittedItems,
	POLLING_NODE_NAME,
	pollingWorkflow,
	polls,
	restartN8n,
	sandbox,
	sleep,
	waitFor,
	withActiveWorkflow,
} from './lib';

const env = e2eEnv();
const crm = sandbox(env);

jest.setTimeout(240_000);

const emitted = async (workflowId: string) =>
	await emittedItems(workflowId, POLLING_NODE_NAME, env);

const under = env.scheduler ? ' under its durable poll scheduler with durable cursors' : '';

describe(`CRM Invoicing Polling Trigger in real n8n ${env.n8nVersion}${under}`, () => {
	afterAll(async () => {
		await crm.config({ listOrder: 'oldest' });
		await crm.reset();
	});

	it('first poll: nothing; three new leads: three New Lead items, then none; two edits: two Updated items; a lead created while n8n was down: once', async () => {
		await crm.reset();
		await crm.config({ listOrder: 'newest' });
		await withActiveWorkflow(
			pollingWorkflow('e2e polling trigger', ['newLead', 'updatedLead']),
			async (workflowId) => {
				// The activation poll and at least one scheduled poll: the existing leads are only remembered.
				await crm.clearRequests();
				await polls(2, env);
				expect(await finishedExecutions(workflowId)).toEqual([]);

				const leads = [];
				for (const name of ['Poll One', 'Poll Two', 'Poll Three'])
					leads.push(await crm.api('POST', '/leads', { name }));
				await waitFor(
					async () => (await emitted(workflowId)).length >= 3,
					30_000,
					'the three new leads',
				);
				await sleep(POLL_MS + 3_000);
				const after = await emitted(workflowId);
				expect(after.map((item) => [item.name, item._event])).toEqual([
					['Poll One', 'newLead'],
					['Poll Two', 'newLead'],
					['Poll Three', 'newLead'],
				]);

				// Two changes of one lead, a poll apart (issue 43 saw the second one lost): two Updated items.
				for (const [count, title] of [
					[4, 'Head of Ops'],
					[5, 'COO'],
				] as const) {
					await crm.api('PATCH', `/leads/${leads[1].id}`, { title });
					await waitFor(
						async () => (await emitted(workflowId)).length >= count,
						30_000,
						`the Updated Lead item for ${title}`,
					);
				}
				await sleep(POLL_MS + 3_000);
				expect((await emitted(workflowId)).slice(3)).toEqual([
					expect.objectContaining({ id: leads[1].id, title: 'Head of Ops', _event: 'updatedLead' }),
					expect.objectContaining({ id: leads[1].id, title: 'COO', _event: 'updatedLead' }),
				]);

				// Restart: the lead is created while n8n is stopped; n8n's poll at start-up emits it, once.
				const restart = restartN8n();
				// Awaited below, once the lead is created: marked handled now, so that a failure meanwhile is not unhandled.
				restart.catch(() => undefined);
				await waitFor(
					async () => {
						try {
							await fetch(`${env.n8nUrl}/healthz`, { signal: AbortSignal.timeout(1_000) });
							return false;
						} catch {
							return true;
						}
					},
					60_000,
					'n8n to stop',
				);
				const whileDown = await crm.api('POST', '/leads', { name: 'Created While Down' });
				await restart;
				await waitFor(
					async () => (await emitted(workflowId)).some((item) => item.id === whileDown.id),
					90_000,
					'the lead created while n8n was down',
				);
				await sleep(2 * POLL_MS + 3_000);
				const final = await emitted(workflowId);
				expect(final.filter((item) => item.id === whileDown.id)).toEqual([
					expect.objectContaining({ name: 'Created While Down', _event: 'newLead' }),
				]);
				// Nothing else was emitted again after the restart.
				expect(final).toHaveLength(6);
			},
		);
	});

	// Issue 43: under the durable scheduler a poll has n8n's budget (10 s here: scripts/e2e.ts sets its timeout to 15 s).
	// Each page here takes 3 s, so a whole read of six pages (18 s) outlasts even n8n's timeout: it must stop within the
	// budget and go on at the next poll.
	const underScheduler = env.scheduler ? it : it.skip;
	underScheduler(
		'a whole read longer than the poll budget goes on at the next poll: each change once',
		async () => {
			await crm.reset();
			await crm.config({ listOrder: 'oldest' });
			await crm.control('POST', '/seed', { leads: 584 });
			const [first] = (await crm.api('GET', '/leads?limit=1')).items;
			const last = await crm.api('POST', '/leads', { name: 'Last Before Activation' });
			await crm.config({ leadListDelayMs: 3_000 });
			try {
				await withActiveWorkflow(
					pollingWorkflow('e2e polling budget', ['newLead', 'updatedLead']),
					async (workflowId) => {
						await crm.clearRequests();
						// Two whole reads (three started): the leads are remembered (the first scheduled read only remembers).
						await polls(3, env, 120_000);
						expect(await emitted(workflowId)).toEqual([]);
						// A change on the first page, one on the last, and a new lead (the last page: 589 leads in all).
						await crm.api('PATCH', `/leads/${first.id}`, { title: 'Changed On Page One' });
						await crm.api('PATCH', `/leads/${last.id}`, { title: 'Changed On Page Six' });
						const created = await crm.api('POST', '/leads', { name: 'New On Page Six' });
						await waitFor(
							async () => (await emitted(workflowId)).length >= 3,
							120_000,
							'the three changes',
						);
						// One more whole read (two started) emits nothing.
						await crm.clearRequests();
						await polls(2, env, 120_000);
						const items = await emitted(workflowId);
						expect(items.map((item) => `${item.id} ${item._event}`).sort()).toEqual(
							[`${first.id} updatedLead`, `${last.id} updatedLead`, `${created.id} newLead`].sort(),
						);
					},
				);
			} finally {
				await crm.config({ leadListDelayMs: 0 });
			}
		},
		300_000,
	);
});

/** Issue 40, points 2, 4 and 5, against the sandbox CRM: the trigger deletes only what it provably owns, whatever a
 * POST /webhooks answers; URLs are compared as URLs. */
import type { IDataObject } from 'n8n-workflow';

import { sameUrl } from '../../../nodes/CrmInvoicing/trigger/ownership';
import { loggedMessages, TEST_CREDENTIALS } from '../../helpers/harness';
import { restoreNockAfterFile } from '../../helpers/nock';
import { call } from '../../sandbox/helpers';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import {
	activate,
	earlierSubscription,
	logged,
	PRODUCTION_URL,
	SECRET,
	storedSubscription,
	tagFor,
	triggerHooks,
	wrapAsStored,
} from '../../helpers/trigger';

restoreNockAfterFile();

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ rateLimit: false });
});
afterAll(async () => await sandbox.close());
beforeEach(async () => {
	sandbox.reset();
	loggedMessages.length = 0;
	await configure({ onePerUrl: false, normalUrls: false });
});

async function configure(config: IDataObject): Promise<void> {
	expect(
		(await call(sandbox, 'POST', '/__sandbox/config', { key: null, body: config })).status,
	).toBe(200);
}

const hooks = (staticData: IDataObject, webhookUrl = PRODUCTION_URL) =>
	triggerHooks({
		staticData,
		webhookUrl,
		credentials: { ...TEST_CREDENTIALS, baseUrl: sandbox.url, apiKey: sandbox.keys.admin },
	});

/** A subscription made at the CRM (by hand, by this trigger earlier, by another one): its id. */
async function made(name: string, url = PRODUCTION_URL): Promise<string> {
	const body = { name, url, events: ['lead.created', 'deal.stage_changed'] };
	return (await call(sandbox, 'POST', '/api/v1/webhooks', { body })).body.id as string;
}

const subscriptions = () => sandbox.state.webhooks.values().map((known) => known.id);
const deletes = () => sandbox.requests.filter((request) => request.method === 'DELETE');
const ours = `n8n: Leads to Slack [n8n:${tagFor()}]`;
const others = `n8n: other [n8n:${tagFor('trigger', { workflowId: 'other' })}]`;

const EXAMPLE = 'https://n8n.example.com';
it.each([
	['HTTPS://N8N.Example.com:443/webhook/a/webhook', `${EXAMPLE}/webhook/a/webhook`, true],
	['http://127.0.0.1:80/x', 'http://127.0.0.1/x', true],
	[`${EXAMPLE}/Webhook/a`, `${EXAMPLE}/webhook/a`, false],
	[`${EXAMPLE}:8443/x`, `${EXAMPLE}/x`, false],
	['not a url', 'not a url', false],
	[undefined, undefined, false],
])('sameUrl compares URLs as URLs, the same only in normal form: %p and %p, %p', (a, b, same) => {
	expect(sameUrl(a, b)).toBe(same);
});

describe.each(['answer', 'conflict'] as const)(
	'a CRM that keeps one subscription per URL (%s)',
	(onePerUrl) => {
		beforeEach(async () => await configure({ onePerUrl }));

		it('recovers after a key change and a restart: the stored subscription (its own) is replaced once, and one remains', async () => {
			const old = await made(ours);
			// Its secret was wrapped under a key the credential no longer holds, and no process holds it.
			const staticData = storedSubscription({
				subscriptionId: old,
				secretWrapped: wrapAsStored(SECRET, old, 'sk_the_old_key'),
			});
			const from = sandbox.requests.length;
			await activate(hooks(staticData));
			expect(subscriptions()).toEqual([staticData.subscriptionId]);
			expect(staticData.subscriptionId).not.toBe(old);
			const posts = sandbox.requests.slice(from).filter((request) => request.method === 'POST');
			expect(posts).toHaveLength(2);
			expect(logged()).toContain(
				`the CRM keeps one webhook subscription per URL and held this trigger's ${old} at it`,
			);
		});

		it.each([
			['made by hand', 'Made by hand in the CRM'],
			["another workflow's trigger", others],
		])(
			'a subscription at its URL %s is never deleted: activation fails with an error that names it',
			async (_case, name) => {
				const foreign = await made(name);
				const trigger = hooks({});
				const error = (await activate(trigger).catch((caught: unknown) => caught)) as Error & {
					description?: string;
				};
				expect(error).toBeInstanceOf(Error);
				if (onePerUrl === 'answer') {
					expect(error.message).toContain(`webhook subscription ${foreign}`);
					expect(error.description).toContain(`Webhook Subscription → Delete, ID ${foreign}`);
				} else {
					expect(error.message).toContain(`(409: it already holds one there)`);
					expect(error.description).toContain('Webhook Subscription → Get Many');
				}
				expect(subscriptions()).toEqual([foreign]);
				expect(deletes()).toEqual([]);
				expect(trigger.staticData.subscriptionId).toBeUndefined();
			},
		);
	},
);

it('a POST answer naming a retired subscription of this trigger is never deleted', async () => {
	await configure({ onePerUrl: 'answer' });
	const retired = await made(ours);
	const staticData = {
		retiredSubscriptions: [{ id: retired, url: 'https://old.example.com/webhook/x/webhook' }],
	};
	await expect(hooks(staticData).create()).rejects.toThrow(`webhook subscription ${retired}`);
	expect(subscriptions()).toEqual([retired]);
	expect(deletes()).toEqual([]);
});

const ODD_URL = PRODUCTION_URL.replace('https://n8n.example.com/', 'HTTPS://N8N.Example.com:443/');

it('a CRM that stores URLs in normal form: start-up after start-up (n8n 1.x runs checkExists) keeps the one subscription: none created, retired or deleted', async () => {
	await configure({ normalUrls: true });
	const staticData: IDataObject = {};
	await activate(hooks(staticData, ODD_URL));
	const [id] = subscriptions();
	expect(sandbox.state.webhooks.get(id)?.url).toBe(PRODUCTION_URL);
	for (let restart = 0; restart < 2; restart++)
		await expect(hooks(staticData, ODD_URL).checkExists()).resolves.toBe(true);
	expect(subscriptions()).toEqual([id]);
	expect(staticData.subscriptionId).toBe(id);
	expect(staticData.retiredSubscriptions).toBeUndefined();
	// Its own subscription, at its URL in the CRM's form: deleted at deactivation.
	await hooks(staticData, ODD_URL).delete();
	expect(subscriptions()).toEqual([]);
});

it.each([
	['at this URL, without a tag', 'n8n: Leads to Slack', PRODUCTION_URL, true],
	['at another URL', 'n8n: Leads to Slack', 'https://elsewhere.example.com/w', false],
	["with another node's tag", others, PRODUCTION_URL, false],
])(
	'a subscription stored by 0.1 (no tag) %s: deleted only when the CRM shows it at this URL without another tag',
	async (_case, name, url, deleted) => {
		const legacy = await made(name, url);
		const staticData = earlierSubscription('0.1', { webhookId: legacy });
		await expect(hooks(staticData).delete()).resolves.toBe(true);
		expect(subscriptions()).toEqual(deleted ? [] : [legacy]);
		expect(staticData.webhookId ?? staticData.subscriptionId).toBeUndefined();
	},
);

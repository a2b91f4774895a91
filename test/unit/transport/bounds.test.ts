/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** The request function against the sandbox's real HTTP faults: deadline, byte cap, 2xx shape, redaction, stop (TLS: errors.test). */

import type { INodeParameters } from 'n8n-workflow';

import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { CrmInvoicingTrigger } from '../../../nodes/CrmInvoicing/CrmInvoicingTrigger.node';
import { apiRequest, readList } from '../../../nodes/CrmInvoicing/shared/transport';
import type { ApiContext } from '../../../nodes/CrmInvoicing/shared/transport';
import { READ } from '../../../nodes/CrmInvoicing/shared/transport/limits';
import {
	createExecuteContext,
	createHookContext,
	createWebhookContext,
	errorOf,
	runNode,
} from '../../helpers/harness';
import { shownOf } from '../../helpers/transport';
import { startSandbox } from '../../sandbox/server';
import type { Sandbox } from '../../sandbox/types';

jest.setTimeout(30_000);

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ rateLimit: false });
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => sandbox.reset());

function credentials(apiKey = sandbox.keys.admin, baseUrl = sandbox.url) {
	return { baseUrl, apiKey, requestsPerMinute: 1_000_000 };
}

function context(apiKey?: string, baseUrl?: string) {
	return createExecuteContext({
		nodeType: new CrmInvoicing(),
		parameters: { resource: 'lead', operation: 'get' },
		credentials: credentials(apiKey, baseUrl),
	}).context;
}

function addFault(fault: Record<string, unknown>): void {
	sandbox.addFault({ count: 1, ...fault } as never);
}

const TRICKLE = { status: 200, trickle: { intervalMs: 100, bytes: 1_000 } };
const getLead = (on: ApiContext = context(), extra: Record<string, unknown> = {}) =>
	apiRequest.call(on, { method: 'GET', path: '/leads/lead_1', ...extra });
const leadGet = {
	resource: 'lead',
	operation: 'get',
	leadId: { __rl: true, mode: 'id', value: 'lead_1' },
};

const run = (parameters: INodeParameters, typeVersion?: number) =>
	runNode({ nodeType: new CrmInvoicing(), parameters, typeVersion, credentials: credentials() });

async function waitUntil(check: () => boolean, timeoutMs = 3_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > deadline) throw new Error('condition not met in time');
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

const closedByClient = () => waitUntil(() => sandbox.streams[0]?.closedByClient === true);

describe('a wall-clock deadline per attempt', () => {
	const trigger = () => ({
		nodeType: new CrmInvoicingTrigger(),
		parameters: { events: ['lead.created'] },
		credentials: credentials(),
	});
	it.each<[string, () => ApiContext]>([
		['an execution', () => context()],
		// The trigger's checkExists, create and delete run in a hook context, which has no execution signal.
		[
			'a hook context',
			() => createHookContext({ ...trigger(), webhookUrl: 'https://x.test/w' }).context,
		],
		// A delivery with Output Full Record, which must answer within the CRM's 20 s.
		[
			'a webhook context',
			() => createWebhookContext({ ...trigger(), headers: {}, rawBody: Buffer.from('{}') }).context,
		],
	])(
		'in %s, stops a body that trickles 1 byte per interval at the deadline, and says the answer had started',
		async (_name, make) => {
			addFault(TRICKLE);
			const started = make();

			const error = await errorOf(getLead(started, { deadline: Date.now() + 700 }));

			// The message names the time left when the request started: 0.6 s on a machine too busy to start it at once.
			expect(error.message).toMatch(
				/^The CRM API answered 200 but did not finish sending its answer GET \/api\/v1\/leads\/lead_1 within 0\.[67] s; the node abandoned the request$/,
			);
			// The connection was closed: the sandbox saw the client go, and had sent only a few bytes.
			await closedByClient();
			expect(sandbox.streams[0].bytes).toBeLessThan(30);
		},
	);

	it('stops a server that accepts and never answers, and does not retry a GET that reached its deadline', async () => {
		addFault({ status: 200, hang: true, count: 5 });
		const started = context();

		const error = await errorOf(getLead(started, { deadline: Date.now() + 800 }));

		expect(error.message).toMatch(
			/^The CRM API did not answer GET \/api\/v1\/leads\/lead_1 within 0\.[78] s; the node abandoned the request$/,
		);
		expect(error.description).not.toMatch(/took effect/);
		expect(sandbox.requests).toHaveLength(1);
	});

	it('says for a POST that it may have taken effect: check in the CRM before running it again', async () => {
		addFault({ status: 200, hang: true });
		const post = {
			method: 'POST' as const,
			path: '/leads',
			body: { name: 'Jane' },
			deadline: Date.now() + 500,
		};

		const error = await errorOf(apiRequest.call(context(), post));

		expect(error.description).toMatch(
			/Check in the CRM whether the POST took effect before you run this again\.$/,
		);
	});
});

describe('a byte cap enforced while the body is read', () => {
	it('fails an endless 200 body at READ.maxAnswerBytes and closes the connection', async () => {
		addFault({ status: 200, endless: true });

		const error = await errorOf(getLead());

		expect(error.message).toBe(
			"The CRM API's answer to GET /api/v1/leads/lead_1 (200, application/json; charset=utf-8) is larger than 16 MB, the most the node reads of one answer; it stopped reading",
		);
		await closedByClient();
		// What the sandbox pushed: the cap, plus what sat in socket buffers when the node closed.
		expect(sandbox.streams[0].bytes).toBeGreaterThan(READ.maxAnswerBytes);
		expect(sandbox.streams[0].bytes).toBeLessThan(READ.maxAnswerBytes + 8 * 1024 * 1024);
	});

	it('reads only READ.maxErrorBodyBytes of an endless error body, then reports the status', async () => {
		addFault({ status: 500, endless: true, method: 'POST' });

		const error = await errorOf(
			apiRequest.call(context(), { method: 'POST', path: '/leads', body: { name: 'Jane' } }),
		);

		// What was read (64 KB, so not JSON any more) is shown as text, cut to READ.maxErrorSnippetChars.
		expect(error.message).toMatch(/^The CRM API answered 500: \[\{"id":"x"\},/);
		expect(error.message.length).toBeLessThan(400);
		expect(error.httpCode).toBe('500');
		await closedByClient();
		expect(sandbox.streams[0].bytes).toBeLessThan(8 * 1024 * 1024);
	});
});

describe('honest success: a 2xx is checked against the shape the operation needs', () => {
	it('Lead → Create on a 200 text/html page is an error naming method, path, status, content type and first bytes', async () => {
		addFault({ status: 200, html: true, method: 'POST', pathPrefix: '/api/v1/leads' });
		const parameters = {
			resource: 'lead',
			operation: 'create',
			name: 'Jane',
			additionalFields: {},
		};

		const error = await errorOf(run(parameters, 2));

		expect(error.message).toBe(
			'The CRM API answered POST /api/v1/leads with 200 (text/html) and text starting "<html> <head><title>200 OK</title></head> <body> <center><h1>200 OK</h1></center> <hr><center>nginx</center> </body> </h…", not a record (a JSON object with an "id")',
		);
		expect(error.description).toMatch(/not at a login page \(single sign-on\), a proxy/);
		expect(error.description).toMatch(/Check in the CRM whether the POST took effect/);
	});

	it('Lead → Get on a 200 JSON without id is an error', async () => {
		addFault({ status: 200, body: { name: 'Jane' }, method: 'GET' });

		const error = await errorOf(run(leadGet));

		expect(error.message).toBe(
			'The CRM API answered GET /api/v1/leads/lead_1 with 200 (application/json; charset=utf-8) and an object with the keys name, not a record (a JSON object with an "id")',
		);
	});
});

describe('the API key never shows in clear', () => {
	const key = () => sandbox.keys.admin;
	const recordRead = () => getLead(context(), { expect: 'record' });
	const listRead = () => readList.call(context(), { path: '/leads' });
	const typeEcho = () => ({
		status: 200,
		headers: { 'content-type': `text/plain; note=${key()}` },
		body: 'hello',
	});
	it.each<[string, () => Record<string, unknown>, () => Promise<unknown>, string | RegExp]>([
		[
			'a key saved with spaces around it: sent trimmed, its echo (the server trims it) redacted',
			() => ({ status: 401, echoKey: true }),
			() => getLead(context(` ${key()}\t `)),
			'The CRM API answered 401 UNAUTHORIZED: The API key [redacted] is not valid for this workspace.',
		],
		[
			'a Content-Type echo, quoted by the shape check of a record',
			typeEcho,
			recordRead,
			/note=\[redacted\]/,
		],
		['a Content-Type echo, quoted by the list reader', typeEcho, listRead, /note=\[redacted\]/],
		[
			'a redirect whose Location echoes the key base64-encoded',
			() => ({ status: 302, location: `/login?k=${Buffer.from(key()).toString('base64url')}` }),
			() => getLead(),
			/redirect to \/login\?k=\[redacted\]/,
		],
		[
			'a 2xx that fails the shape check of a record',
			() => ({ status: 200, body: `<p>hello ${key()}</p>` }),
			recordRead,
			/\[redacted\]/,
		],
		[
			'a 2xx page, before the list reader shows its first bytes',
			() => ({ status: 200, body: `<p>welcome ${key()}</p>` }),
			listRead,
			/^The CRM API answered GET \/api\/v1\/leads with 200 .*\[redacted\].*, not a list$/,
		],
	])('%s: not in the message, description or JSON', async (_name, fault, call, message) => {
		addFault(fault());

		const error = await errorOf(call());

		if (typeof message === 'string') expect(error.message).toBe(message);
		else expect(error.message).toMatch(message);
		expect(shownOf(error)).not.toContain(key());
		expect(shownOf(error)).not.toContain(Buffer.from(key()).toString('base64url'));
	});
});

describe('the user stopping the execution', () => {
	/** An ExecuteContext whose execution the test can stop: n8n hands its Stop button's signal out the same way. */
	function stoppable(): { running: ApiContext; stop: () => void } {
		const controller = new AbortController();
		const running = Object.assign(Object.create(context()) as ApiContext, {
			getExecutionCancelSignal: () => controller.signal,
		});
		return { running, stop: () => controller.abort() };
	}

	// The deadline's signal is combined with n8n's, not put in its place.
	it.each([
		['a request under way', { status: 200, hang: true }],
		['a trickling body being read', TRICKLE],
	])('aborts %s', async (_name, fault) => {
		addFault(fault);
		const { running, stop } = stoppable();
		setTimeout(stop, 300).unref();

		const error = await errorOf(getLead(running, { deadline: Date.now() + 20_000 }));

		expect(error.message).toBe(
			'The execution was stopped while GET /api/v1/leads/lead_1 was under way',
		);
		if ('trickle' in fault) await closedByClient();
	});
});

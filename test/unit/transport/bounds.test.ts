/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Issue 17 in the one request function (transport/request.ts), against the sandbox's real HTTP faults:
 * a wall-clock deadline that also stops a trickling body, a byte cap enforced while the body is read, the shape check
 * of 2xx answers (`expect`), the API key redacted from errors, and TLS errors that say what is wrong.
 */
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ExecuteContext } from 'n8n-core';
import { createRunExecutionData } from 'n8n-workflow';

import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { CrmInvoicingTrigger } from '../../../nodes/CrmInvoicing/CrmInvoicingTrigger.node';
import { apiRequest, apiRequestFull, readList } from '../../../nodes/CrmInvoicing/shared/transport';
import { READ } from '../../../nodes/CrmInvoicing/shared/transport/limits';
import {
	createExecuteContext,
	createHookContext,
	createWebhookContext,
	errorOf,
	runNode,
} from '../../helpers/harness';
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

async function addFault(fault: Record<string, unknown>): Promise<void> {
	sandbox.addFault({ count: 1, ...fault } as never);
}

/** Everything an error carries that n8n shows, logs or stores: message, description, and its JSON (cause, context). */
function everythingShown(error: Error & Record<string, unknown>): string {
	return [
		error.message,
		String(error.description ?? ''),
		JSON.stringify(error),
		JSON.stringify((error as { cause?: unknown }).cause ?? null),
	].join('\n');
}

describe('a wall-clock deadline per attempt', () => {
	it('stops a body that trickles 1 byte per interval at the deadline, and says the answer had started', async () => {
		await addFault({ status: 200, trickle: { intervalMs: 100, bytes: 1_000 } });
		const started = Date.now();

		const error = await errorOf(
			apiRequest.call(context(), {
				method: 'GET',
				path: '/leads/lead_1',
				deadline: Date.now() + 1_500,
			}),
		);

		const took = Date.now() - started;
		expect(error.message).toBe(
			'The CRM API answered 200 but did not finish sending its answer GET /api/v1/leads/lead_1 within 1.5 s; the node abandoned the request',
		);
		expect(took).toBeGreaterThanOrEqual(1_400);
		expect(took).toBeLessThan(4_000);
		// The connection was closed: the sandbox saw the client go, and had sent only a few bytes.
		await waitUntil(() => sandbox.streams[0]?.closedByClient === true);
		expect(sandbox.streams[0].bytes).toBeLessThan(30);
	});

	it('stops a server that accepts and never answers, and does not retry a GET that reached its deadline', async () => {
		await addFault({ status: 200, hang: true, count: 5 });

		const error = await errorOf(
			apiRequest.call(context(), {
				method: 'GET',
				path: '/leads/lead_1',
				deadline: Date.now() + 800,
			}),
		);

		expect(error.message).toBe(
			'The CRM API did not answer GET /api/v1/leads/lead_1 within 0.8 s; the node abandoned the request',
		);
		expect(error.description).not.toMatch(/took effect/);
		expect(sandbox.requests).toHaveLength(1);
	});

	it('says for a POST that it may have taken effect: check in the CRM before running it again', async () => {
		await addFault({ status: 200, hang: true });

		const error = await errorOf(
			apiRequest.call(context(), {
				method: 'POST',
				path: '/leads',
				body: { name: 'Jane' },
				deadline: Date.now() + 500,
			}),
		);

		expect(error.description).toMatch(
			/Check in the CRM whether the POST took effect before you run this again\.$/,
		);
	});

	it("also holds in a hook context (the trigger's checkExists, create, delete), which has no execution signal", async () => {
		await addFault({ status: 200, trickle: { intervalMs: 100, bytes: 1_000 } });
		const { context: hook } = createHookContext({
			nodeType: new CrmInvoicingTrigger(),
			parameters: { events: ['lead.created'] },
			credentials: credentials(),
			webhookUrl: 'https://n8n.example.com/webhook/x',
		});

		const error = await errorOf(
			apiRequest.call(hook, { method: 'GET', path: '/webhooks/wh_1', deadline: Date.now() + 700 }),
		);

		expect(error.message).toMatch(
			/did not finish sending its answer GET \/api\/v1\/webhooks\/wh_1 within 0.7 s/,
		);
	});

	it("and in a webhook context (a delivery with Output Full Record, which must answer within the CRM's 20 s)", async () => {
		await addFault({ status: 200, trickle: { intervalMs: 100, bytes: 1_000 } });
		const { context: webhook } = createWebhookContext({
			nodeType: new CrmInvoicingTrigger(),
			parameters: { events: ['lead.created'] },
			credentials: credentials(),
			headers: {},
			rawBody: Buffer.from('{}'),
		});
		const started = Date.now();

		const error = await errorOf(
			apiRequest.call(webhook, {
				method: 'GET',
				path: '/leads/lead_1',
				deadline: Date.now() + 700,
			}),
		);

		expect(error.message).toMatch(
			/did not finish sending its answer GET \/api\/v1\/leads\/lead_1 within 0.7 s/,
		);
		expect(Date.now() - started).toBeLessThan(3_000);
	});
});

describe('a byte cap enforced while the body is read', () => {
	it('fails an endless 200 body at READ.maxAnswerBytes and closes the connection', async () => {
		await addFault({ status: 200, endless: true });

		const error = await errorOf(
			apiRequest.call(context(), { method: 'GET', path: '/leads/lead_1' }),
		);

		expect(error.message).toBe(
			"The CRM API's answer to GET /api/v1/leads/lead_1 (200, application/json; charset=utf-8) is larger than 16 MB, the most the node reads of one answer; it stopped reading",
		);
		await waitUntil(() => sandbox.streams[0]?.closedByClient === true);
		// What the sandbox pushed: the cap, plus what sat in socket buffers when the node closed.
		expect(sandbox.streams[0].bytes).toBeGreaterThan(READ.maxAnswerBytes);
		expect(sandbox.streams[0].bytes).toBeLessThan(READ.maxAnswerBytes + 8 * 1024 * 1024);
	});

	it('reads only READ.maxErrorBodyBytes of an endless error body, then reports the status', async () => {
		await addFault({ status: 500, endless: true, method: 'POST' });

		const error = await errorOf(
			apiRequest.call(context(), { method: 'POST', path: '/leads', body: { name: 'Jane' } }),
		);

		// What was read (64 KB, so not JSON any more) is shown as text, cut to READ.maxErrorSnippetChars.
		expect(error.message).toMatch(/^The CRM API answered 500: \[\{"id":"x"\},/);
		expect(error.message.length).toBeLessThan(400);
		expect(error.httpCode).toBe('500');
		await waitUntil(() => sandbox.streams[0]?.closedByClient === true);
		expect(sandbox.streams[0].bytes).toBeLessThan(8 * 1024 * 1024);
	});

	it("hands back the answer's size as bodyBytes (the list reader adds them up)", async () => {
		const response = await apiRequestFull.call(context(), {
			method: 'GET',
			path: '/leads',
			qs: { limit: 2 },
		});

		const text = JSON.stringify(response.body);
		expect(response.bodyBytes).toBe(Buffer.byteLength(text));
		expect(Array.isArray((response.body as { items: unknown[] }).items)).toBe(true);
	});
});

describe('honest success: a 2xx is checked against the shape the operation needs', () => {
	it('Lead → Create on a 200 text/html page is an error naming method, path, status, content type and first bytes', async () => {
		await addFault({ status: 200, html: true, method: 'POST', pathPrefix: '/api/v1/leads' });

		const error = await errorOf(
			runNode({
				nodeType: new CrmInvoicing(),
				parameters: { resource: 'lead', operation: 'create', name: 'Jane', additionalFields: {} },
				typeVersion: 2,
				credentials: credentials(),
			}),
		);

		expect(error.message).toBe(
			'The CRM API answered POST /api/v1/leads with 200 (text/html) and text starting "<html> <head><title>200 OK</title></head> <body> <center><h1>200 OK</h1></center> <hr><center>nginx</center> </body> </h…", not a record (a JSON object with an "id")',
		);
		expect(error.description).toMatch(/not at a login page \(single sign-on\), a proxy/);
		expect(error.description).toMatch(/Check in the CRM whether the POST took effect/);
	});

	it('Lead → Get on a 200 JSON without id is an error', async () => {
		await addFault({ status: 200, body: { name: 'Jane' }, method: 'GET' });

		const error = await errorOf(
			runNode({
				nodeType: new CrmInvoicing(),
				parameters: {
					resource: 'lead',
					operation: 'get',
					leadId: { __rl: true, mode: 'id', value: 'lead_1' },
				},
				credentials: credentials(),
			}),
		);

		expect(error.message).toBe(
			'The CRM API answered GET /api/v1/leads/lead_1 with 200 (application/json; charset=utf-8) and an object with the keys name, not a record (a JSON object with an "id")',
		);
	});

	it.each([
		['an empty id', { id: '' }],
		['an object id', { id: { x: 1 } }],
		['an array', [{ id: 'lead_1' }]],
		['a number', 7],
	])('a record needs a string or number id: %s is refused', async (_name, body) => {
		await addFault({ status: 200, body });
		const error = await errorOf(
			apiRequest.call(context(), { method: 'GET', path: '/leads/lead_1', expect: 'record' }),
		);
		expect(error.message).toMatch(
			/^The CRM API answered GET \/api\/v1\/leads\/lead_1 with 200 .*, not a record/,
		);
	});

	it('empty-or-object lets a 204 through (PATCH /leads, whose answer the spec does not show), but not an HTML page', async () => {
		await addFault({ status: 204, method: 'PATCH' });
		expect(
			await apiRequest.call(context(), {
				method: 'PATCH',
				path: '/leads/lead_1',
				body: {},
				expect: 'empty-or-object',
			}),
		).toEqual({});

		await addFault({ status: 200, html: true, method: 'PATCH' });
		const error = await errorOf(
			apiRequest.call(context(), {
				method: 'PATCH',
				path: '/leads/lead_1',
				body: {},
				expect: 'empty-or-object',
			}),
		);
		expect(error.message).toMatch(
			/with 200 \(text\/html\) .*, not an empty answer or a JSON object$/,
		);
	});

	it('expect "any" (Custom API Request) takes whatever came, as before', async () => {
		await addFault({ status: 200, html: true });
		const body = await apiRequest.call(context(), { method: 'GET', path: '/leads/lead_1' });
		expect(String(body.body)).toMatch(/^<html>/);
	});
});

describe('the API key never shows in clear', () => {
	it("a 401 that echoes the key: not in the message, description, or the error's JSON", async () => {
		await addFault({ status: 401, echoKey: true });

		const error = await errorOf(
			apiRequest.call(context(), { method: 'GET', path: '/leads/lead_1' }),
		);

		expect(error.message).toBe(
			'The CRM API answered 401 UNAUTHORIZED: The API key [redacted] is not valid for this workspace.',
		);
		expect(everythingShown(error)).not.toContain(sandbox.keys.admin);
	});

	it('nor in Continue On Fail output', async () => {
		await addFault({ status: 401, echoKey: true });

		const output = await runNode({
			nodeType: new CrmInvoicing(),
			parameters: {
				resource: 'lead',
				operation: 'get',
				leadId: { __rl: true, mode: 'id', value: 'lead_1' },
			},
			credentials: credentials(),
			continueOnFail: true,
		});

		const shown = JSON.stringify(output);
		expect(shown).toContain('[redacted]');
		expect(shown).not.toContain(sandbox.keys.admin);
	});

	it('a key saved with spaces around it is sent trimmed, and its echo (the server trims it) is redacted', async () => {
		await addFault({ status: 401, echoKey: true });

		const error = await errorOf(
			apiRequest.call(context(` ${sandbox.keys.admin}\t `), {
				method: 'GET',
				path: '/leads/lead_1',
			}),
		);

		expect(error.message).toBe(
			'The CRM API answered 401 UNAUTHORIZED: The API key [redacted] is not valid for this workspace.',
		);
		expect(everythingShown(error)).not.toContain(sandbox.keys.admin);
	});

	it('a key echoed base64 or base64url-encoded, alone or inside an encoded header, is redacted', async () => {
		const key = sandbox.keys.admin;
		const spellings = [
			Buffer.from(key).toString('base64'),
			Buffer.from(key).toString('base64url'),
			Buffer.from(`x-api-key: ${key}`).toString('base64'),
			Buffer.from(`user:${key}`).toString('base64url'),
		];
		await addFault({
			status: 400,
			body: { error: { code: 'BAD', message: `seen ${spellings.join(' and ')}` } },
		});
		const error = await errorOf(
			apiRequest.call(context(), { method: 'GET', path: '/leads/lead_1' }),
		);
		const shown = everythingShown(error);
		expect(error.message).toMatch(/^The CRM API answered 400 BAD: seen .*\[redacted\]/);
		for (const spelling of spellings) expect(shown).not.toContain(spelling);
		// What is left around a redacted encoding holds too few bits of the key to read any of it back.
		expect(Buffer.from(shown.replace(/[^A-Za-z0-9+/_-]/g, ' '), 'base64').toString()).not.toMatch(
			/sandbox_admin/,
		);
	});

	it('a Content-Type that echoes the key is redacted from the errors that quote it', async () => {
		const key = sandbox.keys.admin;
		const headers = { 'content-type': `text/plain; note=${key}` };
		await addFault({ status: 200, headers, body: 'hello' });
		const notAList = await errorOf(readList.call(context(), { path: '/leads' }));
		await addFault({ status: 200, headers, body: 'hello' });
		const notARecord = await errorOf(
			apiRequest.call(context(), { method: 'GET', path: '/leads/lead_1', expect: 'record' }),
		);
		for (const error of [notAList, notARecord]) {
			expect(error.message).toContain('note=[redacted]');
			expect(everythingShown(error)).not.toContain(key);
		}
	});

	it('a redirect whose Location echoes the key base64-encoded shows it redacted', async () => {
		const encoded = Buffer.from(sandbox.keys.admin).toString('base64url');
		await addFault({ status: 302, location: `/login?k=${encoded}` });
		const error = await errorOf(
			apiRequest.call(context(), { method: 'GET', path: '/leads/lead_1' }),
		);
		expect(error.message).toMatch(/redirect to \/login\?k=\[redacted\]/);
		expect(everythingShown(error)).not.toContain(encoded);
	});

	it('a key echoed URL-encoded is redacted too', async () => {
		const key = `${sandbox.keys.admin}`;
		await addFault({
			status: 400,
			body: { error: { code: 'BAD', message: `bad key ${encodeURIComponent(key)}!` } },
		});
		const error = await errorOf(
			apiRequest.call(context(), { method: 'GET', path: '/leads/lead_1' }),
		);
		expect(error.message).toBe('The CRM API answered 400 BAD: bad key [redacted]!');
	});

	it('a key echoed in a 2xx that fails the shape check is redacted from that error', async () => {
		await addFault({ status: 200, body: `<p>hello ${sandbox.keys.admin}</p>` });
		const error = await errorOf(
			apiRequest.call(context(), { method: 'GET', path: '/leads/lead_1', expect: 'record' }),
		);
		expect(error.message).toContain('[redacted]');
		expect(everythingShown(error)).not.toContain(sandbox.keys.admin);
	});
});

describe('TLS errors say what is wrong with the certificate', () => {
	let server: https.Server;
	let url: string;

	beforeAll(async () => {
		const dir = join(__dirname, '../../fixtures/tls');
		server = https.createServer(
			{
				key: readFileSync(join(dir, 'self-signed.key')),
				cert: readFileSync(join(dir, 'self-signed.crt')),
			},
			(_req, res) => {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end('{"id":"lead_1"}');
			},
		);
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});

	afterAll(async () => {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	});

	it('a self-signed certificate: named, with what to check, not "Could not reach", and not retried', async () => {
		const error = await errorOf(
			apiRequest.call(context('sk_tls_key', url), { method: 'GET', path: '/leads/lead_1' }),
		);

		expect(error.message).toBe(
			"The CRM API's TLS certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT); the node did not send GET /api/v1/leads/lead_1",
		);
		expect(error.description).toMatch(/install a valid certificate for this host name/);
		expect(error.description).toMatch(/NODE_EXTRA_CA_CERTS/);
		expect(everythingShown(error)).not.toContain('sk_tls_key');
	});
});

async function waitUntil(check: () => boolean, timeoutMs = 3_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > deadline) throw new Error('condition not met in time');
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

describe('a 2xx page that echoes the key', () => {
	it('is redacted before the list reader shows its first bytes', async () => {
		const { readList } = await import('../../../nodes/CrmInvoicing/shared/transport/pagination');
		await addFault({ status: 200, body: `<p>welcome ${sandbox.keys.admin}</p>` });

		const error = await errorOf(readList.call(context(), { path: '/leads' }));

		expect(error.message).toMatch(
			/^The CRM API answered GET \/api\/v1\/leads with 200 .*\[redacted\].*, not a list$/,
		);
		expect(everythingShown(error)).not.toContain(sandbox.keys.admin);
	});
});

describe('the user stopping the execution', () => {
	it("still aborts a request under way (the deadline's signal is combined with n8n's, not put in its place)", async () => {
		await addFault({ status: 200, hang: true });
		const { workflow, node, additionalData } = createExecuteContext({
			nodeType: new CrmInvoicing(),
			parameters: { resource: 'lead', operation: 'get' },
			credentials: credentials(),
		});
		const items = [{ json: {} }];
		const inputData = { main: [items] };
		const executeData = { node, data: inputData, source: null };
		const runExecutionData = createRunExecutionData({
			executionData: { nodeExecutionStack: [executeData] },
		});
		const controller = new AbortController();
		const running = new ExecuteContext(
			workflow,
			node,
			additionalData,
			'manual',
			runExecutionData,
			0,
			items,
			inputData,
			executeData,
			[],
			controller.signal,
		);
		const started = Date.now();
		setTimeout(() => controller.abort(), 300).unref();

		const error = await errorOf(
			apiRequest.call(running, {
				method: 'GET',
				path: '/leads/lead_1',
				deadline: Date.now() + 20_000,
			}),
		);

		expect(error.message).toBe(
			'The execution was stopped while GET /api/v1/leads/lead_1 was under way',
		);
		expect(Date.now() - started).toBeLessThan(5_000);
	});

	it('stops a trickling body being read', async () => {
		await addFault({ status: 200, trickle: { intervalMs: 100, bytes: 1_000 } });
		const { workflow, node, additionalData } = createExecuteContext({
			nodeType: new CrmInvoicing(),
			parameters: { resource: 'lead', operation: 'get' },
			credentials: credentials(),
		});
		const items = [{ json: {} }];
		const inputData = { main: [items] };
		const executeData = { node, data: inputData, source: null };
		const runExecutionData = createRunExecutionData({
			executionData: { nodeExecutionStack: [executeData] },
		});
		const controller = new AbortController();
		const running = new ExecuteContext(
			workflow,
			node,
			additionalData,
			'manual',
			runExecutionData,
			0,
			items,
			inputData,
			executeData,
			[],
			controller.signal,
		);
		setTimeout(() => controller.abort(), 400).unref();

		const error = await errorOf(
			apiRequest.call(running, {
				method: 'GET',
				path: '/leads/lead_1',
				deadline: Date.now() + 20_000,
			}),
		);

		expect(error.message).toBe(
			'The execution was stopped while GET /api/v1/leads/lead_1 was under way',
		);
		await waitUntil(() => sandbox.streams[0]?.closedByClient === true);
	});
});

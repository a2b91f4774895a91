/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** Test helpers for the sandbox tests: HTTP calls, a webhook receiver, polling. */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Sandbox } from './types';

export interface CallResult<T = any> {
	status: number;
	headers: Headers;
	/** Parsed JSON when the response is JSON, else the text ('' for an empty body). */
	body: T;
	text: string;
}

export interface CallOptions {
	/** API key; defaults to the admin key. null sends no key. */
	key?: string | null;
	body?: unknown;
	/** Sent as-is instead of JSON.stringify(body). */
	rawBody?: string;
}

export async function call<T = any>(
	sandbox: Sandbox,
	method: string,
	path: string,
	options: CallOptions = {},
): Promise<CallResult<T>> {
	const headers: Record<string, string> = {};
	const key = options.key === undefined ? sandbox.keys.admin : options.key;
	if (key !== null) headers['x-api-key'] = key;
	let body: string | undefined = options.rawBody;
	if (body === undefined && options.body !== undefined) body = JSON.stringify(options.body);
	if (body !== undefined) headers['content-type'] = 'application/json';
	// A redirect is answered as it came, not followed.
	const signal = AbortSignal.timeout(10_000);
	const response = await fetch(sandbox.url + path, {
		method,
		headers,
		body,
		redirect: 'manual',
		signal,
	});
	const text = await response.text();
	let parsed: unknown = text;
	if ((response.headers.get('content-type') ?? '').includes('application/json') && text !== '')
		parsed = JSON.parse(text);
	return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** Polls until check() returns a truthy value; fails after timeoutMs. */
export async function waitFor<T>(
	check: () => T | undefined | false | null,
	timeoutMs = 3_000,
	what = 'condition',
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = check();
		if (value) return value;
		if (Date.now() > deadline)
			throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
}

export interface ReceivedRequest {
	method: string;
	path: string;
	headers: Record<string, string>;
	/** The exact bytes received, as UTF-8 text. */
	rawBody: string;
	receivedAt: number;
}

export interface Receiver {
	url: string;
	received: ReceivedRequest[];
	/** Each answer (by the request's index from 0): a status, or 'hang' to never answer. */
	respond: (index: number, request: ReceivedRequest) => number | 'hang';
	close(): Promise<void>;
}

/** A local HTTP endpoint that records webhook deliveries. Answers 200 unless respond is replaced. */
export async function startReceiver(respond: Receiver['respond'] = () => 200): Promise<Receiver> {
	const received: ReceivedRequest[] = [];
	const receiver: Receiver = { url: '', received, respond, close: async () => undefined };
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const headers: Record<string, string> = {};
			for (const [name, value] of Object.entries(req.headers))
				if (typeof value === 'string') headers[name] = value;
			const request: ReceivedRequest = {
				method: req.method ?? '',
				path: req.url ?? '',
				headers,
				rawBody: Buffer.concat(chunks).toString('utf8'),
				receivedAt: Date.now(),
			};
			received.push(request);
			const answer = receiver.respond(received.length - 1, request);
			if (answer === 'hang') return;
			res.writeHead(answer, { 'content-type': 'text/plain' });
			res.end('ok');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
	receiver.close = () =>
		new Promise<void>((resolve) => {
			server.close(() => resolve());
			server.closeAllConnections();
		});
	return receiver;
}

/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** The faults of `POST /__sandbox/faults` and `addFault` (README.md): what they may hold, and how they answer. */
import * as http from 'node:http';

import { errorBody, isObject, validationError } from './api';
import { type Answer, writeAnswer } from './jsonText';
import type { Fault, StreamRecord } from './types';

export function isPositiveInteger(value: unknown): value is number {
	return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

/** A control request's value must pass: else a 400 with the message. */
export function check(ok: boolean, message: string): void {
	if (!ok) throw validationError(message);
}

const isString = (value: unknown): boolean => typeof value === 'string';

const isTrickle = (value: any): boolean =>
	isObject(value) &&
	isPositiveInteger(value.intervalMs) &&
	(value.bytes === undefined || isPositiveInteger(value.bytes));

/** The optional fields of a fault, in the order they are checked: what each must be when present. */
const FIELD_CHECKS: Record<string, [string, (value: any) => boolean]> = {
	method: ['a string', isString],
	pathPrefix: ['a string', isString],
	delayMs: ['a number of milliseconds', (value) => typeof value === 'number' && !(value < 0)],
	headers: [
		'an object of strings',
		(value) => isObject(value) && Object.values(value).every(isString),
	],
	htmlBytes: [
		'a positive integer up to 20 MB',
		(value) => isPositiveInteger(value) && value <= 20 * 1024 * 1024,
	],
	redirectTo: ['"catcher"', (value) => value === 'catcher'],
	trickle: ['{ intervalMs, bytes? } with positive integers', isTrickle],
	endlessBytes: ['a positive integer', isPositiveInteger],
	echoKey: ['true or "escaped"', (value) => [true, false, 'escaped'].includes(value)],
	location: ['a path or a URL', (value) => isString(value) && value !== ''],
};

/** A fault from its JSON; a 400 for a field that is not what README.md says. */
export function parseFault(value: unknown): Fault {
	if (!isObject(value)) throw validationError('The fault must be a JSON object');
	const status = value.status;
	check(
		typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599,
		'status must be an HTTP status between 100 and 599',
	);
	const count = value.count ?? 1;
	check(isPositiveInteger(count), 'count must be a positive integer');
	for (const [field, [what, ok]] of Object.entries(FIELD_CHECKS))
		check(value[field] === undefined || ok(value[field]), `${field} must be ${what}`);
	const raw = value as Partial<Fault>;
	const echoKey = raw.echoKey === 'escaped' ? 'escaped' : raw.echoKey === true;
	const flags = { hang: raw.hang === true, endless: raw.endless === true, html: raw.html === true };
	return { ...raw, ...flags, echoKey, status: status as number, count: count as number };
}

/** A key as a JSON encoder that escapes `/`, `+` and `=` writes it inside a string. */
export function escapedKey(key: string): string {
	return JSON.stringify(key)
		.slice(1, -1)
		.replace(/\//g, '\\/')
		.replace(/\+/g, '\\u002b')
		.replace(/=/g, '\\u003d');
}

/**
 * The body text of an `echoKey` fault: JSON written by hand, so the escapes stay as they are. A 2xx to the lead list
 * is a page holding one lead without an id whose name echoes the key (which the polling trigger names in a warning).
 */
export function echoBody(status: number, key: string, escaped: boolean, path = ''): string {
	const spelled = escaped ? escapedKey(key) : JSON.stringify(key).slice(1, -1);
	if (status >= 200 && status < 300 && /\/leads\/?$/.test(path)) {
		return `{"items":[{"name":"Key ${spelled}","archived":false,"createdAt":"2026-01-01T00:00:00.000Z"}],"hasMore":false,"nextCursor":null}`;
	}
	if (status >= 200 && status < 300) {
		return `{"id":"lead_echo","number":"L-ECHO","name":"Echo","archived":false,"createdAt":"2026-01-01T00:00:00.000Z","title":"Key ${spelled}","customFields":{"apiKey":"${spelled}"}}`;
	}
	const text = JSON.stringify(
		errorBody('UNAUTHORIZED', 'The API key KEY is not valid for this workspace.'),
	);
	return text.replace('KEY', spelled);
}

function codeForStatus(status: number): string {
	if (status === 400 || status === 422) return 'VALIDATION_ERROR';
	if (status === 401) return 'UNAUTHORIZED';
	if (status === 403) return 'FORBIDDEN';
	if (status === 404) return 'NOT_FOUND';
	if (status === 429) return 'RATE_LIMITED';
	return 'INTERNAL_ERROR';
}

/** A proxy's error page, padded with `htmlBytes`. */
function htmlErrorPage(status: number, htmlBytes = 0): string {
	const title = `${status} ${http.STATUS_CODES[status] ?? 'Error'}`;
	const html = `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
	if (htmlBytes <= html.length) return html;
	const pad = '<div class="x">&lt;</div>\n';
	return html.replace(
		'<hr>',
		`${pad.repeat(Math.ceil((htmlBytes - html.length) / pad.length))}<hr>`,
	);
}

/** A fault in use: `remaining` answers left. */
export interface ActiveFault extends Fault {
	remaining: number;
}

/** What a fault's answer needs of the server. */
export interface FaultScene {
	req: http.IncomingMessage;
	res: http.ServerResponse;
	url: URL;
	/** Logs the request with this status (0: no answer). */
	log: (status: number) => void;
	catcherUrl: string;
	streams: StreamRecord[];
	/** Timers that close() and clearFaults() clear. */
	timers: Set<NodeJS.Timeout>;
}

/** Answers the request as the fault says, after its `delayMs`. */
export function applyFault(fault: ActiveFault, scene: FaultScene): void {
	if (!fault.delayMs) return actOut(fault, scene);
	const timer = setTimeout(() => {
		scene.timers.delete(timer);
		actOut(fault, scene);
	}, fault.delayMs);
	timer.unref();
	scene.timers.add(timer);
}

function actOut(fault: ActiveFault, scene: FaultScene): void {
	const { req, res, url, log } = scene;
	if (fault.hang) return log(0);
	if (fault.trickle || fault.endless) return streamFault(fault, scene);
	log(fault.status);
	const { status } = fault;
	if (fault.echoKey) {
		const key = String(req.headers['x-api-key'] ?? '');
		const text = echoBody(status, key, fault.echoKey === 'escaped', url.pathname);
		const headers = { ...fault.headers, 'content-type': 'application/json; charset=utf-8' };
		return writeAnswer(res, { status, headers, text });
	}
	writeAnswer(res, faultAnswer(fault, scene));
}

/** The answer of a fault that neither hangs, streams nor echoes the key. */
function faultAnswer(fault: ActiveFault, scene: FaultScene): Answer {
	const { status } = fault;
	const headers: Record<string, string> = { ...fault.headers };
	if (fault.location !== undefined) headers.location = fault.location;
	if (fault.redirectTo !== undefined)
		headers.location = `${scene.catcherUrl}${scene.url.pathname}${scene.url.search}`;
	if (fault.body !== undefined) return { status, headers, body: fault.body };
	if (fault.redirectTo !== undefined || fault.location !== undefined)
		return { status, headers: { ...headers, 'content-length': '0' } };
	if (fault.html) {
		const text = htmlErrorPage(status, fault.htmlBytes);
		return { status, headers: { ...headers, 'content-type': 'text/html' }, text };
	}
	const message = `Sandbox fault: ${status} ${http.STATUS_CODES[status] ?? ''}`.trim();
	const body = status === 204 ? undefined : errorBody(codeForStatus(status), message);
	return { status, headers, body };
}

/** A trickling or endless body (see Fault.trickle / Fault.endless). Stops when the client closes, and at close(). */
function streamFault(fault: ActiveFault, scene: FaultScene): void {
	const { res, log } = scene;
	log(fault.status);
	const record: StreamRecord = {
		path: scene.url.pathname,
		kind: fault.endless ? 'endless' : 'trickle',
		bytes: 0,
		closedByClient: false,
		done: false,
	};
	scene.streams.push(record);
	res.on('close', () => {
		if (!record.done) record.closedByClient = true;
	});
	res.writeHead(fault.status, {
		...fault.headers,
		'content-type': 'application/json; charset=utf-8',
	});
	if (fault.trickle) trickle(fault, scene, record);
	else endless(fault, res, record);
}

function trickle(fault: ActiveFault, scene: FaultScene, record: StreamRecord): void {
	const { res, timers } = scene;
	const { intervalMs, bytes = 1000 } = fault.trickle!;
	const body = JSON.stringify(fault.body ?? { id: 'lead_trickle', name: 'Trickle' });
	const text = ' '.repeat(Math.max(0, bytes - Buffer.byteLength(body))) + body;
	let index = 0;
	const timer = setInterval(() => {
		if (res.destroyed || index >= text.length) {
			clearInterval(timer);
			timers.delete(timer);
			if (!res.destroyed) {
				record.done = true;
				res.end();
			}
			return;
		}
		res.write(text[index++]);
		record.bytes++;
	}, intervalMs);
	timer.unref();
	timers.add(timer);
}

function endless(fault: ActiveFault, res: http.ServerResponse, record: StreamRecord): void {
	const limit = fault.endlessBytes ?? 8 * 1024 ** 3;
	const chunk = Buffer.from('{"id":"x"},'.repeat(6_000));
	res.write('[');
	record.bytes = 1;
	const pump = (): void => {
		while (!res.destroyed && record.bytes < limit) {
			const ok = res.write(chunk);
			record.bytes += chunk.length;
			if (!ok) {
				res.once('drain', pump);
				return;
			}
		}
		if (!res.destroyed) {
			record.done = true;
			res.end('{"id":"x"}]');
		}
	};
	pump();
}

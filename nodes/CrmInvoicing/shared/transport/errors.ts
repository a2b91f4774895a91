import { NodeApiError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import { DOCUMENTED_RATE_LIMIT, READ } from './limits';

export interface RequestSummary {
	method: string;
	/** Path under the API prefix, e.g. `/api/v1/leads/lead_1` (never the full URL with credentials). */
	path: string;
	itemIndex?: number;
}

interface ParsedErrorBody {
	code?: string;
	message?: string;
	/** Set when the body was not JSON (for instance a proxy's HTML error page). */
	nonJsonText?: string;
}

const MAX_SNIPPET = 160;

/** An error about an answer with this status, keeping our message (NodeApiError may replace it for some statuses). */
export function statusError(
	node: INode,
	request: RequestSummary,
	status: number,
	message: string,
	description: string,
): NodeApiError {
	return keepMessage(
		new NodeApiError(
			node,
			{ message, httpCode: String(status), method: request.method, path: request.path },
			{ message, description, httpCode: String(status), itemIndex: request.itemIndex },
		),
		message,
	);
}

/** Cuts a text to `max` characters, marking the cut. */
export function cut(text: string, max: number = READ.maxErrorSnippetChars): string {
	return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The end of `tag`'s element starting at `from` (after its closing tag), or -1. Linear: indexOf only. */
function skipElement(lower: string, from: number, tag: string): number {
	const close = lower.indexOf(`</${tag}`, from);
	if (close < 0) return -1;
	const end = lower.indexOf('>', close);
	return end < 0 ? -1 : end + 1;
}

/**
 * The readable text of an HTML page: its <title>, else its text without tags, scripts and styles. Linear in the
 * length of the (already cut) page: a scan with indexOf, no regular expression that can backtrack.
 */
function textOf(html: string): string {
	const lower = html.toLowerCase();
	let source = html;
	const titleStart = lower.indexOf('<title');
	if (titleStart >= 0) {
		const open = lower.indexOf('>', titleStart);
		const close = open < 0 ? -1 : lower.indexOf('</title', open);
		if (close >= 0) source = html.slice(open + 1, close);
	}
	const sourceLower = source === html ? lower : source.toLowerCase();
	const parts: string[] = [];
	let index = 0;
	while (index < source.length) {
		const tag = source.indexOf('<', index);
		if (tag < 0) {
			parts.push(source.slice(index));
			break;
		}
		parts.push(source.slice(index, tag), ' ');
		let next: number;
		if (sourceLower.startsWith('<script', tag)) next = skipElement(sourceLower, tag, 'script');
		else if (sourceLower.startsWith('<style', tag)) next = skipElement(sourceLower, tag, 'style');
		else {
			const end = source.indexOf('>', tag);
			next = end < 0 ? -1 : end + 1;
		}
		if (next < 0) break;
		index = next;
	}
	const text = parts.join('').replace(/\s+/g, ' ').trim();
	return cut(text, MAX_SNIPPET);
}

/** An error body as text, cut to READ.maxErrorBodyChars before anything else looks at it; undefined for objects. */
function boundedText(body: unknown): string | undefined {
	if (Buffer.isBuffer(body))
		return body
			.subarray(0, READ.maxErrorBodyChars * 4)
			.toString('utf8')
			.slice(0, READ.maxErrorBodyChars);
	if (typeof body === 'string') return body.slice(0, READ.maxErrorBodyChars);
	return undefined;
}

/** Reads the API's `{ error: { code, message } }`, a flat `{ code, message }` or `{ message }`, plain text (the message), or a page that is not JSON. */
export function parseErrorBody(body: unknown): ParsedErrorBody {
	let value = body;
	const text = boundedText(value);
	if (text !== undefined) {
		const trimmed = text.trim();
		if (trimmed === '') return {};
		try {
			value = JSON.parse(trimmed);
		} catch {
			// Plain text (not a page): the API's own message, e.g. "name is required" in a text/plain 400.
			if (!trimmed.startsWith('<')) return { message: textOf(trimmed) };
			return { nonJsonText: textOf(trimmed) };
		}
	}
	if (!value || typeof value !== 'object') return {};
	const object = value as { error?: unknown; code?: unknown; message?: unknown };
	const nested =
		object.error && typeof object.error === 'object' ? (object.error as typeof object) : undefined;
	const code =
		nested?.code ?? object.code ?? (typeof object.error === 'string' ? object.error : undefined);
	const message = nested?.message ?? object.message;
	return {
		code: typeof code === 'string' ? cut(code, 100) : undefined,
		message: typeof message === 'string' ? cut(message) : undefined,
	};
}

/**
 * NodeApiError replaces a message that names a Node.js error code (ECONNRESET, ENOTFOUND, EPERM, …), or whose
 * error has such a `code`, with n8n's generic text for it, even when the message was passed in explicitly.
 * That would drop which request failed and contradict the description ("retry immediately" for a POST that must
 * not be repeated blindly), so the message we built is put back.
 */
export function keepMessage(error: NodeApiError, message: string): NodeApiError {
	error.message = message;
	return error;
}

/** What to do about an error status, for the error's description. */
export function adviceFor(status: number, request: RequestSummary, apiMessage?: string): string {
	const call = `${request.method} ${request.path}`;
	switch (true) {
		case status === 400:
			return `The API rejected a value${apiMessage ? `: "${apiMessage}"` : ''}. Correct that field in the node's parameters (or in the data of the input item) and run it again.`;
		case status === 401:
			return 'The API key was missing or not accepted. Open the "CRM Invoicing API" credential, paste a valid key from the developer settings of your CRM workspace, and use "Test" to check it.';
		case status === 403:
			return `The user who owns this API key is not allowed to do this (${call}). Ask a workspace admin to give that user the permission, or use a key created by a user who has it.`;
		case status === 404:
			return `Nothing was found at ${call}. Check that the ID is right and belongs to this workspace; IDs are the public IDs the API returns (for example from a "Get Many").`;
		case status === 409:
			return 'The record changed or already exists. Read it again and retry with current data.';
		case status === 422:
			return 'The API understood the request but could not process these values. Check the fields named in the message.';
		case status === 429:
			return `The API allows ${DOCUMENTED_RATE_LIMIT.requests} requests per minute per API key. The node waited and retried but stayed limited. Run fewer executions with this key at the same time, or process fewer items per run.`;
		case status >= 500:
			return request.method === 'GET' || request.method === 'DELETE'
				? 'The CRM service failed to handle the request (the node retried it). This is not caused by your parameters; try again later.'
				: 'The CRM service failed to handle the request. It was not retried, so that nothing is created twice: check in the CRM whether the record exists before you run this again.';
		default:
			return 'Check the parameters of this node, then run it again.';
	}
}

/** The error for an HTTP error status: the status and the API's own code and message, and what to do. */
export function apiErrorFromResponse(
	node: INode,
	status: number,
	body: unknown,
	request: RequestSummary,
): NodeApiError {
	const parsed = parseErrorBody(body);
	let message: string;
	if (parsed.nonJsonText !== undefined) {
		message = `The CRM API answered ${status} with a page that is not JSON${parsed.nonJsonText ? `: "${parsed.nonJsonText}"` : ''}`;
	} else {
		const code = parsed.code ? ` ${parsed.code}` : '';
		message = `The CRM API answered ${status}${code}${parsed.message ? `: ${parsed.message}` : ''}`;
	}
	const errorResponse: JsonObject = {
		httpCode: String(status),
		code: parsed.code ?? null,
		message,
		method: request.method,
		path: request.path,
	};
	return keepMessage(
		new NodeApiError(node, errorResponse, {
			message,
			description: adviceFor(status, request, parsed.message),
			httpCode: String(status),
			itemIndex: request.itemIndex,
		}),
		message,
	);
}

/** Seconds for people: `60 s`, `1.5 s`. */
function seconds(ms: number): string {
	const value = ms / 1000;
	return `${Number.isInteger(value) ? value : value.toFixed(1)} s`;
}

/**
 * A request the node abandoned at its deadline: no complete answer (connect, wait, whole body) within `limitMs`.
 * `answered`: the status line had come, the body had not finished.
 */
/** The errors of a request that reached its deadline (its own, or the time limit its caller gave it). */
const deadlineErrors = new WeakSet<object>();

/** Whether `error` is a request's deadline error: the caller's time limit (when it gave one) ran out. */
export function isDeadlineError(error: unknown): boolean {
	return typeof error === 'object' && error !== null && deadlineErrors.has(error);
}

export function deadlineError(
	node: INode,
	request: RequestSummary,
	limitMs: number,
	answered?: number,
): NodeApiError {
	const how =
		answered === undefined
			? 'did not answer'
			: `answered ${answered} but did not finish sending its answer`;
	const message = `The CRM API ${how} ${request.method} ${request.path} within ${seconds(limitMs)}; the node abandoned the request`;
	let description = `Every request has a deadline of ${seconds(limitMs)} for connecting, waiting and reading the whole answer. The CRM (or a proxy in front of it) was too slow: try again later, and check that the Base URL points at the CRM API itself.`;
	if (request.method !== 'GET' && request.method !== 'DELETE') {
		description +=
			' The request may have reached the CRM: check in the CRM whether it took effect before you run this again.';
	}
	const error = new NodeApiError(
		node,
		{ message, code: 'DEADLINE', method: request.method, path: request.path },
		{
			message,
			description,
			itemIndex: request.itemIndex,
			httpCode: answered === undefined ? undefined : String(answered),
		},
	);
	deadlineErrors.add(error);
	return keepMessage(error, message);
}

/** An answer longer than the node reads (READ.maxAnswerBytes): the node stopped reading it. */
export function answerTooLargeError(
	node: INode,
	request: RequestSummary,
	status: number,
	contentType: string,
	maxBytes: number,
): NodeApiError {
	const message = `The CRM API's answer to ${request.method} ${request.path} (${status}, ${contentType}) is larger than ${Math.round(maxBytes / 1024 / 1024)} MB, the most the node reads of one answer; it stopped reading`;
	let description =
		'One record or one page of a list is far smaller than this. A proxy, a web site or a faulty server is answering instead of the CRM API: check the Base URL in the "CRM Invoicing API" credential. For Custom API Request, ask for fewer records per page.';
	if (request.method !== 'GET' && request.method !== 'DELETE') {
		description += ' Check in the CRM whether the request took effect before you run this again.';
	}
	return statusError(node, request, status, message, description);
}

/** What a successful answer must hold before the node reports success (ApiRequest.expect). */
export type ExpectedAnswer = 'record' | 'object' | 'empty-or-record' | 'empty-or-object' | 'any';

const EXPECTED_NAMES: Record<Exclude<ExpectedAnswer, 'any'>, string> = {
	record: 'a record (a JSON object with an "id")',
	object: 'a JSON object',
	'empty-or-record': 'an empty answer or a record (a JSON object with an "id")',
	'empty-or-object': 'an empty answer or a JSON object',
};

/** A body for a message: its kind and first characters, cut short. */
export function describeAnswer(body: unknown): string {
	if (body === undefined || body === null || body === '') return 'an empty body';
	if (typeof body === 'string')
		return `text starting "${cut(body.replace(/\s+/g, ' ').trim(), 120)}"`;
	if (Array.isArray(body)) return `an array of ${body.length}`;
	if (typeof body === 'object') {
		const keys = Object.keys(body)
			.slice(0, 8)
			.map((key) => key.slice(0, 30));
		return keys.length > 0 ? `an object with the keys ${keys.join(', ')}` : 'an empty object';
	}
	return `a ${typeof body} (${cut(String(body), 40)})`;
}

/**
 * A 2xx whose body is not what the operation needs (an HTML login page, a JSON without `id`): an error, never a
 * success that did not happen. The message names the method, path, status, content type and the first bytes.
 */
export function unexpectedAnswerError(
	node: INode,
	request: RequestSummary,
	status: number,
	contentType: string,
	body: unknown,
	expected: Exclude<ExpectedAnswer, 'any'>,
): NodeApiError {
	// The body and the content type were redacted where they were read (request.ts).
	const message = `The CRM API answered ${request.method} ${request.path} with ${status} (${contentType}) and ${describeAnswer(body)}, not ${EXPECTED_NAMES[expected]}`;
	let description =
		'The node reports success only when the answer shows it. Check that the Base URL in the "CRM Invoicing API" credential points at the CRM API itself, not at a login page (single sign-on), a proxy, a maintenance page or a web site.';
	if (request.method !== 'GET')
		description += ` Check in the CRM whether the ${request.method} took effect before you run this again.`;
	return statusError(node, request, status, message, description);
}

/** Why a 2xx body does not fit `expected`, or undefined when it fits. */
export function answerMismatch(
	body: unknown,
	status: number,
	expected: ExpectedAnswer,
): Exclude<ExpectedAnswer, 'any'> | undefined {
	if (expected === 'any') return undefined;
	const empty = body === undefined || body === null || body === '';
	if (empty && (expected === 'empty-or-record' || expected === 'empty-or-object')) return undefined;
	if (status === 204 && (expected === 'empty-or-record' || expected === 'empty-or-object'))
		return undefined;
	if (!body || typeof body !== 'object' || Array.isArray(body)) return expected;
	if (expected === 'object' || expected === 'empty-or-object') return undefined;
	const id = (body as { id?: unknown }).id;
	const idOk =
		(typeof id === 'string' && id.trim() !== '') || (typeof id === 'number' && Number.isFinite(id));
	return idOk ? undefined : expected;
}

/** A list whose cursor repeats or whose pages do not advance: stopped, so Return All cannot loop forever. */
export function paginationError(node: INode, request: RequestSummary, what: string): NodeApiError {
	const message = `The CRM API's list ${request.path} did not advance: ${what}. The node stopped reading it`;
	const description =
		'The API handed back a cursor it had already given, or a page that does not move on, so reading further would loop forever. The records read so far were not output, so nothing is reported as complete that is not. Try again later, or read fewer records ("Limit") if the API keeps doing this.';
	return keepMessage(
		new NodeApiError(
			node,
			{ message, method: request.method, path: request.path },
			{ message, description, itemIndex: request.itemIndex },
		),
		message,
	);
}

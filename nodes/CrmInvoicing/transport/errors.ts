import { NodeApiError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import { DOCUMENTED_RATE_LIMIT } from './limits';

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

function textOf(html: string): string {
	const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
	const text = (title ?? html)
		.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, ' ')
		.replace(/<[^>]+>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return text.length > MAX_SNIPPET ? `${text.slice(0, MAX_SNIPPET)}…` : text;
}

/** Reads the API's `{ error: { code, message } }`, a flat `{ code, message }` or `{ message }`, plain text (the message), or a page that is not JSON. */
export function parseErrorBody(body: unknown): ParsedErrorBody {
	let value = body;
	if (Buffer.isBuffer(value)) value = value.toString('utf8');
	if (typeof value === 'string') {
		const trimmed = value.trim();
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
	const nested = object.error && typeof object.error === 'object' ? (object.error as typeof object) : undefined;
	const code = nested?.code ?? object.code ?? (typeof object.error === 'string' ? object.error : undefined);
	const message = nested?.message ?? object.message;
	return {
		code: typeof code === 'string' ? code : undefined,
		message: typeof message === 'string' ? message : undefined,
	};
}

/**
 * NodeApiError replaces a message that names a Node.js error code (ECONNRESET, ENOTFOUND, EPERM, …), or whose
 * error has such a `code`, with n8n's generic text for it, even when the message was passed in explicitly.
 * That would drop which request failed and contradict the description ("retry immediately" for a POST that must
 * not be repeated blindly), so the message we built is put back.
 */
function keepMessage(error: NodeApiError, message: string): NodeApiError {
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

const CONNECTION_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'UND_ERR_SOCKET',
]);

/** The low-level code of a failed request (`ECONNRESET`, …), wherever n8n's wrapping put it. */
export function connectionErrorCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const candidate = current as { code?: unknown; cause?: unknown; message?: unknown };
		if (typeof candidate.code === 'string' && CONNECTION_CODES.has(candidate.code)) return candidate.code;
		if (typeof candidate.message === 'string') {
			if (/socket hang up/i.test(candidate.message)) return 'ECONNRESET';
			const match = /\b(E[A-Z_]{4,})\b/.exec(candidate.message);
			if (match && CONNECTION_CODES.has(match[1])) return match[1];
			if (/timeout of \d+ms exceeded/i.test(candidate.message)) return 'ETIMEDOUT';
		}
		current = candidate.cause;
	}
	return undefined;
}

/** The error for a request that got no HTTP answer. Built afresh, so nothing of the request (headers) leaks. */
export function connectionError(node: INode, code: string | undefined, request: RequestSummary, retried: boolean): NodeApiError {
	const what = code ?? 'no response';
	const message = `Could not reach the CRM API for ${request.method} ${request.path} (${what})`;
	let description =
		'Check the Base URL in the "CRM Invoicing API" credential and that the CRM service is reachable from this n8n.';
	if (retried) description += ' The node retried the request before giving up.';
	else if (request.method !== 'GET' && request.method !== 'DELETE')
		description +=
			' The request was not retried, so that nothing is created twice: check in the CRM whether it took effect before you run this again.';
	return keepMessage(
		new NodeApiError(
			node,
			{ message, code: what, method: request.method, path: request.path },
			{ message, description, itemIndex: request.itemIndex },
		),
		message,
	);
}

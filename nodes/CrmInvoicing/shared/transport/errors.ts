import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

import { cut, describeValue, isPlainObject } from '../values';
import { DOCUMENTED_RATE_LIMIT, READ } from './limits';

// Network texts come in redacted (request.ts).

/** Never the full URL. */
type RequestSummary = { method: string; path: string; itemIndex?: number };
type ErrorText = { message: string; description: string; status?: number; code?: string | null };

/** n8n replaces a message naming a code (ECONNRESET) with generic text; ours is kept. */
export function apiError(
	node: INode,
	{ method, path, itemIndex }: RequestSummary,
	{ message, description, status, code }: ErrorText,
) {
	const httpCode = status?.toString();
	const error = new NodeApiError(node, { message, method, path, httpCode, code } as JsonObject, {
		message,
		description,
		httpCode,
		itemIndex,
	});
	error.message = message;
	return error;
}

export const CHECK_BASE_URL =
	'Check that the Base URL in the "CRM Invoicing API" credential points at the CRM API itself, not at a login page (single sign-on), a proxy, a maintenance page or a web site.';

export const checkFirst = (method: string) =>
	method === 'GET'
		? ''
		: ` Check in the CRM whether the ${method} took effect before you run this again.`;

/** A text that is not JSON is a page, or the API's own message ("name is required" in a text/plain 400). */
function parseErrorBody(body: unknown) {
	if (typeof body === 'string') {
		// At most READ.maxErrorBodyBytes: read() stops reading an error body there.
		const text = body.trim();
		// A page's <title>, else its text with the tags cut out: linear in the text, nothing backtracks.
		const title = /<title[^<>]*>([^<]*)/i.exec(text)?.[1];
		const said = cut((title ?? text.replace(/<[^<>]*>/g, ' ')).replace(/\s+/g, ' ').trim(), 160);
		return text.startsWith('<') ? { page: said } : { message: said };
	}
	const { error, code, message } = Object(body) as Record<string, unknown>;
	const inner = Object(error) as Record<string, unknown>;
	const apiCode = inner.code ?? code ?? error;
	const said = inner.message ?? message;
	return {
		code: typeof apiCode === 'string' ? cut(apiCode, 100) : undefined,
		message: typeof said === 'string' ? cut(said, READ.maxErrorSnippetChars) : undefined,
	};
}

function adviceFor(status: number, request: RequestSummary, apiMessage?: string) {
	const call = `${request.method} ${request.path}`;
	const advice: Record<number, string> = {
		400: `The API rejected a value${apiMessage ? `: "${apiMessage}"` : ''}. Correct that field in the node's parameters (or in the data of the input item) and run it again.`,
		401: 'The API key was missing or not accepted. Open the "CRM Invoicing API" credential, paste a valid key from the developer settings of your CRM workspace, and use "Test" to check it.',
		403: `The user who owns this API key is not allowed to do this (${call}). Ask a workspace admin to give that user the permission, or use a key created by a user who has it.`,
		404: `Nothing was found at ${call}. Check that the ID is right and belongs to this workspace; IDs are the public IDs the API returns (for example from a "Get Many").`,
		409: 'The record changed or already exists. Read it again and retry with current data.',
		422: 'The API understood the request but could not process these values. Check the fields named in the message.',
		429:
			`The API allows ${DOCUMENTED_RATE_LIMIT.requests} requests per minute per API key. ` +
			'The node waited and retried but stayed limited. ' +
			'Run fewer executions with this key at the same time, or process fewer items per run.',
	};
	if (status < 500)
		return advice[status] ?? 'Check the parameters of this node, then run it again.';
	// Only a GET or DELETE is retried, and only after 502/503/504 (request.ts): any other may have taken effect.
	const retried = [502, 503, 504].includes(status) ? ' (the node retried it)' : '';
	return ['GET', 'DELETE'].includes(request.method)
		? `The CRM service failed to handle the request${retried}. This is not caused by your parameters; try again later.`
		: `The CRM service failed to handle the request. It was not retried, so that nothing is created twice.${checkFirst(request.method)}`;
}

export function apiErrorFromResponse(
	node: INode,
	status: number,
	body: unknown,
	request: RequestSummary,
) {
	const { code, message: said, page } = parseErrorBody(body);
	const what =
		page === undefined
			? `${code ? ` ${code}` : ''}${said ? `: ${said}` : ''}`
			: ` with a page that is not JSON${page ? `: "${page}"` : ''}`;
	return apiError(node, request, {
		message: `The CRM API answered ${status}${what}`,
		description: adviceFor(status, request, said),
		status,
		code: code ?? null,
	});
}

export type ExpectedAnswer = 'record' | 'empty-or-object' | 'any';

/** A 2xx that does not fit (a login page) is an error, never a false success. */
export function unexpectedAnswerError(
	node: () => INode,
	answer: {
		request: RequestSummary;
		status: number;
		contentType: string;
		body: unknown;
		expected?: ExpectedAnswer;
	},
) {
	const { request, status, contentType, body } = answer;
	const expected = answer.expected ?? (request.method === 'DELETE' ? 'empty-or-object' : 'any');
	const { id } = Object(body) as { id?: unknown };
	// read() gives parsed JSON or the text, never undefined.
	const empty = body === null || body === '' || status === 204;
	const record = typeof id === 'number' ? isFinite(id) : typeof id === 'string' && id.trim() !== '';
	if (expected === 'any' || (expected === 'record' ? record : empty || isPlainObject(body)))
		return undefined;
	const wanted =
		expected === 'record'
			? 'a record (a JSON object with an "id")'
			: 'an empty answer or a JSON object';
	return apiError(node(), request, {
		message: `The CRM API answered ${request.method} ${request.path} with ${status} (${contentType}) and ${describeValue(body, true)}, not ${wanted}`,
		description: `The node reports success only when the answer shows it. ${CHECK_BASE_URL}${checkFirst(request.method)}`,
		status,
	});
}

import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isText } from '../values';
import type { Attempt } from './attempt';
import { apiError, CHECK_BASE_URL, checkFirst } from './errors';

const isTlsCode = (code: string) =>
	/CERT|SSL|TLS|ISSUER|CHAIN|LEAF|UNTRUSTED|EXPIRED|NOT_YET_VALID/.test(code);

const CONNECTION =
	/^(ECONN(RESET|REFUSED|ABORTED)|E?TIMEDOUT|ESOCKETTIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|E(HOST|NET)UNREACH|UND_ERR_SOCKET)$/;

const isConnectionCode = (code: string) => CONNECTION.test(code);

/** n8n 1.x keeps only the message of some failures (a TLS one among them). */
const SAID = {
	ECONNRESET: /socket hang up/i,
	DEPTH_ZERO_SELF_SIGNED_CERT: /self[- ]signed certificate/i,
	CERT_HAS_EXPIRED: /certificate has expired/i,
	ERR_TLS_CERT_ALTNAME_INVALID: /altnames/i,
};

/** n8n wraps them: nearest first. */
function codesIn(error: unknown) {
	const codes: string[] = [];
	let current = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const { code, cause, message } = current as Record<string, unknown>;
		const text = [code, message].filter(isText).join(' ');
		codes.push(...(text.match(/\b[A-Z][A-Z_]{4,}\b/g) ?? []));
		for (const [named, said] of Object.entries(SAID)) {
			if (said.test(text)) codes.push(named);
		}
		current = cause;
	}
	return codes;
}

export const dropped = (error: unknown, codes = codesIn(error)) =>
	!codes.some(isTlsCode) && codes.some(isConnectionCode);

const TLS_ADVICE =
	"n8n checks the certificate of the Base URL's host before it sends the API key; nothing was sent. " +
	'Ask whoever runs the CRM (or its proxy) to install a valid certificate for this host name. ' +
	'Self-signed or from a private certificate authority: ' +
	'give n8n that authority (NODE_EXTRA_CA_CERTS on the n8n server). ' +
	"Expired or not yet valid: check the n8n server's clock too. " +
	'Issued for another host name (ALTNAME): check the host in the Base URL. ' +
	'WRONG_VERSION_NUMBER: the server did not answer with TLS ' +
	'(http:// rather than https://, or the wrong port?).';

/** Marked on the error: an API answer could give the code 'DEADLINE' too. */
export const isDeadlineError = (error: unknown) =>
	error instanceof NodeApiError && error.context.deadline === true;

export type Timing = { ms: number; stop: AbortSignal };

/** No answer: the execution stopped, the deadline passed, or the connection failed. Built afresh so nothing of its
 * headers leaks. */
export function failure(attempt: Attempt, error: unknown, timing: Timing, status?: number) {
	const node = attempt.context.getNode();
	const request = attempt.summary;
	const { method, path, itemIndex } = request;
	if (attempt.cancel?.aborted) {
		return new NodeOperationError(
			node,
			`The execution was stopped while ${method} ${path} was under way`,
			{
				itemIndex,
				description:
					'The request was abandoned. For a request that changes data, check in the CRM whether it took effect.',
			},
		);
	}
	// Not cancelled, so the deadline stopped it. Not retried: a server that slow would only hold the execution longer.
	if (timing.stop.aborted) {
		// `status`: the status line had come, the body had not finished.
		const how =
			status === undefined
				? 'did not answer'
				: `answered ${status} but did not finish sending its answer`;
		// To a tenth of a second: a deadline the caller gave may have any length left (`1.5 s`).
		const within = `${Number((timing.ms / 1000).toFixed(1))} s`;
		const error = apiError(node, request, {
			message: `The CRM API ${how} ${method} ${path} within ${within}; the node abandoned the request`,
			description:
				`Every request has a deadline of ${within} for connecting, waiting and reading the whole answer. ` +
				'The CRM (or a proxy in front of it) was too slow: try again later. ' +
				CHECK_BASE_URL +
				checkFirst(method),
			status,
			code: 'DEADLINE',
		});
		error.context.deadline = true;
		return error;
	}
	const codes = codesIn(error);
	const code = codes.find(isTlsCode);
	if (code) {
		const problem = code.endsWith('SELF_SIGNED_CERT') ? 'is self-signed' : "failed n8n's check";
		return apiError(node, request, {
			message: `The CRM API's TLS certificate ${problem} (${code}); the node did not send ${method} ${path}`,
			description: TLS_ADVICE,
			code,
		});
	}
	const what = codes.find(isConnectionCode) ?? (status ? 'ECONNRESET' : 'no response');
	let description =
		'Check the Base URL in the "CRM Invoicing API" credential and that the CRM service is reachable from this n8n.';
	if (attempt.transientRetries > 0)
		description += ' The node retried the request before giving up.';
	else if (method !== 'GET' && method !== 'DELETE')
		description += ` The request was not retried, so that nothing is created twice.${checkFirst(method)}`;
	return apiError(node, request, {
		message: `Could not reach the CRM API for ${method} ${path} (${what})`,
		description,
		code: what,
	});
}

/** As n8n 2.x and 1.x hand it back with `encoding: 'stream'`. */
export type BodyStream = AsyncIterable<Buffer | string> & { destroy(error?: Error): void };

/** The stream is destroyed after, or when `signal` aborts, so a trickle cannot hold the connection. */
export async function readBody(body: BodyStream, maxBytes: number, signal: AbortSignal) {
	const onAbort = () => body.destroy(new Error('aborted'));
	if (signal.aborted) onAbort();
	else signal.addEventListener('abort', onAbort); // an AbortSignal aborts once
	const chunks: Buffer[] = [];
	let bytes = 0;
	let more = false;
	try {
		for await (const chunk of body) {
			const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
			chunks.push(buffer.subarray(0, maxBytes - bytes));
			more = bytes + buffer.length > maxBytes;
			if (more) break;
			bytes += buffer.length;
		}
	} finally {
		signal.removeEventListener('abort', onAbort);
		// Closes the connection when the loop stopped early (cap, error); a no-op after the end of the body.
		body.destroy();
	}
	const text = Buffer.concat(chunks).toString('utf8');
	try {
		return { text, body: JSON.parse(text.trim()) as unknown, bytes, more };
	} catch {
		return { text, body: text.trim() && text, bytes, more }; // not JSON: the text as it came
	}
}

import { NodeApiError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { keepMessage, type RequestSummary } from './errors';

/**
 * Errors of requests that got no HTTP answer: a connection that failed (reset, refused, a name that does not resolve)
 * or a TLS certificate that failed n8n's check, in which case nothing was sent.
 */

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
		if (typeof candidate.code === 'string' && CONNECTION_CODES.has(candidate.code))
			return candidate.code;
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
export function connectionError(
	node: INode,
	code: string | undefined,
	request: RequestSummary,
	retried: boolean,
): NodeApiError {
	const tls = code === undefined ? undefined : tlsProblem(code);
	if (tls) return tlsError(node, code as string, tls, request);
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

/**
 * What is wrong with the server's TLS certificate, by Node.js's error code. The request never left n8n with its key:
 * the TLS handshake failed before anything was sent.
 */
const TLS_PROBLEMS: Record<string, string> = {
	DEPTH_ZERO_SELF_SIGNED_CERT: 'is self-signed',
	SELF_SIGNED_CERT_IN_CHAIN:
		'is signed by a self-signed certificate that n8n does not trust (a private certificate authority)',
	UNABLE_TO_VERIFY_LEAF_SIGNATURE:
		'is signed by a certificate authority n8n does not know (or the server does not send its intermediate certificates)',
	UNABLE_TO_GET_ISSUER_CERT: 'is signed by a certificate authority n8n does not know',
	UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
		'is signed by a certificate authority n8n does not know (or the server does not send its intermediate certificates)',
	CERT_UNTRUSTED: 'is not trusted',
	CERT_SIGNATURE_FAILURE: 'has a signature that does not verify',
	CERT_HAS_EXPIRED: 'has expired',
	CERT_NOT_YET_VALID: 'is not valid yet (check the clock of the n8n server too)',
	CERT_REVOKED: 'has been revoked',
	ERR_TLS_CERT_ALTNAME_INVALID: "was issued for another host name than the Base URL's",
	ERR_SSL_WRONG_VERSION_NUMBER:
		'could not be read: the server did not answer with TLS (is it http:// rather than https://, or the wrong port?)',
};

function tlsProblem(code: string): string | undefined {
	return Object.prototype.hasOwnProperty.call(TLS_PROBLEMS, code) ? TLS_PROBLEMS[code] : undefined;
}

/** The Node.js code of a TLS certificate failure, wherever n8n's wrapping put it; undefined for other errors. */
export function tlsErrorCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const candidate = current as { code?: unknown; cause?: unknown; message?: unknown };
		if (typeof candidate.code === 'string' && tlsProblem(candidate.code)) return candidate.code;
		if (typeof candidate.message === 'string') {
			const named = /\b([A-Z][A-Z_]{6,})\b/g;
			for (
				let match = named.exec(candidate.message);
				match;
				match = named.exec(candidate.message)
			) {
				if (tlsProblem(match[1])) return match[1];
			}
			if (/self[- ]signed certificate/i.test(candidate.message))
				return 'DEPTH_ZERO_SELF_SIGNED_CERT';
			if (/certificate has expired/i.test(candidate.message)) return 'CERT_HAS_EXPIRED';
			if (/altnames/i.test(candidate.message)) return 'ERR_TLS_CERT_ALTNAME_INVALID';
		}
		current = candidate.cause;
	}
	return undefined;
}

/** A TLS failure: says what is wrong with the certificate and what to check, not "could not reach". */
function tlsError(
	node: INode,
	code: string,
	problem: string,
	request: RequestSummary,
): NodeApiError {
	const message = `The CRM API's TLS certificate ${problem} (${code}); the node did not send ${request.method} ${request.path}`;
	const description =
		"n8n checks the certificate of the Base URL's host before it sends the API key, and this one failed the check, so nothing was sent. " +
		'If the Base URL is right, ask whoever runs the CRM (or the proxy in front of it) to install a valid certificate for this host name. ' +
		'For a certificate of your own certificate authority, give n8n that authority (for example NODE_EXTRA_CA_CERTS on the n8n server). ' +
		'A certificate for another host name can also mean the Base URL names the wrong host.';
	return keepMessage(
		new NodeApiError(
			node,
			{ message, code, method: request.method, path: request.path },
			{ message, description, itemIndex: request.itemIndex },
		),
		message,
	);
}

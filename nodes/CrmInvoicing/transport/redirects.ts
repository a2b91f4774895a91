import type { INode, NodeApiError } from 'n8n-workflow';

import { statusError, type RequestSummary } from './errors';
import { REDIRECTS } from './limits';

/**
 * Redirects. n8n's HTTP client is never allowed to follow one (it would send `x-api-key`, and on 307/308 the body, to
 * any host): the transport decides here. A redirect to another origin is an error and nothing is sent there; one
 * within the Base URL's origin is followed for GET only, at most REDIRECTS.maxSameOriginRedirects times.
 */

export type RedirectRefusal = 'crossOrigin' | 'method' | 'tooMany' | 'noLocation';

function parseUrl(url: string, base?: string): URL | undefined {
	try {
		return new URL(url, base);
	} catch {
		return undefined;
	}
}

/**
 * Where a redirect answer may be followed: the target URL, or why not. `location` is the answer's Location, `from` the
 * URL that was asked, `base` the Base URL, `followed` the redirects already followed for this request.
 */
export function redirectTarget(
	location: string | undefined,
	from: string,
	base: URL,
	method: string,
	followed: number,
): { target: URL } | { refused: RedirectRefusal; target?: URL } {
	const target = location === undefined ? undefined : parseUrl(location, from);
	if (!target) return { refused: 'noLocation' };
	if (target.origin !== base.origin || target.origin === 'null') return { refused: 'crossOrigin', target };
	if (method !== 'GET') return { refused: 'method', target };
	if (followed >= REDIRECTS.maxSameOriginRedirects) return { refused: 'tooMany', target };
	return { target };
}

/** The origin of a URL as people write it (`https://crm.example.com`, `http://10.0.0.5:8080`), or the text itself. */
function originOf(url: URL): string {
	return url.origin === 'null' ? `${url.protocol}//${url.host}` : url.origin;
}

/** A redirect the node did not follow: to another origin (never, the key stays home) or of a non-GET request. */
export function redirectError(
	node: INode,
	status: number,
	target: URL | undefined,
	base: URL,
	request: RequestSummary,
	reason: 'crossOrigin' | 'method' | 'tooMany' | 'noLocation',
): NodeApiError {
	const withBody = request.method !== 'GET' && request.method !== 'HEAD';
	const notSent = withBody ? 'the API key and the request body were not sent there' : 'the API key was not sent there';
	let message: string;
	let description: string;
	switch (reason) {
		case 'crossOrigin':
			message = `The CRM API answered ${status} with a redirect to ${target ? target.host : 'another host'} (${target ? originOf(target) : '?'}), another origin than the Base URL's (${originOf(base)}). The node did not follow it: ${notSent}`;
			description = `The node sends the API key only to the Base URL's scheme, host and port. If the CRM really moved, put its new address (${target ? originOf(target) : 'the redirect target'}) as the Base URL in the "CRM Invoicing API" credential; if you do not know that host, do not: a proxy, a login page or a mistyped address can redirect like this.`;
			break;
		case 'method':
			message = `The CRM API answered ${status} with a redirect for ${request.method} ${request.path}. The node follows redirects only for GET, so it did not repeat the request`;
			description = `Check the Base URL in the "CRM Invoicing API" credential: use the address the API answers on without a redirect (for example https:// rather than http://, or without a trailing path). Check in the CRM whether the ${request.method} took effect before you run this again.`;
			break;
		case 'tooMany':
			message = `The CRM API redirected ${request.method} ${request.path} more than ${REDIRECTS.maxSameOriginRedirects} times; the node stopped following`;
			description = 'Check the Base URL in the "CRM Invoicing API" credential: use the address the API answers on without a redirect.';
			break;
		default:
			message = `The CRM API answered ${status} (a redirect) without a Location for ${request.method} ${request.path}`;
			description = 'Check the Base URL in the "CRM Invoicing API" credential: use the address the API answers on without a redirect.';
	}
	return statusError(node, request, status, message, description);
}


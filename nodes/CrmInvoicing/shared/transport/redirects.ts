import type { INode, NodeApiError } from 'n8n-workflow';

import { statusError, type RequestSummary } from './errors';
import { REDIRECTS } from './limits';
import { showPath, unsafePathReason } from './paths';
import { API_PREFIX } from './spec';

/**
 * Redirects. n8n's HTTP client is never allowed to follow one (it would send `x-api-key`, and on 307/308 the body, to
 * any host): the transport decides here, by one rule. A redirect is followed only when its target is inside the API:
 * the Base URL's origin (scheme, host, port), under the Base URL's path followed by `/api/v1` or `/api/v2`, with no
 * `.`/`..` segment, backslash or control character (also percent-encoded), and no user name or password. Then only
 * for GET, at most REDIRECTS.maxSameOriginRedirects times. Anything else is an error naming the target, and nothing
 * is sent there.
 */

export type RedirectRefusal = 'crossOrigin' | 'outsideApi' | 'method' | 'tooMany' | 'noLocation';

function parseUrl(url: string, base?: string): URL | undefined {
	try {
		return new URL(url, base);
	} catch {
		return undefined;
	}
}

/** The API's roots under the Base URL: `<Base URL path>/api/v1` and `/api/v2`. */
function apiRoots(base: URL): string[] {
	const basePath = base.pathname.replace(/\/+$/, '');
	return Object.values(API_PREFIX).map((prefix) => `${basePath}${prefix}`);
}

/** Whether a URL of the Base URL's origin is inside the API: under `<Base URL path>/api/v1` or `/api/v2`, path-safe. */
export function insideApi(target: URL, base: URL): boolean {
	if (target.username !== '' || target.password !== '') return false;
	for (const root of apiRoots(base)) {
		// WHATWG URL parsing has already resolved "." and ".." segments (also %2e); what is left must stay safe for a
		// server that decodes once more (an encoded slash or backslash around "..").
		if (target.pathname === root) return true;
		if (target.pathname.startsWith(`${root}/`))
			return unsafePathReason(target.pathname.slice(root.length)) === undefined;
	}
	return false;
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
	if (target.origin !== base.origin || target.origin === 'null')
		return { refused: 'crossOrigin', target };
	if (!insideApi(target, base)) return { refused: 'outsideApi', target };
	if (method !== 'GET') return { refused: 'method', target };
	if (followed >= REDIRECTS.maxSameOriginRedirects) return { refused: 'tooMany', target };
	return { target };
}

/** The origin of a URL as people write it (`https://crm.example.com`, `http://10.0.0.5:8080`), or the text itself. */
function originOf(url: URL): string {
	return url.origin === 'null' ? `${url.protocol}//${url.host}` : url.origin;
}

/**
 * A redirect the node did not follow: to another origin or outside the API (never: the key stays in the API), of a
 * non-GET request, too many, or without a Location.
 */
export function redirectError(
	node: INode,
	status: number,
	target: URL | undefined,
	base: URL,
	request: RequestSummary,
	reason: RedirectRefusal,
): NodeApiError {
	const withBody = request.method !== 'GET' && request.method !== 'HEAD';
	const notSent = withBody
		? 'the API key and the request body were not sent there'
		: 'the API key was not sent there';
	// The Location was redacted with the answer's other headers (request.ts).
	const where = target ? showPath(`${target.pathname}${target.search}`) : '?';
	let message: string;
	let description: string;
	switch (reason) {
		case 'crossOrigin':
			message = `The CRM API answered ${status} with a redirect to ${target ? target.host : 'another host'} (${target ? originOf(target) : '?'}), another origin than the Base URL's (${originOf(base)}). The node did not follow it: ${notSent}`;
			description = `The node sends the API key only to the Base URL's scheme, host and port. If the CRM really moved, put its new address (${target ? originOf(target) : 'the redirect target'}) as the Base URL in the "CRM Invoicing API" credential; if you do not know that host, do not: a proxy, a login page or a mistyped address can redirect like this.`;
			break;
		case 'outsideApi': {
			const api = apiRoots(base).join(' or ');
			message = `The CRM API answered ${status} with a redirect to ${where}, outside the API (${api}). The node did not follow it: ${notSent}`;
			description = `The node sends the API key only to the API's own paths under the Base URL, never to other pages of the same host (a sign-in page, an admin page, an export). Check the Base URL in the "CRM Invoicing API" credential: it is the address of the CRM workspace, without /api/v1. If the CRM answers like this for every request, ask whoever runs it why the API redirects to ${where}.`;
			break;
		}
		case 'method':
			message = `The CRM API answered ${status} with a redirect for ${request.method} ${request.path} to ${where}. The node follows redirects only for GET, so it did not repeat the request: ${notSent}`;
			description = `Check the Base URL in the "CRM Invoicing API" credential: use the address the API answers on without a redirect (for example https:// rather than http://, or without a trailing path). Check in the CRM whether the ${request.method} took effect before you run this again.`;
			break;
		case 'tooMany':
			message = `The CRM API redirected ${request.method} ${request.path} more than ${REDIRECTS.maxSameOriginRedirects} times; the node did not follow the last redirect, to ${where}: ${notSent}`;
			description =
				'Check the Base URL in the "CRM Invoicing API" credential: use the address the API answers on without a redirect.';
			break;
		default:
			message = `The CRM API answered ${status} (a redirect) without a Location for ${request.method} ${request.path}`;
			description =
				'Check the Base URL in the "CRM Invoicing API" credential: use the address the API answers on without a redirect.';
	}
	return statusError(node, request, status, message, description);
}
